"""Guess-selection strategies, by ``--strategy`` name.

A module per family, each strategy a :class:`~mm_logic.strategies.base.Strategy`:
``simple`` (``first``, ``any``, ``random``, ``any-random-opening``);
:mod:`.scoring`, the partition scorers (``minimax``, ``expected``, ``entropy``,
``parts``); :mod:`.weighted`, Gür's weighted entropy (``weighted-entropy``,
``weighted-entropy-stages``); :mod:`.sampled`, ``sample-entropy`` for games too
large to enumerate; ``human``, seed 000's strategies (``human1`` .. ``human3``);
``genetic``, the genetic algorithms of seeds 001 and 004 (``ga001-*``, ``ga004``);
:mod:`.tree`, saved strategy trees.

The scoring strategies also answer to their authors' names (:data:`ALIASES`:
``knuth`` is ``minimax``), which are resolved to the built-in name at once.

Besides the built-in names, ``sample-entropy:K`` is ``sample-entropy`` with
a sample of K codes, and ``tree:FILE`` plays a strategy tree saved by
``bench --all --save-tree FILE`` (:mod:`.tree`). Names are read in one
place, :func:`parse_strategy`, into a :class:`StrategyName` that carries a
tree read from its file; a bench's worker processes are sent the value, tree
included. Nothing else reads a file because of a name: a server reads its
requests' names with ``files=False``, and :func:`make_strategy` reads none.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..notation import Code, amount, quoted, shown
from ..rules import RULE_FILE, Rules, rule_names
from ..support.errors import BadInput
from .base import Strategy
from .tree import PREFIX, StrategyTree, TreeStrategy

_STRATEGIES: dict[str, type[Strategy]] = {}


def _registry() -> dict[str, type[Strategy]]:
    """The built-in strategies by ``--strategy`` name (:data:`STRATEGIES`), their modules imported at the first
    call: what imports the package for a tree's nodes alone (``optimal``) loads none of them (30 ms)."""
    if not _STRATEGIES:
        from .genetic import Ga001Dissimilar, Ga001Random, Ga001Reduction, Ga001Similar, Ga004
        from .human import Human1, Human2, Human3
        from .sampled import SampleEntropy
        from .scoring import Entropy, Expected, Minimax, Parts
        from .simple import Any, AnyRandomOpening, First, Random
        from .weighted import WeightedEntropy, WeightedEntropyStages
        _STRATEGIES.update({cls.name: cls for cls in (
            First, Any, Random, AnyRandomOpening, Minimax, Expected, Entropy, Parts, WeightedEntropy,
            WeightedEntropyStages, Human1, Human2, Human3, Ga001Random, Ga001Similar, Ga001Dissimilar, Ga001Reduction,
            Ga004, SampleEntropy)})
    return _STRATEGIES


def __getattr__(name: str):
    # STRATEGIES, the built-in strategies by --strategy name (sample-entropy:K and tree:FILE are read by
    # parse_strategy), made on first use (:func:`_registry`).
    if name == "STRATEGIES":
        return _registry()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The strategy a game plays when it names none (the contract's default ``--strategy``; a request's ``strategy``).
DEFAULT_STRATEGY = "minimax"
#: The four partition scorers (:mod:`.scoring`), as ``sweep --strategy`` plays them by default.
SCORERS = ("minimax", "expected", "entropy", "parts")
#: The literature's names of the built-in strategies (any case), as users type them.
ALIASES = {"shapiro": "first", "knuth": "minimax", "irving": "expected", "neuwirth": "entropy", "kooi": "parts"}


def canonical_name(name: str) -> str:
    """The built-in name of a strategy named after its author (``Knuth`` -> ``minimax``); other names as given."""
    return ALIASES.get(name.lower(), name)


def is_tree_name(name: str) -> bool:
    """Whether ``name`` is of the form ``tree:FILE``."""
    return name.startswith(PREFIX)


