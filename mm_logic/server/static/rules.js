// The rules chooser at the top of the page, read into the `rules` object the API takes, and the options the
// server offers (/api/options): its backends, strategies, what plays each feedback rule, and its variants.
import {InputError, api} from "./api.js";
import {$, element} from "./dom.js";
import {plural, sizeText} from "./words.js";

/** A number field's value; an empty or non-numeric field is refused here (Number("") would send 0). */
export function wholeNumber(id, label) {
  const text = $(id).value.trim();
  if (!/^[0-9]+$/.test(text)) throw new InputError(`${label}: enter a whole number`);
  return Number(text);
}

export function chosenRules() {
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
export function liesText(state) {
  const lies = state.lies ?? [];
  if (!lies.length) return state.rules?.lies ? " Every answer was true." : "";
  const numbers = lies.length === 1 ? `Answer ${lies[0]} was a lie`
    : `Answers ${lies.slice(0, -1).join(", ")} and ${lies.at(-1)} were lies`;
  return ` ${numbers}.`;
}

/** A reply's feedback rule. The server's replies name it always (docs/server.md); one that predates the
 * feedback rules names none, which is the standard rule. */
export function feedbackOf(rules) {
  return rules.feedback ?? "standard";
}

/** What the page's labels say of a game's feedback rule, after its size (nothing for the standard rule). */
const FEEDBACK_LABELS = {black: ", black pegs only", positional: ", one mark per peg", own: ", its own feedback rule"};

/** The variant and the feedback rule of a game, after its size: ", variant palindrome, one mark per peg". */
export function ruleLabel(rules) {
  return (rules.variant ? `, variant ${rules.variant}` : "") + (FEEDBACK_LABELS[feedbackOf(rules)] ?? "");
}

/** "4 pegs, 6 colours, no repetition, one mark per peg". */
export function rulesText(rules) {
  const repeat = rules.max_repeat === 1 ? ", no repetition"
    : rules.max_repeat ? `, at most ${rules.max_repeat} of each colour` : "";
  const lies = rules.lies ? `, at most ${plural(rules.lies, "wrong answer")}` : "";
  return sizeText(rules) + repeat + ruleLabel(rules) + lies;
}

// What the server offers (/api/options), until it has answered. Exported as a live binding: the modules that
// import it see the answer once loadOptions has replaced it (only this module assigns it).
export let options = {backends: [], strategies: [], default_backend: "", default_strategy: "", max_entrants: 8,
  feedback_rules: {}, variants: []};

/** The Feedback list's value of a variant: its name after this prefix (no built-in rule's name has it). */
const VARIANT = "variant:";

/** The variant chosen in the Feedback list (its entry of /api/options), or null for a built-in rule. */
export function chosenVariant() {
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

export function fillSelect(select, names, chosen) {
  select.replaceChildren(...names.map((name) => element("option", {value: name, text: name})));
  select.value = chosen;
}

/** The backends and strategies that play the feedback rule or the variant chosen (all of them when the server
 * does not say). */
export function players() {
  const rule = chosenVariant() ?? options.feedback_rules?.[$("feedback").value];
  return {backends: rule?.backends ?? options.backends, strategies: rule?.strategies ?? options.strategies};
}

/** Offer in `select` the `names` only, keeping its choice when it is one of them; else `fallback` when it is,
 * else the first name. */
export function refill(select, names, fallback) {
  const chosen = select.value;
  fillSelect(select, names, names.includes(chosen) ? chosen : names.includes(fallback) ? fallback : names[0]);
}

/** Ask the server what it offers, and fill the Feedback, Backend and Strategy lists with it (main.js then
 * fills the race's entrants). */
export async function loadOptions() {
  options = await api("GET", "/api/options");
  offerVariants();
  fillSelect($("backend"), options.backends, options.default_backend);
  fillSelect($("strategy"), options.strategies, options.default_strategy);
}
