// The page's one way to the server: `api` calls the JSON API of `mmlogic serve` (docs/server.md) and turns
// its {"error": "..."} answers into ApiError; the message area shows those, and the page's own InputError,
// in one line, whatever action raised them (`guarded`).
import {$} from "./dom.js";

export class ApiError extends Error {}
/** A field of the page that cannot be sent as it is; its message is shown as the API's are. */
export class InputError extends Error {}

/** The API's messages name a request's fields (`rules.pegs`, `strategy minimax`, `rules.no_repeat`), and a few
 *  still the command line's options (`--time-limit`); the page says the same in its own words, those of its
 *  fields. */
const PAGE_WORDS = [
  [/\buse strategy /g, "choose the strategy "],
  [/^strategy /, "The strategy "],
  [/\buse backend /g, "choose the backend "],
  [/^backend /, "The backend "],
  [/beyond rules\.no_repeat\b/g, "beyond what \u201cNo repetition\u201d allows"],
  [/rules\.no_repeat\b/g, "\u201cNo repetition\u201d"],
  [/rules\.max_repeat\b/g, "Max repeat"],
  [/rules\.alphabet\b/g, "Alphabet"],
  [/rules\.pegs\b/g, "Pegs"],
  [/rules\.colors\b/g, "Colours"],
  [/rules\.lies\b/g, "Lies"],
  [/with rules\.feedback (\S+)/g, "with the feedback rule $1"],
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
export function inPageWords(text) {
  return PAGE_WORDS.reduce((line, [pattern, words]) => line.replace(pattern, words), text);
}

/** Call the API; the answer's JSON, or an ApiError carrying the server's one-line message (in the page's words). */
export async function api(method, path, body) {
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
export const message = {
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
export async function guarded(action) {
  message.clear();
  try {
    return await action();
  } catch (error) {
    const plain = error instanceof ApiError || error instanceof InputError;
    message.show(plain ? error.message : `error in the page: ${error.message}`);
    return undefined;
  }
}
