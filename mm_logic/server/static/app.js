// The mmlogic web page: plain JavaScript over the JSON API of `mmlogic serve` (docs/server.md).
// No build step and nothing from the network but this server. Five tabs:
//   Play        you guess the server's secret; the assistant shows the strategy's next guess;
//   Codemaker   the computer guesses the code you keep in mind, you answer as the feedback rule says
//               (black and white; black only; one mark per peg, x o or -; a variant's own rule: its numbers);
//   Duel        the two above in turn, with the board game's running score;
//   Race        entrants (backend + strategy) play one secret side by side, move by move; or a batch of
//               secrets, each in its own worker process on the server, the first to finish winning;
//   Rules       what black and white mean, and the other feedback rules.
// A variant the server serves (`mmlogic serve --encoding FILE`) is one more choice of the Feedback list, by its
// name; its games send `"variant": NAME` in their rules. Every error the API answers ({"error": "..."}) is shown
// in the message area.
"use strict";

// ---- the API ------------------------------------------------------------------------------------
class ApiError extends Error {}
/** A field of the page that cannot be sent as it is; its message is shown as the API's are. */
class InputError extends Error {}

/** The API's messages are in the command line's words (`--pegs`, `--strategy minimax`, `--no-repeat`),
 *  which the command line's users read; the page says the same in its own words, those of its fields. */
const PAGE_WORDS = [
  [/\buse --strategy /g, "choose the strategy "],
  [/^--strategy /, "The strategy "],
  [/--strategy /g, "the strategy "],
  [/--backend /g, "the backend "],
  [/beyond --no-repeat\b/g, "beyond what \u201cNo repetition\u201d allows"],
  [/--no-repeat\b/g, "\u201cNo repetition\u201d"],
  [/--max-repeat\b/g, "Max repeat"],
  [/--alphabet\b/g, "Alphabet"],
  [/--pegs\b/g, "Pegs"],
  [/--colors\b/g, "Colours"],
  [/with --feedback (\S+)/g, "with the feedback rule $1"],
  [/--time-limit (\S+) s\b/g, "the server's time limit of $1 s"],
];

/** ``text``, an API message, in the page's words. */
function inPageWords(text) {
  return PAGE_WORDS.reduce((line, [pattern, words]) => line.replace(pattern, words), text);
}

/** Call the API; the answer's JSON, or an ApiError carrying the server's one-line message (in the page's words). */
async function api(method, path, body) {
  const pending = document.body.dataset;
  pending.pending = String(Number(pending.pending) + 1);
  try {
    const options = {method, headers: {}};
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, options);
    } catch (error) {
      throw new ApiError(`cannot reach the server: ${error.message}`);
    }
    let data;
    try {
      data = await response.json();
    } catch (error) {
      throw new ApiError(`the server answered ${response.status} without JSON`);
    }
    if (!response.ok) {
      throw new ApiError(data.error ? inPageWords(data.error) : `the server answered ${response.status}`);
    }
    return data;
  } finally {
    pending.pending = String(Number(pending.pending) - 1);
  }
}

// ---- the message area ---------------------------------------------------------------------------
const message = {
  show(text) {
    const box = $("message");
    box.textContent = text;
    box.hidden = false;
  },
  clear() {
    const box = $("message");
    box.textContent = "";
    box.hidden = true;
  },
};

/** Run an async action; its error, whatever it is, goes to the message area. */
async function guarded(action) {
  message.clear();
  try {
    return await action();
  } catch (error) {
    const plain = error instanceof ApiError || error instanceof InputError;
    message.show(plain ? error.message : `error in the page: ${error.message}`);
    return undefined;
  }
}

