"""The set-up of one game, checked in one place for every front end: role, secret, adversary, liar, rounds.

``mmlogic play`` reads it from its options and the server from a request's fields; both hand it to
:meth:`GameSetup.check`, which refuses a set-up that does not hold together (an adversary with a
secret, a liar in a codemaker game, an odd number of rounds...) in one line, naming the fields as the
front end names them (:class:`Wording`: ``--secret`` on the command line, ``secret`` in a request).
The rules (size, repetition, feedback rule, lies) are checked by :class:`~mm_logic.rules.Rules`
itself; what needs the engine (the adversary's size limit, a secret an edited encoding excludes) by
:meth:`GameSetup.check_engine` and :meth:`GameSetup.secret_for`, once it is built.
"""

from __future__ import annotations

from dataclasses import dataclass

from .adversary import check_adversary
from .engines.base import Engine
from .lies import Liar, parse_liar
from .notation import Code, shown
from .rules import COMMAND_LINE as COMMAND_LINE_WORDS
from .rules import REQUEST, Naming, Rules
from .secret_codes import chosen_secret, game_secrets
from .support.errors import BadInput

#: The roles of a game: you guess, the computer guesses, or both in turn (the terminal's duel).
ROLES = ("codebreaker", "codemaker", "duel")
#: Rounds of a duel when none are asked for.
DUEL_ROUNDS = 2


@dataclass(frozen=True)
class Wording:
    """How a front end names the set-up's fields in its messages: the rules' words (:class:`~mm_logic.rules.Naming`:
    ``--lies`` on the command line, ``rules.lies`` in a request), and the set-up's own."""

    #: The front end's words for the rules' fields and its other choices.
    naming: Naming
    #: Who answers the guesses of a codebreaker game, as its messages say it.
    answers: str
    #: The adversary as the subject of a sentence.
    adversary: str

    def name(self, field: str) -> str:
        """A set-up field: ``--secret`` or ``secret``."""
        return self.naming.option(field)

    def role(self, role: str) -> str:
        """``--role codebreaker`` or ``role codebreaker``."""
        return f"{self.name('role')} {role}"

    def rule(self, field: str) -> str:
        """A rules field: ``--lies`` or ``rules.lies``."""
        return self.naming.rules_field(field)


COMMAND_LINE = Wording(COMMAND_LINE_WORDS, "the computer then answers your guesses", "--adversary")
API = Wording(REQUEST, "the server then answers the guesses", "an adversary")


@dataclass(frozen=True)
class GameSetup:
    """One game as it is asked for: its rules, the role the user plays and how the codemaker answers.

    ``secret`` is the code as given (parsed by :meth:`secret_for`, which draws one when it is None);
    ``liar`` the answers that lie as ``--liar`` writes them (``random``, ``2,5``); ``rounds`` a duel's.
    """

    rules: Rules
    role: str = "codebreaker"
    secret: str | None = None
    adversary: bool = False
    liar: str | None = None
    rounds: int | None = None
    seed: int | None = None

    def check(self, words: Wording = COMMAND_LINE) -> None:
        """Refuse, in one line, a set-up whose parts do not hold together."""
        name = words.name
        roles = ROLES if words is COMMAND_LINE else ROLES[:2]  # the server plays no duel
        if self.role not in roles:
            raise BadInput(f"unknown {name('role')} {shown(self.role)}; choose from {', '.join(roles)}")
        if self.rounds is not None and self.role != "duel":
            raise BadInput(f"{name('rounds')} applies to {words.role('duel')}")
        if self.adversary and self.role != "codebreaker":
            raise BadInput(f"{name('adversary')} applies to {words.role('codebreaker')}: {words.answers}")
        if self.adversary and self.secret is not None:
            raise BadInput(f"{words.adversary} keeps no secret: give {name('secret')} or {name('adversary')}, "
                           "not both")
        if self.liar is not None and (self.role != "codebreaker" or self.adversary):
            raise BadInput(f"{name('liar')} applies to {words.role('codebreaker')} with a secret: {words.answers}")
        if self.rules.lies and self.adversary:
            raise BadInput("an adversary tells no lies: its answers already keep the most codes")
        if self.rules.lies and self.role == "duel":
            raise BadInput(f"{words.rule('lies')} applies to {words.role('codebreaker')} and codemaker")
        if self.role == "duel":
            if self.duel_rounds % 2:
                raise BadInput(f"{name('rounds')} {self.duel_rounds} is odd: a duel has an even number of rounds, "
                               "so that each side makes as many codes as it breaks")
            if self.secret is not None:
                raise BadInput(f"{name('secret')} applies to {words.role('codebreaker')}: in a duel the computer's "
                               f"codes are drawn (reproducible with {name('seed')})")
        if self.role == "codemaker" and self.secret is not None:
            raise BadInput(f"{name('secret')} applies to {words.role('codebreaker')}: as codemaker you keep the "
                           "code in mind")
        self.make_liar(words)

    @property
    def duel_rounds(self) -> int:
        """A duel's rounds: those asked for, or :data:`DUEL_ROUNDS`."""
        return DUEL_ROUNDS if self.rounds is None else self.rounds

    def make_liar(self, words: Wording = COMMAND_LINE) -> Liar | None:
        """The codemaker that tells the lies ``liar`` names (None: it tells none)."""
        if self.liar is None:
            return None
        try:
            return parse_liar(self.liar, self.rules, self.seed)
        except BadInput as error:  # the command line's message, in the front end's words
            if words is COMMAND_LINE:
                raise
            raise BadInput(str(error).replace("--liar", words.name("liar")).replace("--lies K", words.rule("lies"))
                           .replace("--lies", words.name("lies"))) from None

    def check_engine(self, engine: type[Engine], edited: bool = False) -> None:
        """What the engine decides: an adversary lists the codes still possible, within its limit."""
        if self.adversary:
            check_adversary(self.rules, engine, edited)

    def check_codes(self, engine: Engine) -> None:
        """Refuse (exit 3) a game whose edited encoding admits no code: no secret could be drawn, and a
        codemaker game would be "won" by a code the encoding excludes."""
        if engine.edited and not engine.satisfiable([]):
            raise engine.no_solution([])

    def secret_for(self, engine: Engine, words: Wording = COMMAND_LINE, variant: str | None = None) -> Code | None:
        """The secret of a codebreaker game: the one given (refused when the engine's edited encoding excludes
        it), or one drawn among the game's secrets (from ``seed``); None when the computer keeps none.
        ``variant``: what a refusal calls the game as written (the server names its variant, never a file)."""
        if self.role != "codebreaker" or self.adversary:
            return None
        return chosen_secret(self.secret, engine, self.seed, name=words.name("secret"), variant=variant)

    def duel_secrets(self, engine: Engine) -> list[Code]:
        """The computer's codes of a duel, one for each round the user breaks."""
        return game_secrets(engine, self.duel_rounds // 2, self.seed)
