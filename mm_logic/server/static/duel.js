// c. The duel: Play and Codemaker in turn, with the board game's running score. play.js and codemaker.js
// import this module and it imports them (each asks the other only inside its methods, which ES modules allow).
import {InputError} from "./api.js";
import {$, element} from "./dom.js";
import {codemaker} from "./codemaker.js";
import {play} from "./play.js";
import {chosenRules, wholeNumber} from "./rules.js";
import {showTab} from "./tabs.js";
import {plural} from "./words.js";

// The board game's score (Wikipedia, "Mastermind (board game)", Gameplay and rules), as `mmlogic play
// --role duel` keeps it (mm_logic/terminal/duel.py): the codemaker scores a point per guess, and one more
// for a code not broken within the guesses allowed; an even number of rounds, you break first.
export const duel = {
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
    showTab(this.number % 2 === 1 ? "play" : "codemaker");
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
