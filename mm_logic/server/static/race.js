// d. The race: entrants (backend + strategy) play one secret side by side, move by move (`race`); or a batch
// of secrets, each entrant in its own worker process on the server, the first to finish winning (`batchRace`).
import {api, inPageWords} from "./api.js";
import {$, element} from "./dom.js";
import {Notation, renderBoard} from "./notation.js";
import {chosenRules, fillSelect, options, players, refill, ruleLabel} from "./rules.js";
import {plural, sizeText} from "./words.js";

// ---- d. The race --------------------------------------------------------------------------------------
export const race = {
  state: null,
  running: false,
  MIN: 2,
  MAX: 4,
  DELAY: 300,

  /** The entrant rows: three to start with, on the default backend and different strategies. */
  resetEntrants() {
    const backend = options.backends.includes("python") ? "python" : options.default_backend;
    const strategies = ["minimax", "entropy", "first"].filter((s) => options.strategies.includes(s));
    $("race-entrants").replaceChildren();
    for (const strategy of strategies) this.addEntrant(backend, strategy);
    this.renderEntrantControls();
  },

  /** Each entrant keeps its backend and strategy when they play the rule chosen; else a backend that does
   * (the default one first), and a strategy that does and that no other entrant plays, when there is one. */
  refillEntrants(backends, strategies) {
    const rows = [...$("race-entrants").children].map((row) => row.querySelectorAll("select"));
    const taken = new Set(rows.map(([, strategy]) => strategy.value).filter((name) => strategies.includes(name)));
    for (const [backend, strategy] of rows) {
      refill(backend, backends, options.backends.includes("python") ? "python" : options.default_backend);
      if (!strategies.includes(strategy.value)) {
        const free = strategies.find((name) => !taken.has(name)) ?? strategies[0];
        taken.add(free);
        refill(strategy, strategies, free);
      } else {
        refill(strategy, strategies, strategy.value);
      }
    }
  },

  addEntrant(backend, strategy) {
    const rows = $("race-entrants");
    const number = rows.children.length + 1;
    const backendSelect = element("select", {"data-testid": `race-backend-${number}`, "aria-label": "backend"});
    const strategySelect = element("select", {"data-testid": `race-strategy-${number}`, "aria-label": "strategy"});
    const allowed = players();
    fillSelect(backendSelect, allowed.backends, allowed.backends.includes(backend) ? backend : allowed.backends[0]);
    fillSelect(strategySelect, allowed.strategies,
      allowed.strategies.includes(strategy) ? strategy : allowed.strategies[0]);
    const row = element("div", {class: "entrant", "data-testid": `race-entrant-${number}`},
      element("span", {class: "number", text: String(number)}), backendSelect, strategySelect,
      element("button", {type: "button", class: "remove", "data-testid": `race-remove-${number}`,
        "aria-label": "remove this entrant", text: "×", onclick: () => {
          row.remove();
          this.renumber();
        }}));
    rows.append(row);
    this.renderEntrantControls();
  },

  renumber() {
    [...$("race-entrants").children].forEach((row, i) => {
      const n = i + 1;
      row.dataset.testid = `race-entrant-${n}`;
      row.querySelector(".number").textContent = String(n);
      const [backend, strategy] = row.querySelectorAll("select");
      backend.dataset.testid = `race-backend-${n}`;
      strategy.dataset.testid = `race-strategy-${n}`;
      row.querySelector(".remove").dataset.testid = `race-remove-${n}`;
    });
    this.renderEntrantControls();
  },

  renderEntrantControls() {
    const rows = [...$("race-entrants").children];
    $("race-add").disabled = this.running || rows.length >= this.MAX;
    for (const row of rows) row.querySelector(".remove").disabled = this.running || rows.length <= this.MIN;
  },

  entrants() {
    return [...$("race-entrants").children].map((row) => {
      const [backend, strategy] = row.querySelectorAll("select");
      return {backend: backend.value, strategy: strategy.value};
    });
  },

  async start() {
    const body = {rules: chosenRules(), entrants: this.entrants()};
    const secret = $("race-secret-input").value.trim();
    if (secret) body.secret = secret;
    this.state = await api("POST", "/api/races", body);
    this.render();
  },

  async step() {
    this.state = await api("POST", `/api/races/${this.state.id}/step`);
    this.render();
  },

  /** Step every DELAY ms until the race is over (or an error stops it). */
  async run() {
    this.running = true;
    this.render();
    try {
      while (this.running && !this.state.over) {
        const started = performance.now();
        await this.step();
        const wait = this.DELAY - (performance.now() - started);
        if (!this.state.over && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    } finally {
      this.running = false;
      this.render();
    }
  },

  render() {
    const state = this.state;
    const live = state !== null && !state.over;
    $("race-start").disabled = this.running;
    $("race-step").disabled = !live || this.running;
    $("race-run").disabled = !live || this.running;
    this.renderEntrantControls();
    if (state === null) return;
    const notation = new Notation(state);
    const columns = state.entrants.map((entrant, i) => {
      const winner = state.winners.includes(i);
      const list = element("ol", {class: "board"});
      renderBoard(list, notation, entrant.history, `race-${i + 1}`);
      const foot = [element("span", {"data-testid": `race-attempts-${i + 1}`,
        text: plural(entrant.attempts, "guess")}),
      // Milliseconds to the microsecond: ties on guesses go to the least time, which must show.
      element("span", {"data-testid": `race-seconds-${i + 1}`, text: `${(entrant.seconds * 1000).toFixed(3)} ms`})];
      if (entrant.stopped) {
        foot.push(element("span", {class: "stopped", text: `stopped: ${inPageWords(entrant.stopped)}`}));
      }
      return element("div", {class: `race-column${winner ? " winner" : ""}${entrant.won ? " won" : ""}`,
        "data-testid": `race-column-${i + 1}`, "data-attempts": entrant.attempts, "data-won": entrant.won,
        "data-winner": winner},
      element("h3", {}, `${entrant.backend} / ${entrant.strategy}`,
        ...(winner ? [element("span", {class: "badge", "data-testid": `race-winner-${i + 1}`, text: "winner"})]
          : [])),
      list,
      element("div", {class: "race-foot"}, ...foot));
    });
    $("race-columns").replaceChildren(...columns);
    $("race-columns").style.setProperty("--columns", String(Math.max(columns.length, 1)));
    const turns = Math.max(0, ...state.entrants.map((e) => e.attempts));
    if (state.over) {
      const names = state.winners.map((i) => `${i + 1} (${state.entrants[i].backend} / ` +
        `${state.entrants[i].strategy})`);
      $("race-status").textContent = `Over: the secret was ${state.secret}. ` +
        (names.length ? `Winner${names.length > 1 ? "s" : ""}: ${names.join(", ")}.` : "No entrant won.");
    } else {
      $("race-status").textContent = `${sizeText(state.rules)}${ruleLabel(state.rules)}; ` +
        `${turns === 0 ? "ready" : `after ${plural(turns, "step")}`}: the secret is hidden until the end.`;
    }
  },
};

// ---- d. The batch race: the entrants race over a batch of secrets, each in its own worker process -----
export const batchRace = {
  state: null,
  POLL: 250,

  /** The race chosen: one secret move by move (the race above), or a batch. */
  chosen() {
    return $("race-mode").value === "batch";
  },

  /** Show the controls of the race chosen, and its board. */
  showMode() {
    const batch = this.chosen();
    for (const id of ["race-one-note", "race-secret-label", "race-step", "race-run", "race-columns"]) {
      $(id).hidden = batch;
    }
    for (const id of ["race-batch-note", "race-games-label", "race-seed-label", "race-batch"]) $(id).hidden = !batch;
    $("race-batch-secrets").hidden = !batch || !this.state?.over;
    $("race-status").textContent = "";
    if (batch && this.state) this.render();
    if (!batch && race.state) race.render();
  },

  /** Start the race and follow it to its end, a look at its state every POLL ms. */
  async start() {
    const body = {rules: chosenRules(), entrants: race.entrants(), games: Number($("race-games").value)};
    const seed = $("race-seed").value.trim();
    if (seed !== "") body.seed = Number(seed);
    race.running = true;
    this.controls();
    try {
      this.state = await api("POST", "/api/races", body);
      this.render();
      while (!this.state.over) {
        await new Promise((resolve) => setTimeout(resolve, this.POLL));
        this.state = await api("GET", `/api/races/${this.state.id}`);
        this.render();
      }
    } finally {
      race.running = false;
      this.controls();
    }
  },

  controls() {
    $("race-start").disabled = race.running;
    $("race-mode").disabled = race.running;
    race.renderEntrantControls();
  },

  /** A line per entrant: its bar, games done, guesses, running mean, time, and its place once finished. */
  render() {
    const state = this.state;
    const rows = state.entrants.map((entrant, i) => {
      const n = i + 1;
      const end = entrant.place !== null
        ? element("span", {class: "badge", "data-testid": `batch-place-${n}`, text: `#${entrant.place}`})
        : element("span", {class: entrant.stopped ? "stopped" : "figure", "data-testid": `batch-place-${n}`,
          text: entrant.stopped ? `stopped: ${inPageWords(entrant.stopped)}` : ""});
      return element("div", {class: `batch-row${entrant.place === 1 ? " first" : ""}`,
        "data-testid": `batch-entrant-${n}`, "data-finished": entrant.finished},
      element("span", {text: `${n}. ${entrant.backend} / ${entrant.strategy}`}),
      element("progress", {max: String(state.games), value: String(entrant.games), "data-testid": `batch-bar-${n}`}),
      element("span", {class: "figure", "data-testid": `batch-games-${n}`, text: `${entrant.games}/${state.games}`}),
      element("span", {class: "figure", "data-testid": `batch-guesses-${n}`,
        text: plural(entrant.total_guesses, "guess")}),
      element("span", {class: "figure", "data-testid": `batch-mean-${n}`,
        text: `mean ${entrant.mean === null ? "-" : entrant.mean.toFixed(3)}`}),
      element("span", {class: "figure", "data-testid": `batch-seconds-${n}`, text: `${entrant.seconds.toFixed(3)} s`}),
      end);
    });
    $("race-batch").replaceChildren(...rows);
    const size = `${sizeText(state.rules)}${ruleLabel(state.rules)}`;
    const finished = (i) => `${state.order.indexOf(i) + 1}. ${state.entrants[i].backend} / ` +
      `${state.entrants[i].strategy} (${state.entrants[i].seconds.toFixed(3)} s)`;
    if (state.over) {
      $("race-status").textContent = `Over: ${plural(state.games, "secret")}. ` +
        (state.order.length ? `Finishing order: ${state.order.map(finished).join(", ")}.` : "No entrant finished.");
      $("race-batch-secrets").textContent = `The secrets: ${state.secrets.join(" ")}`;
    } else {
      $("race-status").textContent = `${size}; ` + (state.started
        ? `racing over ${plural(state.games, "secret")}, ${state.order.length} of ${state.entrants.length} finished`
        : "the workers are starting") + ": the secrets are hidden until the end.";
      $("race-batch-secrets").textContent = "";
    }
    $("race-batch-secrets").hidden = !state.over;
  },
};
