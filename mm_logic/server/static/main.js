// The mmlogic web page: plain JavaScript over the JSON API of `mmlogic serve` (docs/server.md).
// No build step and nothing from the network but this server: index.html loads this module, and the browser
// fetches the modules it imports from /static/ as they are. Five tabs:
//   Play        you guess the server's secret; the assistant shows the strategy's next guess (play.js);
//   Codemaker   the computer guesses the code you keep in mind, you answer as the feedback rule says
//               (black and white; black only; one mark per peg, x o or -; a variant's own rule: its numbers)
//               (codemaker.js, with feedback.js checking your answers against your code);
//   Duel        the two above in turn, with the board game's running score (duel.js);
//   Race        entrants (backend + strategy) play one secret side by side, move by move; or a batch of
//               secrets, each in its own worker process on the server, the first to finish winning (race.js);
//   Rules       what black and white mean, and the other feedback rules (index.html alone).
// Beside them: api.js (the API, the message area), dom.js (element helpers), words.js (numbers as the page
// writes them), notation.js (codes, pegs, boards), rules.js (the rules chooser, the server's options),
// tabs.js (the tabs). This module wires the buttons to them.
// A variant the server serves (`mmlogic serve --encoding FILE`) is one more choice of the Feedback list, by its
// name; its games send `"variant": NAME` in their rules. Every error the API answers ({"error": "..."}) is shown
// in the message area.
import {guarded} from "./api.js";
import {codemaker} from "./codemaker.js";
import {$} from "./dom.js";
import {duel} from "./duel.js";
import {feedbackBlack, feedbackPositional, feedbackStandard} from "./feedback.js";
import {play} from "./play.js";
import {batchRace, race} from "./race.js";
import {chosenVariant, loadOptions, options, players, refill} from "./rules.js";
import {selectTab, tabKeys, tabOf} from "./tabs.js";

// A module's names are its own; these few are on `window` on purpose, for the browser tests that call them
// (tests/frontends/test_web_codemaker_code.py runs the feedback functions against mm_logic's,
// test_web_page.py reads `play.game.id`). Nothing in the page uses them through `window`.
Object.assign(window, {feedbackStandard, feedbackBlack, feedbackPositional, play});

/** The feedback rule changed: the lists offer what plays it, the race's entrants too. */
function applyFeedback() {
  const {backends, strategies} = players();
  refill($("backend"), backends, chosenVariant()?.default_backend ?? options.default_backend);
  refill($("strategy"), strategies, options.default_strategy);
  race.refillEntrants(backends, strategies);
}

/** The server's options in the lists, then the race's entrants chosen among them. */
async function start() {
  await loadOptions();
  race.resetEntrants();
  applyFeedback();
}

// The tabs whose request is under way. While one is, the tab's other buttons wait: a reply is
// never applied to a game (or race) that another click started meanwhile (New game, then Guess).
const busy = new Set();

/** Clicks on `id` run `action`, guarded; a click while the last one's action of the same tab (the panel
 * holding the button) is still running is ignored. */
function on(id, action) {
  const button = $(id);
  const tab = tabOf(button);
  button.addEventListener("click", async () => {
    if (busy.has(tab)) return;
    busy.add(tab);
    try {
      await guarded(action);
    } finally {
      busy.delete(tab);
    }
  });
}

// A module runs once the document is parsed (modules are deferred), so the page's elements are all there.
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

guarded(start);
