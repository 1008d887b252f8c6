// a. Play: you guess the server's secret; the assistant shows the strategy's next guess and how a guess
// splits the codes still possible.
import {ApiError, api} from "./api.js";
import {$, element} from "./dom.js";
import {duel} from "./duel.js";
import {Notation, peg, renderBoard} from "./notation.js";
import {chosenRules, liesText, rulesText} from "./rules.js";
import {codes, countText, plural} from "./words.js";

export const play = {
  game: null,
  notation: null,
  guess: [],
  hint: null,
  split: null,   // how a guess splits the codes still possible (GET /api/games/{id}/split), shown beside the hint

  async start() {
    // The adversary keeps no secret (each answer leaves the most codes possible); never in a duel, whose rounds
    // score codes the computer drew.
    const adversary = $("play-adversary").checked && !duel.breaking();
    // With lies, the server's codemaker uses them, at random answers (the adversary tells none).
    const rules = chosenRules();
    const liar = rules.lies && !adversary ? {liar: "random"} : {};
    const state = await api("POST", "/api/games", {rules, role: "codebreaker",
      backend: $("backend").value, strategy: $("strategy").value, ...(adversary ? {adversary: true} : {}), ...liar});
    this.game = state;
    this.notation = new Notation(state);
    this.guess = [];
    this.hint = null;
    this.split = null;
    $("play-status").textContent = "";
    $("play-info").textContent = `${rulesText(state.rules)}; assistant: ${state.strategy} on ${state.backend}`;
    this.renderPalette();
    this.render();
  },

  renderPalette() {
    const buttons = [];
    for (let i = 0; i < this.notation.colors; i++) {
      const button = element("button", {type: "button", class: "palette-peg", "data-testid": `palette-${i}`,
        "aria-label": `colour ${this.notation.symbol(i)}`, onclick: () => this.add(i)}, peg(this.notation, i));
      buttons.push(button);
    }
    $("play-palette").replaceChildren(...buttons);
  },

  add(index) {
    if (!this.open() || this.guess.length >= this.notation.pegs) return;
    this.guess.push(index);
    this.render();
  },

  removeAt(position) {
    this.guess.splice(position, 1);
    this.render();
  },

  open() {
    return this.game !== null && !this.game.over;
  },

  render() {
    const open = this.open();
    const notation = this.notation;
    renderBoard($("play-board"), notation, this.game.history, "play");
    const slots = [];
    for (let i = 0; i < notation.pegs; i++) {
      const filled = i < this.guess.length;
      const slot = peg(notation, filled ? this.guess[i] : null, {"data-testid": `guess-slot-${i}`});
      if (filled && open) {
        slot.classList.add("removable");
        slot.title = "click to take this peg out";
        // A button for the keyboard too: Tab reaches it, Enter or Space takes the peg out.
        Object.assign(slot, {tabIndex: 0});
        slot.setAttribute("role", "button");
        slot.setAttribute("aria-label", `take out peg ${i + 1}`);
        slot.addEventListener("click", () => this.removeAt(i));
        slot.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            this.removeAt(i);
          }
        });
      }
      slots.push(slot);
    }
    $("play-guess").replaceChildren(...slots);
    $("play-guess").dataset.code = this.guess.length === notation.pegs ? notation.format(this.guess) : "";
    $("play-submit").disabled = !open || this.guess.length !== notation.pegs;
    $("play-clear").disabled = !open || this.guess.length === 0;
    $("play-resign").disabled = !open;
    // In a duel the assistant, the opponent's own strategy, does not guess for you; nor does a new game
    // replace the duel's.
    $("play-new").disabled = duel.live;
    $("hint").disabled = !open || duel.breaking();
    $("hint-use").disabled = !open || this.hint === null || duel.breaking();
    $("split").disabled = !open || this.guess.length !== notation.pegs || duel.breaking();
    for (const button of $("play-palette").children) button.disabled = !open;
    if (this.hint === null) {
      $("hint-guess").replaceChildren();
      $("hint-guess").dataset.code = "";
      $("hint-text").textContent = "";
    }
    if (this.split === null) {
      $("split-text").textContent = "";
      $("split-parts").replaceChildren();
    }
  },

  /** Ask how `code` splits the codes still possible and show it. A split the server cannot list (too
   * many codes) is said in the assistant, not as an error of the page: the hint above it stands. */
  async showSplit(code) {
    let split;
    try {
      split = await api("GET", `/api/games/${this.game.id}/split?guess=${encodeURIComponent(code)}`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.split = {error: error.message};
      $("split-text").textContent = `No split of ${code}: ${error.message}`;
      $("split-parts").replaceChildren();
      return;
    }
    this.split = split;
    const win = split.consistent ? "it may win now" : "it cannot win now";
    $("split-text").textContent = `${split.guess} splits ${codes(split.codes)} into ` +
      `${plural(split.number_of_parts, "part")}: the largest ${countText(split.largest)}, expected size ` +
      `${split.expected_size.toFixed(2)}, entropy ${split.entropy.toFixed(2)} bits; ${win}.`;
    $("split-parts").replaceChildren(...split.parts.map((part) => element("li",
      {class: part.size === split.largest ? "largest" : "", "data-feedback": part.feedback},
      `${part.feedback}: ${countText(part.size)}`)));
  },

  async splitGuess() {
    await this.showSplit(this.notation.format(this.guess));
  },

  async submit() {
    const code = this.notation.format(this.guess);
    const reply = await api("POST", `/api/games/${this.game.id}/guesses`, {guess: code});
    // The entry is the reply's guess and feedback, in the rule's keys (black and white; black; marks).
    const {won, attempts, secret, ...entry} = reply;
    this.game.history.push(entry);
    this.game.attempts = reply.attempts;
    this.guess = [];
    this.hint = null;
    this.split = null;
    if (reply.won) {
      this.game.over = this.game.won = true;
      this.game.secret = reply.secret;
      $("play-status").textContent = `You found ${reply.secret} in ${plural(reply.attempts, "guess")}.`;
      if (this.game.rules.lies) {  // which answers were lies: the state says, now that the game is over
        const over = await api("GET", `/api/games/${this.game.id}`);
        $("play-status").textContent += liesText(over);
      }
      if (duel.breaking()) duel.over(reply.attempts, true);
    } else if (duel.breaking() && reply.attempts >= duel.limit) {
      await this.resign();  // out of guesses: the secret is shown, the round scored as a code not broken
      return;
    }
    this.render();
  },

  async resign() {
    this.game = await api("POST", `/api/games/${this.game.id}/resign`);
    this.hint = null;
    this.split = null;
    const attempts = this.game.attempts;
    const shown = this.game.adversary ? `No secret was kept; ${this.game.secret} fits every answer`
      : `The secret was ${this.game.secret}`;
    $("play-status").textContent = `${shown} (` + (duel.breaking() &&
      attempts >= duel.limit ? `out of guesses: ${duel.limit} allowed in the duel).`
      : `you gave up after ${plural(attempts, "guess")}).`) + liesText(this.game);
    if (duel.breaking()) duel.over(attempts, false);
    this.render();
  },

  async askHint() {
    const hint = await api("GET", `/api/games/${this.game.id}/next`);
    this.hint = hint;
    this.render();
    const left = hint.consistent === null ? `at least ${hint.consistent_at_least.toLocaleString("en")} codes`
      : codes(hint.consistent);
    $("hint-guess").replaceChildren(...this.notation.parse(hint.guess).map((i) => peg(this.notation, i)));
    $("hint-guess").dataset.code = hint.guess;
    $("hint-text").textContent = `Suggestion: ${hint.guess}; ${left} still possible.`;
    await this.showSplit(hint.guess);
  },

  useHint() {
    this.guess = this.notation.parse(this.hint.guess);
    this.render();
  },
};
