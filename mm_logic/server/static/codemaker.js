// b. The computer guesses the code you keep in mind; you answer as the game's feedback rule says, and your
// code, when typed, checks each answer in the page (feedback.js) without ever being sent.
import {ApiError, InputError, api} from "./api.js";
import {$, element, keepingFocus} from "./dom.js";
import {duel} from "./duel.js";
import {feedbackFunction} from "./feedback.js";
import {MARK_CLASS, Notation, feedbackText, pegsOf, renderBoard} from "./notation.js";
import {chosenRules, feedbackOf, rulesText} from "./rules.js";
import {codes, plural} from "./words.js";

export const codemaker = {
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