@dataclass(frozen=True)
class StrategyName:
    """A ``--strategy`` as read by :func:`parse_strategy`: its name and what the name carries.

    A value, sent as it is to worker processes: a ``tree:FILE`` name carries the tree read
    from FILE, so nothing reads the file again and no registry of trees exists.
    """

    #: The name, an author's name resolved (``knuth`` -> ``minimax``).
    name: str
    #: The class that plays it.
    cls: type[Strategy]
    #: A ``tree:FILE`` name's tree.
    tree: StrategyTree | None = field(default=None, compare=False, repr=False)
    #: A genetic strategy's parameters, by key (``ga004:population=50``: ``(("population", "50"),)``), read once.
    params: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    #: ``sample-entropy:K``'s K (None: the strategy's own).
    sample: int | None = field(default=None, repr=False)

    def __str__(self) -> str:
        return self.name

    @property
    def is_tree(self) -> bool:
        return self.tree is not None

    def make(self, rules: Rules, seed: int | None = None, *, time_limit: float | None = None,
             first_guess: Code | None = None) -> Strategy:
        """The strategy for ``rules``: ``time_limit`` bounds its own search, ``first_guess`` is its opening.

        Raises :class:`BadInput` as :meth:`check` does.
        """
        self.check(rules)
        options = {"time_limit": time_limit, "first_guess": first_guess}
        if self.tree is not None:
            return TreeStrategy(rules, self.tree, self.name, **options)
        if self.sample is not None:
            return self.cls(rules, seed, self.sample, **options)
        if self.params:  # a genetic strategy's parameters (--ga)
            return self.cls(rules, seed, dict(self.params), **options)
        return self.cls(rules, seed, **options)

    def check(self, rules: Rules) -> None:
        """Refuse (:class:`BadInput`, one line, before anything is computed, on every backend) rules the
        strategy cannot play: more codes than a scorer scores, a feedback rule it does not reason on, a
        tree's other rules (another file of your own included) or lies (a tree follows truthful answers)."""
        cls = self.cls
        # In the words of the front end the rules came from: --strategy on the command line, strategy in a request.
        strategy = f"{rules.naming.option('strategy')} {self.name}"
        use = f"use {rules.naming.option('strategy')}"
        if cls.max_codes is not None and rules.size > cls.max_codes:
            fit = [n for n, c in _registry().items() if c.for_any_size and _plays_own_rule(c, rules)]
            others = ", ".join(fit[:-1]) + " or " + fit[-1]
            raise BadInput(f"{strategy} scores guesses against every code and plays at most "
                           f"{cls.max_codes:,} codes; {rules.describe()} has {amount(rules.size)}: "
                           f"{use} {others}")
        limit = cls.own_rule_max_codes
        if rules.feedback_kind == RULE_FILE and limit is not None and rules.size > limit:
            raise BadInput(f"{strategy} scores a rule of your own from its feedback table, in games of "
                           f"at most {limit:,} codes; {rules.describe()} has {amount(rules.size)}: "
                           f"{use} first, any or random")
        if cls.pegs_only is not None and rules.pegs != cls.pegs_only:
            raise BadInput(f"{strategy} weighs the feedbacks of {cls.pegs_only} pegs only (its published "
                           f"weights); {rules.describe()} has {rules.pegs}: {use} entropy")
        if rules.feedback_kind not in cls.feedback_rules:
            fit = [n for n, c in _registry().items() if rules.feedback_kind in c.feedback_rules
                   and _plays_own_rule(c, rules)]
            raise BadInput(f"{strategy} plays {rule_names(cls.feedback_rules)} only; "
                           f"with {rules.naming.feedback(rules.feedback)} {use} {', '.join(fit[:-1])} or {fit[-1]}")
        if self.tree is not None:
            self.tree.check_rules(rules, self.name)


def _plays_own_rule(cls: type[Strategy], rules: Rules) -> bool:
    """Whether ``cls`` plays the size of ``rules`` when their feedback rule is one of your own (scored from its
    table, within :attr:`~mm_logic.strategies.base.Strategy.own_rule_max_codes`); True under a built-in rule."""
    return rules.feedback_kind != RULE_FILE or (cls.own_rule_max_codes or rules.size) >= rules.size


#: The longest path a tree's name quotes whole (Linux's PATH_MAX): a file's name is never cut (CI's temporary
#: folders are deeper than a person's), a pasted megabyte is.
_LONGEST_PATH = 4096


def _name_shown(name: str) -> str:
    """A strategy's name as a refusal quotes it: cut short when long (:func:`~mm_logic.notation.shown`), but a
    tree's (``tree:PATH``) whole up to :data:`_LONGEST_PATH`."""
    if is_tree_name(name) and len(name) <= len(PREFIX) + _LONGEST_PATH:
        return quoted(name)
    return shown(name)