// ---- small helpers ------------------------------------------------------------------------------
function $(id) {
  return document.getElementById(id);
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

/** A number of codes as the page shows it: grouped (1,296); beyond 2^53, where JSON numbers lose
 * digits, "about 1.34 × 10^31". */
function countText(n) {
  if (Number.isSafeInteger(n)) return n.toLocaleString("en");
  const [mantissa, exponent] = n.toExponential(2).split("e");
  return `about ${mantissa} × 10^${Number(exponent)}`;
}

function codes(n) {
  return `${countText(n)} code${n === 1 ? "" : "s"}`;
}

/** "4 pegs, 6 colours" (and "1 colour"). */
function sizeText(rules) {
  return `${plural(rules.pegs, "peg")}, ${rules.colors} colour${rules.colors === 1 ? "" : "s"}`;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : word.endsWith("s") ? "es" : "s"}`;
}

// Twenty colours far apart from each other, then evenly turning hues for bigger games.
const COLOURS = ["#e6194b", "#4363d8", "#3cb44b", "#ffe119", "#f58231", "#911eb4", "#42d4f4", "#f032e6",
  "#bfef45", "#fabed4", "#469990", "#dcbeff", "#9a6324", "#fffac8", "#800000", "#aaffc3", "#808000",
  "#ffd8b1", "#000075", "#a9a9a9"];

// Beyond the twenty, hues turn by the golden angle; lightness alternates so that neighbours in
// hue (colours 21 apart) still differ.
function hslOf(index) {
  return [(index * 137.508) % 360, 65, index % 2 ? 38 : 62];
}

function colourOf(index) {
  if (index < COLOURS.length) return COLOURS[index];
  const [h, s, l] = hslOf(index);
  return `hsl(${h}, ${s}%, ${l}%)`;
}

/** The relative luminance (WCAG) of an HSL colour. */
function luminance([h, s, l]) {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const channel = (n) => {
    const k = (n + h / 30) % 12;
    const c = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(8) + 0.0722 * channel(4);
}

function darkText(index) {
  // Light pegs get dark symbols: yellow, lime, pink, lavender, beige, mint, apricot, cyan, grey; beyond
  // the twenty, whichever of black and white contrasts more with the peg.
  if (index >= COLOURS.length) return luminance(hslOf(index)) > 0.18;
  return [3, 6, 8, 9, 11, 13, 15, 17, 19].includes(index);
}

/** How a game writes its codes: one symbol per peg, or comma-separated numbers beyond the alphabet. */
class Notation {
  constructor(state) {
    this.pegs = state.rules.pegs;
    this.colors = state.rules.colors;
    this.alphabet = state.alphabet;
    this.symbolic = state.alphabet.length >= state.rules.colors;
    this.feedback = feedbackOf(state.rules);
  }

  symbol(index) {
    return this.symbolic ? this.alphabet[index] : String(index);
  }

  format(indices) {
    return indices.map((i) => this.symbol(i)).join(this.symbolic ? "" : ",");
  }

  parse(text) {
    return this.symbolic ? [...text].map((c) => this.alphabet.indexOf(c)) : text.split(",").map(Number);
  }
}

/** A peg of colour `index` (or an empty hole), showing its symbol. */
function peg(notation, index, attributes = {}) {
  if (index === null || index === undefined) {
    return element("span", {class: "peg empty", ...attributes});
  }
  const node = element("span", {class: `peg${darkText(index) ? " light" : ""}`, "data-color": index,
    text: notation.symbol(index), ...attributes});
  node.style.background = colourOf(index);
  return node;
}

function pegsOf(notation, code) {
  return element("div", {class: "pegs", "data-code": code}, ...notation.parse(code).map((i) => peg(notation, i)));
}

/** The black and white markers of an answer, black first, in a small grid. */
function markers(pegs, black, white) {
  const label = white === 0 ? `${black} black` : `${black} black, ${white} white`;
  const box = element("div", {class: "markers", title: label, "aria-label": label});
  // Two rows of markers whatever the pegs (a 20-peg row stays one peg high).
  box.style.gridTemplateColumns = `repeat(${Math.max(2, Math.ceil(pegs / 2))}, var(--marker))`;
  for (let i = 0; i < pegs; i++) {
    box.append(element("span", {class: `marker ${i < black ? "black" : i < black + white ? "white" : "none"}`}));
  }
  return box;
}

/** The marks of a positional answer, one per peg: x, o or -. */
function marksOf(text) {
  const box = element("div", {class: "marks", title: text, "aria-label": `marks ${text}`});
  for (const mark of text) {
    box.append(element("span", {class: `mark ${MARK_CLASS[mark]}`, text: mark}));
  }
  return box;
}

const MARK_CLASS = {"x": "x", "o": "o", "-": "none"};

/** An entry's feedback as the game's rule writes it: "1,2", "2", "x-o-"; a variant's own rule, its numbers or "won". */
function feedbackText(notation, entry) {
  if (notation.feedback === "own") return entry.feedback;
  if (notation.feedback === "positional") return entry.marks;
  if (notation.feedback === "black") return String(entry.black);
  return `${entry.black},${entry.white}`;
}

/** One row of a board: number, guess, markers (or marks), the feedback as text. */
function boardRow(notation, number, entry, prefix) {
  const attributes = {class: "board-row", "data-testid": `${prefix}-row-${number}`, "data-guess": entry.guess,
    "data-feedback": feedbackText(notation, entry)};
  if (entry.black !== undefined) attributes["data-black"] = entry.black;
  if (entry.white !== undefined) attributes["data-white"] = entry.white;
  // A variant's own rule tells numbers, which the text alone shows.
  const shown = notation.feedback === "own" ? [] : notation.feedback === "positional" ? [marksOf(entry.marks)]
    : [markers(notation.pegs, entry.black, entry.white ?? 0)];
  return element("li", attributes,
    element("span", {class: "number", text: String(number)}),
    pegsOf(notation, entry.guess),
    ...shown,
    element("span", {class: "feedback-text", text: feedbackText(notation, entry)}));
}

function renderBoard(list, notation, history, prefix) {
  list.replaceChildren(...history.map((entry, i) => boardRow(notation, i + 1, entry, prefix)));
}

// ---- rules and options --------------------------------------------------------------------------
/** A number field's value; an empty or non-numeric field is refused here (Number("") would send 0). */
function wholeNumber(id, label) {
  const text = $(id).value.trim();
  if (!/^[0-9]+$/.test(text)) throw new InputError(`${label}: enter a whole number`);
  return Number(text);
}

function chosenRules() {
  const rules = {pegs: wholeNumber("pegs", "Pegs"), colors: wholeNumber("colors", "Colours")};
  if ($("no-repeat").checked) rules.no_repeat = true;
  // Empty fields are not sent: the server's defaults (any repetition, the default alphabet) stand.
  if ($("max-repeat").value.trim() !== "") {
    const most = wholeNumber("max-repeat", "Max repeat");
    if (most < 1) throw new InputError("Max repeat: enter at least 1, or nothing for any");
    rules.max_repeat = most;
  }
  const alphabet = $("alphabet").value.trim();
  if (alphabet !== "") {
    // The rules' own check (mm_logic/rules.py), here first so that the field's fault shows before any request.
    if (new Set(alphabet).size !== [...alphabet].length || /[,:\s]/.test(alphabet)) {
      throw new InputError("Alphabet: enter distinct symbols, without ',', ':' or spaces");
    }
    rules.alphabet = alphabet;
  }
  // Sent only when it is not the standard rule (the server reads none as standard): a standard game's requests
  // are as they were. A variant is sent by its name, and plays its own rule.
  const variant = chosenVariant();
  if (variant) rules.variant = variant.name;
  else if ($("feedback").value !== "standard") rules.feedback = $("feedback").value;
  // Lies only when asked: a game without them sends what it always sent.
  if ($("lies").value.trim() !== "") {
    const lies = wholeNumber("lies", "Lies");
    if (lies > 3) throw new InputError("Lies: enter 0 to 3");
    if (lies > 0) rules.lies = lies;
  }
  return rules;
}

/** "Answers 1 and 3 were lies." once a game with lies is over (its state's `lies`), else "". */
function liesText(state) {
  const lies = state.lies ?? [];
  if (!lies.length) return state.rules?.lies ? " Every answer was true." : "";
  const numbers = lies.length === 1 ? `Answer ${lies[0]} was a lie`
    : `Answers ${lies.slice(0, -1).join(", ")} and ${lies.at(-1)} were lies`;
  return ` ${numbers}.`;
}

/** A reply's feedback rule. The server's replies name it always (docs/server.md); one that predates the
 * feedback rules names none, which is the standard rule. */
function feedbackOf(rules) {
  return rules.feedback ?? "standard";
}

/** What the page's labels say of a game's feedback rule, after its size (nothing for the standard rule). */
const FEEDBACK_LABELS = {black: ", black pegs only", positional: ", one mark per peg", own: ", its own feedback rule"};

/** The variant and the feedback rule of a game, after its size: ", variant palindrome, one mark per peg". */
function ruleLabel(rules) {
  return (rules.variant ? `, variant ${rules.variant}` : "") + (FEEDBACK_LABELS[feedbackOf(rules)] ?? "");
}

/** "4 pegs, 6 colours, no repetition, one mark per peg". */
function rulesText(rules) {
  const repeat = rules.max_repeat === 1 ? ", no repetition"
    : rules.max_repeat ? `, at most ${rules.max_repeat} of each colour` : "";
  const lies = rules.lies ? `, at most ${plural(rules.lies, "wrong answer")}` : "";
  return sizeText(rules) + repeat + ruleLabel(rules) + lies;
}

let options = {backends: [], strategies: [], default_backend: "", default_strategy: "", max_entrants: 8,
  feedback_rules: {}, variants: []};

/** The Feedback list's value of a variant: its name after this prefix (no built-in rule's name has it). */
const VARIANT = "variant:";

/** The variant chosen in the Feedback list (its entry of /api/options), or null for a built-in rule. */
function chosenVariant() {
  const value = $("feedback").value;
  return (options.variants ?? []).find((variant) => VARIANT + variant.name === value) ?? null;
}

/** The variants the server serves, offered by name in the Feedback list beside the built-in rules, and said in
 * the Rules tab. */
function offerVariants() {
  const variants = options.variants ?? [];
  $("feedback").append(...variants.map((variant) => element("option", {value: VARIANT + variant.name,
    text: `variant ${variant.name}`})));
  $("rules-variants").hidden = variants.length === 0;
  $("rules-variant-names").textContent = variants.map((variant) => variant.name +
    (variant.feedback === "own" ? " (its own feedback rule)" : "")).join(", ");
}

function fillSelect(select, names, chosen) {
  select.replaceChildren(...names.map((name) => element("option", {value: name, text: name})));
  select.value = chosen;
}

/** The backends and strategies that play the feedback rule or the variant chosen (all of them when the server
 * does not say). */
function players() {
  const rule = chosenVariant() ?? options.feedback_rules?.[$("feedback").value];
  return {backends: rule?.backends ?? options.backends, strategies: rule?.strategies ?? options.strategies};
}

/** Offer in `select` the `names` only, keeping its choice when it is one of them; else `fallback` when it is,
 * else the first name. */
function refill(select, names, fallback) {
  const chosen = select.value;
  fillSelect(select, names, names.includes(chosen) ? chosen : names.includes(fallback) ? fallback : names[0]);
}

/** The feedback rule changed: the lists offer what plays it, the race's entrants too. */
function applyFeedback() {
  const {backends, strategies} = players();
  refill($("backend"), backends, chosenVariant()?.default_backend ?? options.default_backend);
  refill($("strategy"), strategies, options.default_strategy);
  race.refillEntrants(backends, strategies);
}

async function loadOptions() {
  options = await api("GET", "/api/options");
  offerVariants();
  fillSelect($("backend"), options.backends, options.default_backend);
  fillSelect($("strategy"), options.strategies, options.default_strategy);
  race.resetEntrants();
  applyFeedback();
}

// ---- a. Play: you guess ---------------------------------------------------------------------------
const play = {
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

// ---- the feedback, computed in the page to check your answers against your code --------------------
// One function per rule, each mirroring mm_logic/feedback (standard.py, black.py, positional.py): codes are
// arrays of colour indices. tests/frontends/test_web_codemaker_code.py checks them against mm_logic's on
// random pairs; change them together.

/** The standard rule (mm_logic/feedback/standard.py): black, the pegs right in colour and place; white, the
 * further pegs of a right colour (per colour, the smaller of its counts in guess and secret, less the blacks). */
function feedbackStandard(guess, secret) {
  let black = 0;
  const inGuess = new Map();
  const inSecret = new Map();
  guess.forEach((g, i) => {
    if (g === secret[i]) black += 1;
    inGuess.set(g, (inGuess.get(g) ?? 0) + 1);
    inSecret.set(secret[i], (inSecret.get(secret[i]) ?? 0) + 1);
  });
  let common = 0;
  for (const [colour, n] of inGuess) common += Math.min(n, inSecret.get(colour) ?? 0);
  return {black, white: common - black};
}

/** The black-peg rule (mm_logic/feedback/black.py): the black pegs alone. */
function feedbackBlack(guess, secret) {
  return {black: guess.filter((g, i) => g === secret[i]).length};
}

/** The positional rule (mm_logic/feedback/positional.py): x right place; o the colour elsewhere, credited at
 * most as often as the secret holds it beyond its right pegs, earlier pegs first; - neither. */
function feedbackPositional(guess, secret) {
  const marks = guess.map((g, i) => (g === secret[i] ? "x" : "-"));
  const left = new Map();
  secret.forEach((s, i) => {
    if (marks[i] !== "x") left.set(s, (left.get(s) ?? 0) + 1);
  });
  guess.forEach((g, i) => {
    if (marks[i] !== "x" && (left.get(g) ?? 0) > 0) {
      marks[i] = "o";
      left.set(g, left.get(g) - 1);
    }
  });
  return {marks: marks.join("")};
}

/** The page's feedback function of each rule the page plays. */
const FEEDBACK = {standard: feedbackStandard, black: feedbackBlack, positional: feedbackPositional};

/** The page's feedback function of a game's rule; a variant's own rule, which the page cannot compute, is said in
 * one line instead. */
function feedbackFunction(notation) {
  const compute = FEEDBACK[notation.feedback];
  if (compute === undefined) {
    throw new InputError("Your code: the page cannot compute the answers of this variant's own feedback rule; " +
      "empty the field and answer as the rule tells");
  }
  return compute;
}

// ---- b. The computer guesses your code --------------------------------------------------------------
const codemaker = {
  game: null,
  notation: null,
  current: null,   // the computer's guess being answered: {guess, consistent, ...}
  black: 0,
  white: 0,

  closed: false,    // the duel's round ended before the code was found: no more guesses nor answers

  async start() {
    const state = await api("POST", "/api/games", {rules: chosenRules(), role: "codemaker",
      backend: $("backend").value, strategy: $("strategy").value});
    this.closed = false;
    $("cm-status").textContent = "";
    $("cm-info").textContent = `${rulesText(state.rules)}; the computer plays ${state.strategy} on ${state.backend}`;
    $("cm-explain").textContent = CM_EXPLAIN[feedbackOf(state.rules)];
    await this.show(state);
  },

  /** Show a state, and ask the computer's next guess unless the game is won. The board is drawn
   * first: if the next guess does not come (the server unreachable, a time limit), the page still
   * shows the game as the server has it, and Undo or New game go on from there. */
  async show(state) {
    this.game = state;
    this.notation = new Notation(state);
    this.current = null;
    this.black = this.white = 0;
    this.marks = Array(this.notation.pegs).fill("-");
    $("cm-told").value = "";
    $("cm-status").textContent = state.won
      ? `The computer found your code ${state.history.at(-1).guess} in ${plural(state.attempts, "guess")}.`
      : "";
    this.render();
    if (duel.making() && (state.won || state.attempts >= duel.limit)) {
      this.stop();
      if (state.won) duel.over(state.attempts, true);
      else duel.outOfGuesses(state.attempts);
      return;
    }
    if (!state.won) {
      this.current = await api("GET", `/api/games/${state.id}/next`);
      this.render();
    }
  },

  /** The duel's round ended: the guess on show goes, and no answer or undo is taken any more. */
  stop() {
    this.closed = true;
    this.current = null;
    this.render();
  },

  render() {
    const notation = this.notation;
    renderBoard($("cm-board"), notation, this.game.history, "cm");
    $("cm-turn").hidden = this.current === null;
    $("cm-fill").disabled = this.current === null;
    $("cm-undo").disabled = this.game.history.length === 0 || this.game.over || this.closed;
    $("cm-new").disabled = duel.live;
    if (this.current === null) return;
    const guess = pegsOf(notation, this.current.guess);
    $("cm-guess").replaceChildren(...guess.children);
    $("cm-guess").dataset.code = this.current.guess;
    $("cm-left").textContent = this.current.consistent === null
      ? `(at least ${this.current.consistent_at_least.toLocaleString("en")} codes still possible)`
      : `(${codes(this.current.consistent)} still possible)`;
    this.renderAnswer();
  },

  /** The answer being set, as the rule asks it: markers and counters (black and white; black only), one
   * mark per peg, or (a variant's own rule) its numbers typed. */
  renderAnswer() {
    const rule = this.notation.feedback;
    const pegs = this.notation.pegs;
    $("cm-markers").hidden = $("cm-black-counter").hidden = rule === "positional" || rule === "own";
    $("cm-white-counter").hidden = rule !== "standard";
    $("cm-marks").hidden = rule !== "positional";
    $("cm-told-label").hidden = rule !== "own";
    if (rule === "own") return;
    if (rule === "positional") {
      // One button per peg of the guess, under it: a click turns it - -> o -> x -> -.
      $("cm-marks").style.setProperty("--pegs", String(pegs));
      $("cm-marks").replaceChildren(...this.marks.map((mark, i) => element("button", {type: "button",
        class: `mark ${MARK_CLASS[mark]}`, "data-testid": `cm-mark-${i}`, text: mark,
        "aria-label": `peg ${i + 1}: ${MARK_WORDS[mark]}`, onclick: () => this.cycleMark(i)})));
      $("cm-marks").dataset.marks = this.marks.join("");
      return;
    }
    $("cm-black").textContent = String(this.black);
    $("cm-white").textContent = String(this.white);
    const slots = [];
    for (let i = 0; i < pegs; i++) {
      const kind = i < this.black ? "black" : i < this.black + this.white ? "white" : "none";
      slots.push(element("button", {type: "button", class: `marker ${kind}`, "data-testid": `cm-marker-${i}`,
        "aria-label": `marker ${i + 1}: ${kind === "none" ? "empty" : kind}`, onclick: () => this.cycle(kind)}));
    }
    $("cm-markers").replaceChildren(...slots);
    $("cm-black-minus").disabled = this.black === 0;
    $("cm-white-minus").disabled = this.white === 0;
    $("cm-black-plus").disabled = $("cm-white-plus").disabled = this.black + this.white >= pegs;
  },

  /** A click on a marker turns it empty -> black -> white -> empty (black only: empty -> black -> empty). */
  cycle(kind) {
    if (kind === "none") this.black += 1;
    else if (kind === "black" && this.notation.feedback === "standard") { this.black -= 1; this.white += 1; }
    else if (kind === "black") this.black -= 1;
    else this.white -= 1;
    keepingFocus(() => this.renderAnswer(), "cm-send");
  },

  /** A click on a peg's mark turns it - -> o -> x -> -. */
  cycleMark(position) {
    this.marks[position] = {"-": "o", "o": "x", "x": "-"}[this.marks[position]];
    keepingFocus(() => this.renderAnswer(), "cm-send");
  },

  change(colour, delta) {
    const value = this[colour] + delta;
    if (value < 0 || this.black + this.white + delta > this.notation.pegs) return;
    this[colour] = value;
    keepingFocus(() => this.renderAnswer(), "cm-send");
  },

  /** The answer's body in the rule's keys (docs/server.md): black and white; black; marks; a variant's own
   * rule's numbers (or won), as typed. */
  answer() {
    const rule = this.notation.feedback;
    if (rule === "own") return {feedback: $("cm-told").value.trim()};
    if (rule === "positional") return {marks: this.marks.join("")};
    if (rule === "black") return {black: this.black};
    return {black: this.black, white: this.white};
  },

  /** Your code, from the field, as colour indices; null when the field is empty. It never leaves the page:
   * no request carries it (the server is told the answers only), so the computer cannot peek. */
  secret() {
    const text = $("cm-secret").value.trim();
    if (text === "") return null;
    const notation = this.notation;
    const code = notation.parse(text);
    const most = this.game.rules.max_repeat;
    const symbols = notation.symbolic ? `the symbols ${notation.alphabet.slice(0, notation.colors)}`
      : `numbers 0 to ${notation.colors - 1}, comma-separated`;
    if (code.length !== notation.pegs || code.some((c) => !Number.isInteger(c) || c < 0 || c >= notation.colors)) {
      throw new InputError(`Your code: enter ${plural(notation.pegs, "peg")} of ${symbols}`);
    }
    if (most && code.some((c) => code.filter((d) => d === c).length > most)) {
      throw new InputError(`Your code: at most ${most} of each colour in this game`);
    }
    return code;
  },

  /** The answer, as text, that `code` gives to `guess`. */
  answerText(guess, code) {
    return feedbackText(this.notation, feedbackFunction(this.notation)(this.notation.parse(guess), code));
  },

  /** The indices of the `entries` (by default the game's history) whose answer `code` does not give. */
  wrongFor(code, entries = this.game.history) {
    return entries.flatMap((entry, i) =>
      this.answerText(entry.guess, code) !== feedbackText(this.notation, entry) ? [i] : []);
  },

  /** The answer your code gives to the guess on show, or null without a code. */
  expected() {
    const code = this.secret();
    if (code === null) return null;
    return feedbackFunction(this.notation)(this.notation.parse(this.current.guess), code);
  },

  /** Set the answer to the one your code gives. */
  fill() {
    const right = this.expected();
    if (right === null) throw new InputError("Your code: type it first, then the page can fill the answer");
    if (right.marks !== undefined) this.marks = [...right.marks];
    else Object.assign(this, {black: right.black, white: right.white ?? 0});
    keepingFocus(() => this.renderAnswer(), "cm-send");
  },

  async send() {
    // With your code typed, an answer that disagrees with it is refused here, and nothing is sent.
    const right = this.expected();
    const given = this.answer();
    const lies = this.game.rules.lies ?? 0;
    if (right !== null && lies) {
      // With lies you may answer wrongly, up to the rules' number: more would leave the computer no code.
      const wrong = this.wrongFor(this.secret(), [...this.game.history, {...given, guess: this.current.guess}]);
      if (wrong.length > lies) {
        throw new InputError(`Your code ${$("cm-secret").value.trim()} would make ${plural(wrong.length, "answer")} ` +
          `wrong, more than the ${lies} allowed: nothing sent.`);
      }
    } else if (right !== null) {
      // A code typed in mid-game: the answers given before it are checked too, as a wrong one would leave the
      // computer without a code to find.
      const code = this.secret();
      const [first] = this.wrongFor(code);
      if (first !== undefined) {
        const entry = this.game.history[first];
        throw new InputError(`Your code ${$("cm-secret").value.trim()} answers ${entry.guess} (guess ${first + 1}) ` +
          `with ${this.answerText(entry.guess, code)}, not ${feedbackText(this.notation, entry)}: undo to it.`);
      }
      const [should, said] = [feedbackText(this.notation, right), feedbackText(this.notation, given)];
      if (should !== said) {
        throw new InputError(`Your code ${$("cm-secret").value.trim()} answers ${this.current.guess} with ` +
          `${should}, not ${said}: nothing sent.`);
      }
    }
    const body = {...given, guess: this.current.guess};
    let state;
    try {
      state = await api("POST", `/api/games/${this.game.id}/feedback`, body);
    } catch (error) {
      // An answer no code could give with the earlier ones: say which answers to change, and to what.
      if (error instanceof ApiError && error.message.startsWith("no code is consistent") && !this.game.rules.lies) {
        const found = await api("POST", `/api/games/${this.game.id}/diagnose`, body);
        throw new ApiError(`${error.message}. Fewest changes: ${found.text}`);
      }
      throw error;
    }
    await this.show(state);
  },

  async undo() {
    await this.show(await api("POST", `/api/games/${this.game.id}/undo`));
  },
};

/** How to answer, by feedback rule (the paragraph above the board). */
const CM_EXPLAIN = {
  standard: "Think of a code and keep it to yourself. For each of the computer's guesses, set how many pegs are " +
    "right in colour and place (black) and how many are right in colour only (white), then send.",
  black: "Think of a code and keep it to yourself. For each of the computer's guesses, set how many pegs are " +
    "right in colour and place (black), then send.",
  positional: "Think of a code and keep it to yourself. For each of the computer's guesses, click the mark under " +
    "each peg until it says x (right colour, right place), o (the colour is elsewhere in your code) or - " +
    "(neither), then send.",
  own: "Think of a code the variant admits and keep it to yourself. For each of the computer's guesses, type the " +
    "numbers the variant's own feedback rule tells (e.g. 2, or 1,2), or won when the guess is your code, then send.",
};

const MARK_WORDS = {"x": "right place", "o": "elsewhere", "-": "neither"};

// ---- c. The duel: you and the computer in turn --------------------------------------------------------
// The board game's score (Wikipedia, "Mastermind (board game)", Gameplay and rules), as `mmlogic play
// --role duel` keeps it (mm_logic/terminal/duel.py): the codemaker scores a point per guess, and one more
// for a code not broken within the guesses allowed; an even number of rounds, you break first.
const duel = {
  rounds: 0,
  limit: 10,
  number: 0,      // the round under way, or the last one played
  live: false,    // a round is under way
  person: 0,
  computer: 0,
  results: [],
  showing: null,  // the computer ran out of guesses at your code: its guesses, while the round waits for the code

  /** A round is under way in which you break the computer's code (odd rounds). */
  breaking() {
    return this.live && this.number % 2 === 1;
  },

  /** A round is under way in which the computer breaks yours (even rounds). */
  making() {
    return this.live && this.number % 2 === 0;
  },

  async start() {
    if (chosenRules().lies) throw new InputError("Lies: the duel plays without them; empty the field");
    const rounds = wholeNumber("duel-rounds", "Rounds");
    if (rounds < 2 || rounds % 2) {
      throw new InputError("Rounds: enter an even number, at least 2 (each side makes as many codes as it breaks)");
    }
    const limit = wholeNumber("duel-limit", "Guesses allowed");
    if (limit < 1) throw new InputError("Guesses allowed: enter at least 1");
    Object.assign(this, {rounds, limit, number: 0, live: false, person: 0, computer: 0, results: [], showing: null});
    await this.next();
  },

  /** The next round, in the tab that plays it (the round is not counted if its game cannot start). */
  async next() {
    this.number += 1;
    this.live = true;
    try {
      if (this.number % 2 === 1) await play.start();
      else await codemaker.start();
    } catch (error) {
      this.number -= 1;
      this.live = false;
      this.render();
      throw error;
    }
    selectTab($(this.number % 2 === 1 ? "tab-play" : "tab-codemaker"));
    this.render();
  },

  /** The computer did not break your code within the guesses allowed. As `play --role duel` asks, the extra
   * point goes to a code shown at the end with every answer right for it: the round waits for it (the Your code
   * field, then Show your code; one typed already is shown at once), or for Stop the round (no extra point). */
  outOfGuesses(guesses) {
    this.showing = guesses;
    $("cm-status").textContent = `Out of guesses: ${this.limit} allowed in the duel. For the extra point, show ` +
      "your code: type it in Your code, then Show your code.";
    this.render();
    if ($("cm-secret").value.trim() !== "") this.show();
  },

  /** Your code, shown at the end of a round the computer did not win: the extra point if every answer was its. */
  show() {
    const code = codemaker.secret();
    if (code === null) throw new InputError("Your code: type it first, then show it");
    const text = $("cm-secret").value.trim();
    const [wrong = -1] = codemaker.wrongFor(code);
    $("cm-status").textContent = wrong < 0 ? `Your code ${text} fits every answer: the extra point is yours.`
      : `Your code ${text} does not fit answer ${wrong + 1} (to ${codemaker.game.history[wrong].guess}): no extra ` +
        "point.";
    const guesses = this.showing;
    this.showing = null;
    this.over(guesses, false, wrong < 0);
  },

  /** The round under way ended: `guesses` made, the code `broken` or not; `honest`, for your code the computer
   * did not break in time: shown and every answer right for it (true), an answer wrong (false), not shown (null). */
  over(guesses, broken, honest = true) {
    const breaks = this.number % 2 === 1;
    // A code not broken in time earns the extra point (yours only when shown, every answer right for it); so does
    // one you gave up (giving up never pays), not one whose breaking you stopped.
    const extra = breaks || (guesses >= this.limit && honest);
    const points = broken ? guesses : extra ? this.limit + 1 : guesses;
    if (breaks) this.computer += points;
    else this.person += points;
    let why;
    if (broken) {
      why = breaks ? `you broke its code in ${plural(guesses, "guess")}`
        : `the computer broke your code in ${plural(guesses, "guess")}`;
    } else if (guesses >= this.limit && !breaks && !honest) {
      why = `your code not broken in ${plural(this.limit, "guess")}, but ` +
        `${honest === null ? "not shown" : "your answers did not fit it"}: no extra point`;
    } else if (guesses >= this.limit) {
      why = `${breaks ? "its" : "your"} code not broken in ${plural(this.limit, "guess")}: ${this.limit} and 1 more`;
    } else {
      why = breaks ? `you gave up: ${this.limit} and 1 more, as for a code not broken`
        : `you stopped the computer after ${plural(guesses, "guess")}: no extra point`;
    }
    const line = `Round ${this.number}: ${breaks ? "the computer scores" : "you score"} ${points} (${why}).`;
    this.results.push({number: this.number, breaks, guesses, broken, points, line});
    this.live = false;
    this.render();
  },

  /** Stop the round under way: as giving up (a code you break) or as quit (the computer breaking yours). */
  async stop() {
    if (this.breaking()) {
      await play.resign();
    } else if (this.showing !== null) {
      const guesses = this.showing;
      this.showing = null;
      $("cm-status").textContent = "You did not show your code: no extra point.";
      this.over(guesses, false, null);
    } else if (this.making()) {
      codemaker.stop();
      $("cm-status").textContent = "You stopped the round.";
      this.over(codemaker.game.history.length, false);
    }
  },

  /** Who won, or the round to play: the status line, shown in the Play and Codemaker tabs too. */
  statusText() {
    const last = this.results.at(-1);
    if (this.showing !== null) {
      return `Round ${this.number} of ${this.rounds}: the computer did not break your code in ` +
        `${plural(this.limit, "guess")}; show it in the Computer guesses your code tab for the extra point.`;
    }
    if (this.live) {
      return `Round ${this.number} of ${this.rounds}: ` + (this.number % 2 === 1
        ? `you break the computer's code in the Play tab (at most ${plural(this.limit, "guess")}, no assistant).`
        : `the computer breaks your code in the Computer guesses your code tab (at most ` +
          `${plural(this.limit, "guess")}).`);
    }
    if (this.number < this.rounds) {
      return `${last.line} Next: round ${this.number + 1} of ${this.rounds}, in the Duel tab.`;
    }
    const [high, low] = [Math.max(this.person, this.computer), Math.min(this.person, this.computer)];
    const verdict = this.person === this.computer ? `The duel is a draw, ${high} to ${low}.`
      : `${this.person > this.computer ? "You win" : "The computer wins"} the duel, ${high} to ${low}.`;
    return `${last.line} ${verdict}`;
  },

  render() {
    const started = this.number > 0;
    $("duel-start").disabled = this.live;
    $("duel-next").disabled = this.live || !started || this.number >= this.rounds;
    $("duel-stop").disabled = !this.live;
    $("cm-show").hidden = this.showing === null;
    $("play-new").disabled = $("cm-new").disabled = this.live;  // a new game would replace the duel's
    $("duel-board").replaceChildren(...this.results.map((r) => element("tr",
      {"data-testid": `duel-round-${r.number}`},
      element("td", {text: String(r.number)}),
      element("td", {text: r.breaks ? "you" : "the computer"}),
      element("td", {text: `${r.guesses}${r.broken ? "" : " (not broken)"}`}),
      element("td", {text: `${r.points} to ${r.breaks ? "the computer" : "you"}`}))));
    $("duel-score").textContent = started ? `Score: you ${this.person}, the computer ${this.computer}.` : "";
    const status = started ? this.statusText() : "";
    $("duel-status").textContent = status;
    for (const id of ["play-duel", "cm-duel"]) {
      $(id).textContent = status;
      $(id).hidden = !started;
    }
  },
};

// ---- d. The race --------------------------------------------------------------------------------------
const race = {
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
const batchRace = {
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

// ---- tabs and wiring ------------------------------------------------------------------------------
function selectTab(tab) {
  for (const other of document.querySelectorAll("[role=tab]")) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(other.dataset.panel).hidden = !selected;
  }
}

/** The arrow keys move between tabs, as the ARIA tab pattern has it. */
function tabKeys(event) {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  const step = {ArrowRight: 1, ArrowLeft: -1}[event.key];
  if (step === undefined) return;
  const next = tabs[(tabs.indexOf(event.currentTarget) + step + tabs.length) % tabs.length];
  selectTab(next);
  next.focus();
}

/** Run `render`, then give the focus back where it was: a redrawn or disabled control would leave
 * it on the page's body, and the next Tab would start again from the top. */
function keepingFocus(render, fallback) {
  const id = document.activeElement?.dataset?.testid;
  render();
  if (document.activeElement && document.activeElement !== document.body) return;
  const again = id && document.querySelector(`[data-testid="${id}"]`);
  const target = again && !again.disabled ? again : $(fallback);
  if (target && !target.disabled && target.offsetParent !== null) target.focus();
}

/** Clicks on `id` run `action`, guarded; a click while the last one's action is still running is ignored. */
// The tabs whose request is under way. While one is, the tab's other buttons wait: a reply is
// never applied to a game (or race) that another click started meanwhile (New game, then Guess).
const busy = new Set();

function on(id, action) {
  const tab = id.startsWith("cm-") ? "codemaker" : id.startsWith("race-") ? "race"
    : id.startsWith("duel-") ? "duel" : "play";
  $(id).addEventListener("click", async () => {
    if (busy.has(tab)) return;
    busy.add(tab);
    try {
      await guarded(action);
    } finally {
      busy.delete(tab);
    }
  });
}

document.addEventListener("DOMContentLoaded", () => {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.addEventListener("click", () => selectTab(tab));
    tab.addEventListener("keydown", tabKeys);
  }
  selectTab(document.querySelector("[role=tab][aria-selected=true]"));  // one tab in the Tab order
  on("play-new", () => play.start());
  on("play-submit", () => play.submit());
  on("play-clear", () => {
    play.guess = [];
    play.render();
  });
  on("play-resign", () => play.resign());
  on("hint", () => play.askHint());
  on("hint-use", () => play.useHint());
  on("split", () => play.splitGuess());

  on("cm-new", () => codemaker.start());
  on("cm-send", () => codemaker.send());
  on("cm-undo", () => codemaker.undo());
  on("cm-fill", () => codemaker.fill());
  on("cm-black-plus", () => codemaker.change("black", 1));
  on("cm-black-minus", () => codemaker.change("black", -1));
  on("cm-white-plus", () => codemaker.change("white", 1));
  on("cm-white-minus", () => codemaker.change("white", -1));

  on("duel-start", () => duel.start());
  on("cm-show", () => duel.show());
  on("duel-next", () => duel.next());
  on("duel-stop", () => duel.stop());

  on("race-add", () => race.addEntrant(options.default_backend, options.default_strategy));
  $("feedback").addEventListener("change", () => guarded(async () => applyFeedback()));
  on("race-start", () => (batchRace.chosen() ? batchRace.start() : race.start()));
  $("race-mode").addEventListener("change", () => batchRace.showMode());
  on("race-step", () => race.step());
  on("race-run", () => race.run());

  guarded(loadOptions);
});
