// How a game is drawn: its codes' symbols (Notation), the pegs in their colours, the black and white markers
// or the per-peg marks, and a board of guesses with their feedback.
import {element} from "./dom.js";
import {feedbackOf} from "./rules.js";

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
export class Notation {
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
export function peg(notation, index, attributes = {}) {
  if (index === null || index === undefined) {
    return element("span", {class: "peg empty", ...attributes});
  }
  const node = element("span", {class: `peg${darkText(index) ? " light" : ""}`, "data-color": index,
    text: notation.symbol(index), ...attributes});
  node.style.background = colourOf(index);
  return node;
}

export function pegsOf(notation, code) {
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

export const MARK_CLASS = {"x": "x", "o": "o", "-": "none"};

/** An entry's feedback as the game's rule writes it: "1,2", "2", "x-o-"; a variant's own rule, its numbers or "won". */
export function feedbackText(notation, entry) {
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

export function renderBoard(list, notation, history, prefix) {
  list.replaceChildren(...history.map((entry, i) => boardRow(notation, i + 1, entry, prefix)));
}
