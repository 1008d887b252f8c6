// The feedback, computed in the page to check your answers against your code (codemaker.js).
// One function per rule, each mirroring mm_logic/feedback (standard.py, black.py, positional.py): codes are
// arrays of colour indices. tests/frontends/test_web_codemaker_code.py checks them against mm_logic's on
// random pairs; change them together.
import {InputError} from "./api.js";

/** The standard rule (mm_logic/feedback/standard.py): black, the pegs right in colour and place; white, the
 * further pegs of a right colour (per colour, the smaller of its counts in guess and secret, less the blacks). */
export function feedbackStandard(guess, secret) {
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
export function feedbackBlack(guess, secret) {
  return {black: guess.filter((g, i) => g === secret[i]).length};
}

/** The positional rule (mm_logic/feedback/positional.py): x right place; o the colour elsewhere, credited at
 * most as often as the secret holds it beyond its right pegs, earlier pegs first; - neither. */
export function feedbackPositional(guess, secret) {
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
export const FEEDBACK = {standard: feedbackStandard, black: feedbackBlack, positional: feedbackPositional};

/** The page's feedback function of a game's rule; a variant's own rule, which the page cannot compute, is said in
 * one line instead. */
export function feedbackFunction(notation) {
  const compute = FEEDBACK[notation.feedback];
  if (compute === undefined) {
    throw new InputError("Your code: the page cannot compute the answers of this variant's own feedback rule; " +
      "empty the field and answer as the rule tells");
  }
  return compute;
}