def parse_strategy(text: str, *, files: bool = True) -> StrategyName:
    """The one reader of a strategy's name: a built-in name, an author's name (:data:`ALIASES`),
    ``sample-entropy:K``, a genetic strategy with its parameters (``ga004:population=50``, what ``--ga``
    gives), or (with ``files``) ``tree:FILE``, whose FILE is read here, once.

    Raises :class:`BadInput` (one line) for an unknown name, a bad K, or a file that cannot be
    read or is not a tree. A server passes ``files=False``: a request cannot make it read a file.

    Examples
    --------
    >>> parse_strategy("Knuth")
    StrategyName(name='minimax', cls=<class 'mm_logic.strategies.scoring.Minimax'>)
    >>> parse_strategy("sample-entropy:50").name
    'sample-entropy:50'
    >>> parse_strategy("ga004:mutation=15%").name
    'ga004:mutation=0.15'
    """
    from .genetic import GENETIC_NAMES, ga_name, ga_parameters
    from .sampled import SampleEntropy, is_sample_name, sample_size
    name = canonical_name(text)
    if name in _registry():
        return StrategyName(name, _registry()[name])
    base, colon, params = name.partition(":")
    if base in GENETIC_NAMES:
        read = ga_parameters(params, base)
        return StrategyName(ga_name(base, read), _registry()[base], params=tuple(read.items()))
    if is_sample_name(name):
        return StrategyName(name, SampleEntropy, sample=sample_size(name))
    if files and is_tree_name(name):
        path = name[len(PREFIX):]
        if not path:
            raise BadInput("--strategy tree:FILE needs a file name after tree:")
        return StrategyName(name, TreeStrategy, StrategyTree.load(Path(path)))
    raise BadInput(f"unknown strategy {_name_shown(name)}; choose from {', '.join(_registry())}")


def with_ga(strategy: StrategyName, text: str) -> StrategyName:
    """``strategy`` with the ``--ga`` parameters ``text`` (``KEY=VALUE,...``) over its own; :class:`BadInput`
    (one line) for a strategy that is not genetic or a bad parameter.

    >>> with_ga(parse_strategy("ga004:population=50"), "mutation=0.15,population=100").name
    'ga004:population=100:mutation=0.15'
    """
    from .genetic import GA_KEYS, GENETIC_NAMES, ga_name, ga_parameters
    base = strategy.cls.name
    if base not in GENETIC_NAMES:
        raise BadInput(f"--ga sets a genetic algorithm's parameters; --strategy {strategy.name} is not one "
                       f"(choose from {', '.join(GENETIC_NAMES)})")
    given = {**dict(strategy.params), **ga_parameters(text, base)}
    merged = {key: given[key] for key in GA_KEYS if key in given}  # in the keys' order, as a name is read
    return StrategyName(ga_name(base, merged), strategy.cls, params=tuple(merged.items()))


def parse_strategies(text: str | Iterable[str | StrategyName], *, files: bool = True) -> list[StrategyName]:
    """A comma-separated list of strategies (:func:`parse_strategy`; or a list, whose items may be read
    already), without repeats; ``files=False`` refuses ``tree:FILE`` (commands that play several sizes or
    openings: a tree plays the one it was saved for).

    Examples
    --------
    >>> [s.name for s in parse_strategies("Knuth,entropy,minimax")]
    ['minimax', 'entropy']
    """
    items = text.split(",") if isinstance(text, str) else text
    listed = [n if isinstance(n, StrategyName) else n.strip() for n in items
              if isinstance(n, StrategyName) or n.strip()]
    if not listed:
        raise BadInput(f"unknown strategy {_name_shown(str(text))}; choose from {', '.join(_registry())}")
    chosen = [n if isinstance(n, StrategyName) else parse_strategy(n, files=files) for n in listed]
    return list({s.name: s for s in chosen}.values())


def make_strategy(name: str | StrategyName, rules: Rules, seed: int | None = None, *,
                  time_limit: float | None = None, first_guess: Code | None = None) -> Strategy:
    """Create the strategy ``name`` (read by :func:`parse_strategy` without files, or already read)
    for ``rules``; see :meth:`StrategyName.make`."""
    chosen = name if isinstance(name, StrategyName) else parse_strategy(name, files=False)
    return chosen.make(rules, seed, time_limit=time_limit, first_guess=first_guess)


__all__ = ["ALIASES", "DEFAULT_STRATEGY", "SCORERS", "STRATEGIES", "Strategy", "StrategyName", "StrategyTree",
           "TreeStrategy", "canonical_name", "is_tree_name", "make_strategy", "parse_strategies", "parse_strategy"]
