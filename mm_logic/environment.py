"""mmlogic's game as a Gymnasium environment: ``gymnasium.make("mmlogic/Mastermind-v0", ...)``.

A front end for learning agents (the ``gym`` extra, Gymnasium >= 1.0), beside the command line and the
server: an episode is one game of the codebreaker against a secret, played through mmlogic's own
objects. The options build :class:`~mm_logic.rules.Rules` (every feedback rule, a rule of one's own,
lies) and a :class:`~mm_logic.player.Player` (the engine); a ``GameSetup`` (``mm_logic.game_setup``)
draws the secret and the liar; a :class:`~mm_logic.game.Game` answers each guess with the game's feedback
rule and lists the codes still possible (the engine's answer: :meth:`MastermindEnv.action_masks`).
Nothing here computes a feedback.

* **Action**: a code, as its position in the lexicographic order of the rules' codes
  (``Discrete(rules.size)``; :attr:`MastermindEnv.codes` lists them, :meth:`MastermindEnv.code` and
  :meth:`MastermindEnv.action` convert), for games of at most :data:`MAX_ACTIONS` codes.
* **Observation**: the history in fixed-size arrays, a row per guess, :data:`EMPTY` in the rows not
  played yet: ``guesses`` (``max_guesses x pegs`` colours), ``feedback`` (``max_guesses x`` the rule's
  numbers: black and white for the standard rule, black alone for ``black``, a mark per peg for
  ``positional``, the numbers a rule of one's own tells, its win written as ``-1``s) and ``turns``, the
  rows filled.
* **Reward**: -1 for every guess, so an episode's return is minus its guesses.
* **Ends**: terminated when a guess is the secret; truncated after ``max_guesses`` guesses without it.
* **Info**: ``consistent``, the codes still possible (``consistent_at_least`` where the engine counts no
  further); once the episode is over, and never before, ``secret`` (its notation), ``secret_action`` and,
  in a game with lies, ``lies`` (the answers that lied, numbered from 1).

Importing this module registers the environment (Gymnasium >= 1.0 loads no plugins by entry points);
``gymnasium.make("mm_logic.environment:mmlogic/Mastermind-v0")`` imports it on its own.

>>> import gymnasium
>>> env = gymnasium.make(ENV_ID, pegs=3, colors=3)
>>> observation, info = env.reset(seed=7, options={"secret": "012"})
>>> observation, reward, terminated, truncated, info = env.step(env.unwrapped.action("001"))
>>> observation["feedback"][:2].tolist(), reward, terminated, info
([[1, 1], [-1, -1]], -1.0, False, {'consistent': 4})
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import numpy as np

from .support.errors import BackendUnavailable, install_hint

try:
    import gymnasium
    from gymnasium import spaces
except ImportError:
    raise BackendUnavailable(f"mm_logic.environment needs Gymnasium: {install_hint('gym')}") from None

from .codespace import MAX_CODES, code_space
from .feedback import rule_of
from .game import Game, turn_line
from .game_setup import GameSetup, Wording
from .lies import broken
from .notation import Code, amount, format_code, parse_code, plural, shown
from .player import Player
from .rules import DEFAULT_ALPHABET, Naming, make_rules
from .split import split_limit
from .support.errors import SHOWN, BadInput, SpaceTooLarge, shown_number

#: The environment's id: ``gymnasium.make(ENV_ID, pegs=4, colors=6)``.
ENV_ID = "mmlogic/Mastermind-v0"
#: Guesses an episode gets when ``max_guesses`` is not given: the rows of the classic board.
DEFAULT_MAX_GUESSES = 10
#: The most ``max_guesses`` may be (the observation holds a row per guess).
MAX_GUESSES = 1_000
#: The most codes a game may have: each code is an action, listed once (the python engine's code space).
MAX_ACTIONS = MAX_CODES
#: What the rows of the observation not played yet hold (colours and the rules' numbers are never below 0,
#: but the win of a rule of one's own, written ``-1``s: ``turns`` says which rows are played).
EMPTY = -1
#: The options ``reset`` takes.
RESET_OPTIONS = ("secret",)

#: Messages name the environment's keyword arguments (``max_repeat``, ``liar``), not command-line options.
NAMING = Naming(rules_prefix="", prefix="")
WORDS = Wording(NAMING, "the environment answers the agent's guesses", "an adversary")


class MastermindEnv(gymnasium.Env):
    """One game of Mastermind (bulls and cows, any rule mmlogic plays) for a learning codebreaker.

    Every option is checked here, and a bad one is one line (:class:`~mm_logic.support.errors.BadInput`).

    Parameters
    ----------
    pegs, colors, no_repeat, max_repeat, feedback, lies, alphabet:
        The rules, as the command line's options give them (:func:`~mm_logic.rules.make_rules`): ``feedback``
        is ``standard``, ``black``, ``positional`` or a ``FILE.py``, ``FILE.lp`` or ``FILE.pl`` of one's own;
        ``alphabet`` writes the codes of :meth:`render` and ``info["secret"]``.
    liar:
        With ``lies``: which answers lie, as ``--liar`` says it: ``random`` (the default: each answer a
        lie with probability one half while lies are left) or their numbers (``"2,5"``). Its draws, like the
        secret's, come from the seed of :meth:`reset`.
    max_guesses:
        Guesses before the episode is truncated (:data:`DEFAULT_MAX_GUESSES`), and rows of the observation.
    backend:
        The engine that lists the codes still possible (``python``, the reference engine, by default;
        ``clingo``, ``swipl``...).
    strategy:
        The strategy of :meth:`suggest`, mmlogic's hint (``first`` by default; ``minimax``, ``entropy``...).
    render_mode:
        ``ansi`` (:meth:`render` returns the history as mmlogic writes it), ``human`` (prints it) or None.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, pegs: int = 4, colors: int = 6, *, no_repeat: bool = False, max_repeat: int | None = None,
                 feedback: str = "standard", lies: int = 0, liar: str | None = None,
                 max_guesses: int = DEFAULT_MAX_GUESSES, backend: str = "python", strategy: str = "first",
                 alphabet: str = DEFAULT_ALPHABET, render_mode: str | None = None):
        for name, value in (("pegs", pegs), ("colors", colors), ("lies", lies), ("max_guesses", max_guesses),
                            ("max_repeat", 1 if max_repeat is None else max_repeat)):
            _whole(name, value)
        for name, value in (("feedback", feedback), ("backend", backend), ("strategy", strategy),
                            ("alphabet", alphabet), ("liar", "random" if liar is None else liar)):
            if not isinstance(value, str):
                raise BadInput(f"{name} must be a string, got {_shown(value)}")
        if not isinstance(no_repeat, bool):
            raise BadInput(f"no_repeat must be True or False, got {_shown(no_repeat)}")
        if not 1 <= max_guesses <= MAX_GUESSES:
            raise BadInput(f"max_guesses must be between 1 and {MAX_GUESSES}, got {shown_number(max_guesses)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise BadInput(f"unknown render_mode {_shown(render_mode)}; choose from "
                           f"{', '.join(self.metadata['render_modes'])}, or None")
        with _cut_short(feedback):
            rules = make_rules(pegs, colors, no_repeat, max_repeat, alphabet, feedback, lies, naming=NAMING)
            rule = rule_of(rules)  # a rule of one's own is read here: a file it cannot read is said cut short
        if rules.size > MAX_ACTIONS:
            raise SpaceTooLarge(f"{rules.describe()} has {amount(rules.size)} codes, more than the environment's "
                                f"actions ({MAX_ACTIONS:,}: a code each); play fewer pegs or colours")
        self.rules = rules
        self.max_guesses = max_guesses
        self.render_mode = render_mode
        self._setup = GameSetup(rules, liar=("random" if lies else None) if liar is None else liar)
        self._setup.check(WORDS)  # a liar without lies, or one that names more answers than lies, is refused
        with _cut_short(feedback, backend, strategy):  # an engine reads a rule's encoding too
            self._player = Player(rules, backend, strategy)
            self._engine, self._strategy = self._player.build()
        self._space = code_space(rules)
        low, high = rule.value_bounds(pegs)
        told = len(rule.win(pegs))
        self.action_space = spaces.Discrete(rules.size)
        self.observation_space = spaces.Dict({
            "guesses": spaces.Box(EMPTY, colors - 1, (max_guesses, pegs), dtype=np.int64),
            "feedback": spaces.Box(min(EMPTY, low), high, (max_guesses, told), dtype=np.int64),
            "turns": spaces.Discrete(max_guesses + 1),
        })
        self._game: Game | None = None

    # -- codes and actions --------------------------------------------------------------------------
    @property
    def codes(self) -> np.ndarray:
        """Every code of the rules, ``(size, pegs)``, in lexicographic order: row ``a`` is action ``a``."""
        return self._space.codes

    def code(self, action) -> Code:
        """The code an action plays; an action that is none is one line."""
        if isinstance(action, (bool, np.bool_)):
            raise BadInput(f"an action is a code's number from 0 to {self.rules.size - 1}, got {_shown(action)}")
        try:
            index = operator.index(action)
        except TypeError:
            raise BadInput(f"an action is a code's number from 0 to {self.rules.size - 1}, "
                           f"got {shown(repr(action))}") from None
        if not 0 <= index < self.rules.size:
            raise BadInput(f"action {shown_number(index)} is no code of {self.rules.describe()}: actions are 0 to "
                           f"{self.rules.size - 1}")
        return self._space.code(index)

    def action(self, code: str | Code) -> int:
        """The action that plays ``code``, written as mmlogic writes codes (``"0123"``) or as its colours."""
        text = code if isinstance(code, str) else self._colours_text(code)
        return int(self._space.index_of([parse_code(text, self.rules)])[0])  # the code read is one of the rules'

    def _colours_text(self, code) -> str:
        """A code given as its colours, written as :func:`~mm_logic.notation.parse_code` reads them: ``0,1,2,3``."""
        try:
            colours = [operator.index(colour) for colour in code]
        except TypeError:  # not a sequence, or a colour that is no whole number
            raise BadInput(f'a code is written as mmlogic writes it ("0123") or as its colours, '
                           f"got {_shown(code)}") from None
        for colour in colours:
            if abs(colour) >= 10**SHOWN:
                # Too long to quote in the code's text (or more digits than Python writes): said alone.
                raise BadInput(f"colour {shown_number(colour)} is outside 0..{self.rules.colors - 1}")
        return ",".join(map(str, colours))

    # -- the episode ----------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """A new game. Its secret (unless ``options={"secret": "0123"}`` gives it) and its liar's draws are
        drawn from the environment's generator: the same ``seed``, the same game."""
        super().reset(seed=seed)
        options = {} if options is None else options
        if not isinstance(options, Mapping):  # a str would be read as its letters
            raise BadInput(f'reset\'s options are a dict ({{"secret": "0123"}}), got {_shown(options)}')
        unknown = sorted(set(options) - set(RESET_OPTIONS))
        if unknown:
            raise BadInput(f"unknown reset option {shown(str(unknown[0]))}; reset takes {', '.join(RESET_OPTIONS)}")
        secret = options.get("secret")
        if secret is not None and not isinstance(secret, str):
            raise BadInput(f"the secret is a code as mmlogic writes it (\"0123\"), got {_shown(secret)}")
        if self._engine is None:  # closed: the engine is built again, as Gymnasium's environments allow
            self._engine = self._player.engine()
        # One number from the generator makes the episode: the secret drawn, and the liar's draws.
        setup = replace(self._setup, secret=secret, seed=int(self.np_random.integers(2**63)))
        liar, code = setup.make_liar(WORDS), setup.secret_for(self._engine, WORDS)
        self._end_game()
        self._game = Game(self._engine, self._strategy, secret=code, liar=liar)
        return self._observation(), self._info()

    def step(self, action):
        """Play the code of ``action``: reward -1; terminated when it is the secret, truncated after
        ``max_guesses`` guesses."""
        game = self._playing()
        if self._over():
            raise BadInput("the episode is over: reset the environment")
        guess = self.code(action)
        game.record(guess, game.score(guess), check=False)  # the secret's answer (or its liar's): trusted
        terminated = game.won
        truncated = not terminated and len(game.history) >= self.max_guesses
        if self.render_mode == "human":
            self.render()
        return self._observation(), -1.0, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """Per action, whether its code is still possible (consistent with every answer, or with all but
        ``lies`` of them): the codes the engine lists. They are listed where the engine lists them for
        ``split`` (:func:`~mm_logic.split.split_limit`: 1,000,000 codes on the python and clingo engines,
        100,000 on swipl); beyond, one line. Every code, before the first guess."""
        game = self._playing()
        mask = np.zeros(self.rules.size, dtype=bool)
        if not game.history and not self._engine.edited:
            mask[:] = True  # nothing is ruled out yet, and listing a large space says nothing more
            return mask
        limit = split_limit(self._engine)
        count, exact = game.remaining_within(limit)
        if not exact or count > limit:
            many = amount(count) if exact else f"at least {amount(count)}"
            raise SpaceTooLarge(f"action_masks lists the codes still possible, at most {amount(limit)} on the "
                                f"{self._engine.name} engine, and {many} are: play a guess more first")
        mask[game.consistent_indices()] = True
        return mask

    def suggest(self) -> int:
        """The action ``strategy`` would play next (mmlogic's hint, as ``mmlogic next`` gives it): an expert to
        imitate, or a baseline."""
        game = self._playing()
        if self._over():
            raise BadInput("the episode is over: reset the environment")
        return self.action(game.suggest())

    def render(self) -> str | None:
        """The history as ``mmlogic solve`` writes it, a line per guess; once the episode is over, the secret
        (and the answers that lied). ``ansi`` returns the text, ``human`` prints it."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: make the environment with render_mode='ansi' "
                                  "or 'human'")
            return None
        text = self._text()
        if self.render_mode == "ansi":
            return text
        if text:  # nothing played yet: nothing to show
            print(text)
        return None

    def close(self) -> None:
        """Release the engine (a solver's state); closing twice is harmless, and a :meth:`reset` after it plays
        again (with an engine built anew)."""
        self._end_game()
        if self._engine is not None:
            self._engine.close()
            self._engine = None

    # -- inside -------------------------------------------------------------------------------------------
    def _playing(self) -> Game:
        if self._game is None:
            raise BadInput("the environment has no episode: reset it first")
        return self._game

    def _over(self) -> bool:
        game = self._playing()
        return game.won or len(game.history) >= self.max_guesses

    def _end_game(self) -> None:
        if self._game is not None:
            self._game.close()
            self._game = None

    def _observation(self) -> dict[str, Any]:
        """The history in the observation's arrays (new ones each time: an agent may keep them)."""
        history = self._playing().history
        space = self.observation_space
        guesses = np.full(space["guesses"].shape, EMPTY, dtype=np.int64)
        feedback = np.full(space["feedback"].shape, EMPTY, dtype=np.int64)
        for row, (guess, fb) in enumerate(history):
            guesses[row], feedback[row] = guess, fb
        return {"guesses": guesses, "feedback": feedback, "turns": np.int64(len(history))}

    def _info(self) -> dict[str, Any]:
        """The codes still possible; the secret once the episode is over."""
        game = self._playing()
        count, exact = game.remaining_within()
        info: dict[str, Any] = {"consistent" if exact else "consistent_at_least": count}
        if self._over():
            info["secret"] = format_code(game.secret, self.rules)
            info["secret_action"] = self.action(game.secret)
            if self.rules.lies:
                info["lies"] = [i + 1 for i in broken(self.rules, game.history, game.secret)]
        return info

    def _text(self) -> str:
        game = self._playing()
        over = self._over()
        lied = set(broken(self.rules, game.history, game.secret)) if over and self.rules.lies else set()
        lines = [turn_line(number, entry, self.rules, lie=number - 1 in lied)
                 for number, entry in enumerate(game.history, 1)]
        if over:
            found = "found" if game.won else "not found"
            lines.append(f"secret {format_code(game.secret, self.rules)} {found} in "
                         f"{plural(len(game.history), 'guess')}")
        return "\n".join(lines)


def _whole(name: str, value) -> None:
    """Refuse an option that is not a whole number (the rules check the ranges)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise BadInput(f"{name} must be a whole number, got {_shown(value)}")


def _shown(value) -> str:
    """A value an agent passed, as a message quotes it: ``repr`` when short, else its start and its length, as
    the command line quotes what it is given (a megabyte's ``pegs`` comes back as one readable line)."""
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, int):  # bool's repr is short; an int may have more digits than Python writes
        return shown_number(value) if not isinstance(value, bool) else repr(value)
    try:
        text = repr(value)
    except ValueError:  # a list holding an int of more digits than Python writes
        return f"a {type(value).__name__}"
    return text if len(text) <= SHOWN else shown(text)


@contextmanager
def _cut_short(*texts: str):
    """Messages of the rules, the engines and the strategies, which quote a name whole (``unknown backend
    'x'``, or a rule's file name bare: ``cannot read ... FILE.py``), quoting a long one of ``texts`` by its start."""
    try:
        yield
    except BadInput as error:
        message = str(error)
        long = [text for text in texts if len(text) > SHOWN and text in message]
        if not long:
            raise
        for text in long:
            message = message.replace(repr(text), shown(text)) if repr(text) in message else message.replace(
                text, shown(text))
        raise BadInput(message) from None


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:MastermindEnv")

__all__ = ["DEFAULT_MAX_GUESSES", "EMPTY", "ENV_ID", "MAX_ACTIONS", "MAX_GUESSES", "MastermindEnv"]
