"""Engines: who finds the codes consistent with a history.

``python`` is the numpy reference engine, ``clingo`` solves the ASP encodings
in ``mm_logic/encodings/*.lp`` and ``swipl`` the CLP(FD) encodings in
``mm_logic/encodings/*.pl``; ``a1`` .. ``a5`` are seed 001's constraint-satisfaction
algorithms (:mod:`mm_logic.engines.csp`). All implement :class:`mm_logic.engines.base.Engine`.
Backends are imported only when asked for, so a missing solver breaks only
its own backend.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from ..notation import shown
from ..rules import RULE_FILE, Rules, rule_names
from ..support.errors import BadInput
from ..support.files import read_bytes
from .base import Engine, Session

#: ``--backend`` name -> "module:class"
BACKENDS = {
    "clingo": "mm_logic.engines.clingo:ClingoEngine",
    "swipl": "mm_logic.engines.swipl:SwiplEngine",
    "python": "mm_logic.engines.reference:ReferenceEngine",
    # Seed 001's hand-written searches (pure Python, with search statistics).
    **{f"a{i}": f"mm_logic.engines.csp:A{i}Engine" for i in range(1, 6)},
}
DEFAULT_BACKEND = "clingo"


def engine_class(name: str) -> type[Engine]:
    """The class behind a ``--backend`` name."""
    try:
        module, cls = BACKENDS[name].split(":")
    except KeyError:
        raise BadInput(f"unknown backend {shown(name)}; choose from {', '.join(BACKENDS)}") from None
    return getattr(import_module(module), cls)


def check_encoding(name: str, encoding: str | Path | None) -> None:
    """Refuse an ``--encoding`` the engine ``name`` cannot read (exit 2)."""
    if encoding is None:
        return
    cls = engine_class(name)
    if cls.suffix is None:
        readers = " or ".join(f"{n} ({engine_class(n).suffix})" for n in BACKENDS if engine_class(n).suffix)
        raise BadInput(f"--encoding applies to --backend {readers}, not {name}")
    if Path(encoding).suffix != cls.suffix:
        raise BadInput(f"--encoding for --backend {name} must be a {cls.suffix} file, got {encoding}")
    try:
        # Read whole once, bounded: a device, a FIFO (a link to /dev/zero), a file whose read fails.
        read_bytes(Path(encoding), "--encoding")
    except FileNotFoundError:
        return  # the engine names the missing file
    except OSError as error:
        raise BadInput(f"cannot read --encoding {encoding}: {error.strerror or error}") from None


def check_feedback_rule(name: str, rules: Rules, encoding: str | Path | None = None) -> None:
    """Refuse (exit 2) an engine that does not play the game's feedback rule (seed 001's searches reason on
    black and white pegs)."""
    cls = engine_class(name)
    # In the words of the front end the rules came from: --backend and --lies, or a request's fields.
    backend, lies, naming = rules.naming.option("backend"), rules.naming.rules_field("lies"), rules.naming
    if rules.lies and not cls.lies:
        fit = [n for n in BACKENDS if engine_class(n).lies]
        raise BadInput(f"{backend} {name} plays no {lies}; use {backend} {', '.join(fit[:-1])} or {fit[-1]}")
    if rules.feedback_kind not in cls.feedback_rules:
        fit = [n for n in BACKENDS if rules.feedback_kind in engine_class(n).feedback_rules]
        raise BadInput(f"{backend} {name} plays {rule_names(cls.feedback_rules)} only; "
                       f"with {naming.feedback(rules.feedback)} use {backend} {', '.join(fit[:-1])} or {fit[-1]}")
    if rules.lies and rules.feedback_kind not in cls.lies_rules:
        raise BadInput(f"{backend} {name} plays {lies} under {rule_names(cls.lies_rules)} only")
    if rules.feedback_kind == RULE_FILE and cls.suffix is not None and encoding is None:
        stated = Path(rules.feedback).suffix
        if stated == cls.suffix:
            return  # the rule's own encoding plays it (make_engine gives it as the --encoding)
        if stated in (".lp", ".pl"):
            raise BadInput(f"--feedback {rules.feedback}: --backend {name} needs an --encoding {cls.suffix} file "
                           f"that states the rule (docs/encodings.md); {rules.feedback} is for --backend "
                           f"{_reader(stated)}")
        raise BadInput(f"--feedback {rules.feedback}: the shipped encodings do not state your rule; give "
                       f"--backend {name} an --encoding {cls.suffix} file that does (docs/encodings.md)")


def _reader(suffix: str) -> str:
    """The backend that reads encodings ending in ``suffix``."""
    return next(n for n in BACKENDS if engine_class(n).suffix == suffix)


def _default_encoding(name: str, rules: Rules, encoding: str | Path | None) -> str | Path | None:
    """``encoding``, or, without one, the rule's own file where ``--feedback FILE.lp`` (``FILE.pl``) is what the
    backend reads: that encoding states the rule and the game."""
    if encoding is None and rules.feedback_kind == RULE_FILE and Path(rules.feedback).suffix == engine_class(
            name).suffix:
        return rules.feedback
    return encoding


def make_engine(name: str, rules: Rules, *, encoding: str | Path | None = None,
                time_limit: float | None = None, labeling: str | None = None) -> Engine:
    """Create the engine ``name`` for ``rules`` (with ``--feedback FILE.lp`` or ``FILE.pl`` and no ``encoding``,
    the backend that reads the file plays it)."""
    encoding = _default_encoding(name, rules, encoding)
    check_encoding(name, encoding)
    check_feedback_rule(name, rules, encoding)
    cls = engine_class(name)
    if labeling is not None and labeling not in cls.labelings:
        readers = [n for n in BACKENDS if labeling in engine_class(n).labelings]
        raise BadInput(f"--labeling {labeling} applies to --backend {' or '.join(readers) or 'none'}, not {name}")
    engine = cls(rules, encoding=Path(encoding) if encoding else None, time_limit=time_limit, labeling=labeling)
    if _compared(rules, encoding):
        from .rule_check import check_encoding_states_rule
        try:
            check_encoding_states_rule(engine)
        except BaseException:
            engine.close()
            raise
    return engine


def _compared(rules: Rules, encoding: str | Path | None) -> bool:
    """Whether an edited encoding is compared with the game's rule of one's own when its engine is made
    (:mod:`.rule_check`): not the rule's own encoding (the rule was derived from it), nor against a rule
    derived from an encoding that narrows the code space (the comparison reads the rule over every code;
    the answer check still holds each code the engine returns to the rule)."""
    if rules.feedback_kind != RULE_FILE or encoding is None or _same_file(encoding, rules.feedback):
        return False
    from ..feedback import EncodedRule, rule_of
    rule = rule_of(rules)
    return not isinstance(rule, EncodedRule) or rule.admitted().size == rules.size


def _same_file(encoding: str | Path, feedback: str) -> bool:
    """Whether ``--encoding`` is the ``--feedback`` file itself."""
    try:
        return Path(encoding).resolve() == Path(feedback).resolve()
    except OSError:
        return False


__all__ = ["BACKENDS", "DEFAULT_BACKEND", "Engine", "Session", "check_encoding", "check_feedback_rule", "engine_class",
           "make_engine"]
