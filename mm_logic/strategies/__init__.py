"""Guess-selection strategies, by ``--strategy`` name.

The scoring strategies also answer to their authors' names (:data:`ALIASES`:
``knuth`` is ``minimax``), which are resolved to the built-in name at once.

Besides the built-in names, ``sample-entropy:K`` is ``sample-entropy`` with
a sample of K codes, and ``tree:FILE`` plays a strategy tree saved by
``bench --all --save-tree FILE`` (:mod:`.tree`). Such a name is playable
once :func:`open_tree` has read its file: the command line does it for the
names it is given, and a bench's worker processes for the tree they are
sent. Nothing else reads a file because of a name: a server that passes a
request's strategy name to :func:`make_strategy` cannot be made to read one.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import BadInput
from ..notation import amount, quoted
from ..rules import Rules
from .base import Strategy
from .genetic import Ga001Dissimilar, Ga001Random, Ga001Reduction, Ga001Similar, Ga004
from .human import Human1, Human2, Human3
from .sampled import SampleEntropy, is_sample_name
from .scoring import Entropy, Expected, Minimax, Parts
from .simple import Any, AnyRandomOpening, First, Random
from .tree import PREFIX, StrategyTree, TreeStrategy

#: The trees of the ``tree:FILE`` names opened in this process, by name.
TREES: dict[str, StrategyTree] = {}


class StrategyTable(dict):
    """Strategy classes by name. ``sample-entropy:K`` names are in it, and so is an opened
    ``tree:FILE`` name (unless ``trees`` is False): ``name in STRATEGIES`` holds and
    ``STRATEGIES[name]`` is :class:`TreeStrategy`, while iterating lists the built-in names only
    (help texts, error messages)."""

    def __init__(self, classes, trees: bool = True):
        super().__init__(classes)
        #: Whether the opened trees' names are in it.
        self.trees = trees

    def __contains__(self, name) -> bool:
        return super().__contains__(name) or (self.trees and name in TREES) or is_sample_name(name)

    def built_in(self) -> StrategyTable:
        """The table without the trees' names: what commands that play several sizes or openings
        take (a ``tree:FILE`` plays the one size and opening it was saved for)."""
        return StrategyTable(self, trees=False)

    def __getitem__(self, name) -> type[Strategy]:
        if self.trees and not super().__contains__(name) and name in TREES:
            return TreeStrategy
        return super().__getitem__(name)

    def __missing__(self, name):
        # sample-entropy:K is sample-entropy with its sample size in the name.
        if is_sample_name(name):
            return SampleEntropy
        raise KeyError(name)


STRATEGIES: dict[str, type[Strategy]] = StrategyTable({
    cls.name: cls for cls in (First, Any, Random, AnyRandomOpening, Minimax, Expected, Entropy, Parts,
                            Human1, Human2, Human3, Ga001Random, Ga001Similar, Ga001Dissimilar, Ga001Reduction,
                            Ga004, SampleEntropy)
})


#: The literature's names of the built-in strategies (any case), as users type them.
ALIASES = {"shapiro": "first", "knuth": "minimax", "irving": "expected", "neuwirth": "entropy", "kooi": "parts"}


def canonical_name(name: str) -> str:
    """The built-in name of a strategy named after its author (``Knuth`` -> ``minimax``); other names as given."""
    return ALIASES.get(name.lower(), name)


def is_tree_name(name: str) -> bool:
    """Whether ``name`` is of the form ``tree:FILE``."""
    return name.startswith(PREFIX)


def open_tree(name: str, tree: StrategyTree | None = None) -> StrategyTree:
    """Make the ``tree:FILE`` name ``name`` playable: read FILE (once), or take ``tree`` as its tree.

    Raises :class:`BadInput` (one line) for a file that cannot be read or is not a tree.
    """
    if tree is None and name not in TREES:
        path = name[len(PREFIX):]
        if not path:
            raise BadInput("--strategy tree:FILE needs a file name after tree:")
        tree = StrategyTree.load(Path(path))
    if tree is not None:
        TREES[name] = tree
    return TREES[name]


def make_strategy(name: str, rules: Rules, seed: int | None = None, time_limit: float | None = None) -> Strategy:
    """Create the strategy ``name`` (or an author's name, :data:`ALIASES`) for ``rules``; ``time_limit``
    bounds a strategy's own search."""
    name = canonical_name(name)
    if name in TREES:
        return TreeStrategy(rules, TREES[name], name)
    try:
        cls = STRATEGIES[name]
    except KeyError:
        raise BadInput(f"unknown strategy {quoted(name)}; choose from {', '.join(STRATEGIES)}") from None
    if cls.max_codes is not None and rules.size > cls.max_codes:
        # Refused at once, on every backend, before anything is computed.
        fit = [n for n, c in STRATEGIES.items() if c.for_any_size]
        others = ", ".join(fit[:-1]) + " or " + fit[-1]
        raise BadInput(f"--strategy {name} scores guesses against every code and plays at most "
                       f"{cls.max_codes:,} codes; {rules.describe()} has {amount(rules.size)}: use --strategy {others}")
    strategy = cls.from_name(name, rules, seed) if cls is SampleEntropy else cls(rules, seed)
    strategy.time_limit = time_limit
    return strategy


__all__ = ["ALIASES", "STRATEGIES", "Strategy", "StrategyTree", "TREES", "TreeStrategy", "canonical_name",
           "is_tree_name", "make_strategy", "open_tree"]
