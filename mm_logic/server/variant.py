"""A variant the server serves beside the built-in rules, chosen by its name (``serve --encoding FILE``).

The operator names the files when the server starts: an edited encoding (``--encoding FILE.lp`` read by clingo,
``FILE.pl`` by swipl; its codes are the secrets, every code of the size a guess) and a feedback rule
(``--feedback``: a built-in one, or a rule of one's own, ``FILE.py``, ``FILE.lp`` or ``FILE.pl``; alone, a
``FILE.lp`` or ``FILE.pl`` rule is the variant's encoding too). :meth:`Variant.load` checks them at once,
building the game on every engine that plays it, so a file that does not load is refused before the server
listens, and a rule derived from an encoding is in its cache before the first request.

A request names the variant by its name alone (``"rules": {"pegs": 4, "colors": 6, "variant": "palindrome"}``):
no request makes the server read a file. The replies name it the same way (:meth:`Variant.rules_json`).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

from ..engines import BACKENDS, check_encoding, check_feedback_rule, make_engine
from ..feedback import RULES, rule_of
from ..feedback.custom import CustomRule
from ..feedback.encoded import ENCODED_SUFFIXES
from ..feedback.variant import variant_of
from ..notation import Code, format_code, shown
from ..rules import FEEDBACK_RULES, Rules
from ..secret_codes import chosen_secret, game_secrets
from ..strategies import STRATEGIES, StrategyName
from ..studies.written_game import backend_of
from ..support.errors import BadInput, MMLogicError, NoConsistentCode

#: What a variant's name may be: a word a request can carry and a page can show, never a file's name.
NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")
#: How the replies name a variant's feedback rule when it is a rule of one's own (its keys: ``{"feedback": "2"}``).
OWN = "own"


@dataclass(frozen=True)
class Variant:
    """A game the server serves by name: ``encoding`` (None: the shipped one, or the rule's own file) and
    ``feedback`` (a built-in rule's name, or the path of a rule of one's own, as the operator gave them), played
    by ``backends`` with ``strategies``. ``digest``: a sha256 of the files, which a game kept in ``--db`` is
    checked against."""

    name: str
    encoding: Path | None
    feedback: str
    backends: tuple[str, ...]
    strategies: tuple[str, ...]
    digest: str

    @classmethod
    def load(cls, encoding: Path | None, feedback: str | None, name: str | None, rules: Rules,
             time_limit: float | None = None) -> Variant:
        """The variant of ``serve --encoding FILE --feedback RULE --variant-name NAME``, checked by playing it:
        each engine that plays it is built for ``rules`` (the rules options' size) and draws a secret.
        :class:`BadInput` (one line, exit 2) for anything that does not load."""
        if encoding is None and (feedback is None or feedback in FEEDBACK_RULES):
            given = f"--variant-name {shown(name)} names" if feedback is None else f"--feedback {feedback} alone serves"
            raise BadInput(f"{given} no variant: a variant is an --encoding FILE, or a --feedback FILE.py, FILE.lp or "
                           "FILE.pl of your own (the built-in rules are served to every request)")
        feedback = feedback or "standard"
        own = feedback not in FEEDBACK_RULES
        source = encoding if encoding is not None else Path(feedback)
        said = "--variant-name" if name is not None else f"the name of {source.name}"
        name = source.stem if name is None else name
        if not NAME.fullmatch(name):
            raise BadInput(f"{said} {shown(name)}: a variant's name is 1 to 40 letters, digits, '_' or '-' (a "
                           "request carries it; it names no file)" + ("" if said == "--variant-name" else
                                                                    "; give one with --variant-name NAME"))
        if encoding is not None:
            backend_of(encoding)  # a .lp or .pl file, else one line
        rules = replace(rules, feedback=feedback, lies=0)
        backends = tuple(b for b in BACKENDS if _plays(b, rules, encoding))
        if not backends:  # the engine that would read it says why not
            natural = backend_of(encoding) if encoding is not None else "python"
            check_encoding(natural, encoding)
            check_feedback_rule(natural, rules, encoding)
            raise BadInput(f"no engine plays variant {name}")
        strategies = tuple(s for s, c in STRATEGIES.items() if rules.feedback_kind in c.feedback_rules)
        digests = variant_of(rules, encoding) or {}
        digest = hashlib.sha256(json.dumps(
            {"feedback": feedback if not own else None,
             **{part: found["sha256"] for part, found in digests.items()}}, sort_keys=True).encode()).hexdigest()
        variant = cls(name, encoding, feedback, backends, strategies, digest)
        for backend in backends:
            variant.check(backend, rules, time_limit)
        return variant

    def check(self, backend: str, rules: Rules, time_limit: float | None) -> None:
        """Play the variant on ``backend`` as far as a game's start: its engine built, its rule's table derived
        (and cached), a secret drawn among its codes."""
        try:
            engine = make_engine(backend, rules, encoding=self.encoding, time_limit=time_limit)
        except NoConsistentCode as error:
            raise BadInput(str(error)) from None
        try:
            rule_of(rules).win(rules.pegs)  # a rule derived from an encoding: its table, now
            game_secrets(engine, 1, 0)
        except NoConsistentCode as error:  # an encoding that admits no code of the size: refused at start
            raise BadInput(f"{error} (--pegs {rules.pegs} --colors {rules.colors}: the size the variant is "
                           "checked at)") from None
        finally:
            engine.close()

    # -- what requests and replies say of it ---------------------------------------------------------
    @property
    def files(self) -> tuple[str, ...]:
        """The variant's files, as the operator gave them (no reply names them)."""
        own = None if self.feedback in FEEDBACK_RULES else self.feedback
        return tuple(str(file) for file in (self.encoding, own) if file is not None)

    @property
    def edited(self) -> bool:
        """Whether its codes may be fewer than every code of the size: an encoding (the variant's, or the rule's
        own file) writes them."""
        return self.encoding is not None or Path(self.feedback).suffix in ENCODED_SUFFIXES

    @property
    def feedback_name(self) -> str:
        """The feedback rule as the replies name it: a built-in rule's name, or ``own``."""
        return self.feedback if self.feedback in FEEDBACK_RULES else OWN

    def rules(self, rules: Rules, feedback: str | None) -> Rules:
        """A request's rules (its size, repetition, alphabet, lies) played as the variant; ``feedback``, the
        request's own, may only repeat the variant's. Their messages name the variant, never its files
        (:meth:`~mm_logic.rules.Naming.of_variant`)."""
        if feedback is not None and feedback != self.feedback_name:
            raise BadInput(f"variant {self.name} plays the feedback rule {self.feedback_name}: leave feedback out")
        return replace(rules, feedback=self.feedback, naming=rules.naming.of_variant(self.name, self.backends))

    def rules_json(self, rules: Rules) -> dict:
        """The ``rules`` object of a reply: the variant by its name, its rule as :attr:`feedback_name`."""
        return {**rules.as_dict(), "feedback": self.feedback_name, "variant": self.name}

    def option(self) -> dict:
        """The variant as ``GET /api/options`` lists it."""
        rule = RULES.get(self.feedback, CustomRule)
        return {"name": self.name, "feedback": self.feedback_name, "answer": rule.json_body,
                "backends": list(self.backends), "default_backend": self.backends[0],
                "strategies": list(self.strategies)}

    def identity(self) -> dict:
        """What a game kept in ``--db`` records of its variant, to be played on the same files after a restart."""
        return {"name": self.name, "sha256": self.digest}

    # -- playing it ------------------------------------------------------------------------------------
    def check_player(self, backend: str, strategy: StrategyName) -> None:
        """Refuse, in one line, a backend or a strategy that does not play the variant."""
        if backend not in self.backends:
            raise BadInput(f"variant {self.name} plays on backend {' or '.join(self.backends)}, not {backend}")
        if strategy.cls not in {STRATEGIES[s] for s in self.strategies}:
            *others, last = self.strategies
            raise BadInput(f"strategy {strategy} does not play variant {self.name}; use strategy "
                           + (f"{', '.join(others)} or {last}" if others else last))

    def secret(self, engine, code: Code | None, seed: int | None) -> Code:
        """A game's secret: ``code`` when the variant admits it (400 otherwise), else one drawn among the codes
        it admits (from ``seed``), as every front end draws it (:func:`mm_logic.secret_codes.chosen_secret`)."""
        text = None if code is None else format_code(code, engine.rules)
        return chosen_secret(text, engine, seed, name="secret", variant=f"variant {self.name}")


def _plays(backend: str, rules: Rules, encoding: Path | None) -> bool:
    """Whether ``backend`` plays ``rules`` with ``encoding`` (without building it)."""
    try:
        check_encoding(backend, encoding)
        check_feedback_rule(backend, rules, encoding)
    except MMLogicError:
        return False
    return True


def find_variant(name, variants: tuple[Variant, ...]) -> Variant:
    """The variant a request names (``rules.variant``); 400 for any other name, a file's included."""
    if not isinstance(name, str):
        raise BadInput("rules field 'variant' must be str")
    for variant in variants:
        if variant.name == name:
            return variant
    if not variants:
        raise BadInput(f"unknown variant {shown(name)}: this server serves none (mmlogic serve --encoding FILE "
                       "serves one)")
    raise BadInput(f"unknown variant {shown(name)}; choose from {', '.join(v.name for v in variants)}")


def rules_json(rules: Rules, variant: Variant | None) -> dict:
    """A reply's ``rules`` object: the variant's by its name, or the rules' own."""
    return rules.as_dict() if variant is None else variant.rules_json(rules)

