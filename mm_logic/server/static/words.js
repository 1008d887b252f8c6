// Numbers and sizes as the page writes them, the same words as the command line's (mm_logic.game.plural).

/** A number of codes as the page shows it: grouped (1,296); beyond 2^53, where JSON numbers lose
 * digits, "about 1.34 × 10^31". */
export function countText(n) {
  if (Number.isSafeInteger(n)) return n.toLocaleString("en");
  const [mantissa, exponent] = n.toExponential(2).split("e");
  return `about ${mantissa} × 10^${Number(exponent)}`;
}

export function codes(n) {
  return `${countText(n)} code${n === 1 ? "" : "s"}`;
}

/** "4 pegs, 6 colours" (and "1 colour"). */
export function sizeText(rules) {
  return `${plural(rules.pegs, "peg")}, ${rules.colors} colour${rules.colors === 1 ? "" : "s"}`;
}

export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : word.endsWith("s") ? "es" : "s"}`;
}
