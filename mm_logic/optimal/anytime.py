"""An anytime search for ``mmlogic optimal --anytime``: a heuristic strategy's tree made better set by set,
toward the optimum, with the best whole tree so far always at hand.

The tree starts as a scoring strategy's (entropy by default: :func:`mm_logic.strategies.make_strategy`,
played below any history at once by :meth:`~mm_logic.strategies.base.Strategy.tree_below`). Two moves
improve it, and neither can make it worse:

* **look-ahead** at a set of more than ``exact_below`` codes: each of the ``candidates`` most promising
  guesses there (the exact search's own order, :func:`~mm_logic.optimal.tasks.openings`, and
  the heuristic's guess, whose cost is the set's present one) is followed by the heuristic in each of
  its parts; the cheapest is kept, and its parts become sets to improve in turn;
* **exact search** at a set of at most ``exact_below`` codes
  (:meth:`~mm_logic.optimal.searcher.Searcher.cost`), with the set's present cost as its budget:
  an optimal subtree replaces the heuristic's where it costs less, and
  where it does not, the heuristic's is proved optimal there. A search that takes more than
  ``part_seconds`` is stopped and the set is improved by look-ahead instead.

Sets are taken smallest first (the cheap exact searches first). Every decision is a line of the
journal (``--journal``), so that a stopped run resumes where it was and a finished one is replayed in
minutes; the tree is written (``--save-tree``) every few minutes and at the end, and its games are
counted again then, as a check of the running total.
"""

from __future__ import annotations

import heapq
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..codespace import code_space
from ..engines import make_engine
from ..feedback import rule_of
from ..game import Game, attempts_limit
from ..notation import SHOWN, abridged, format_code, format_entry, parse_code
from ..rules import Rules
from ..strategies import make_strategy
from ..strategies.tree import StrategyTree, TreeNode, played_root, write_atomically
from ..support.errors import BadInput
from .anytime_journal import AnytimeJournal
from .searcher import Searcher
from .tasks import openings

#: Defaults: sets of at most this many codes are searched exactly; guesses compared by look-ahead; CPU seconds
#: an exact search may take before its set is improved by look-ahead instead; seconds between tree writes.
EXACT_BELOW, CANDIDATES, PART_SECONDS, SAVE_EVERY = 400, 16, 120.0, 600.0

Step = tuple[int, int]  # (guess index, feedback index)


class Heuristic:
    """A scoring strategy played below any history at once, on the python engine: its cost and its tree."""

    def __init__(self, rules: Rules, name: str, code):
        self.rules, self.name = rules, name
        #: A code of the space from its index (the searcher's, read from lists once).
        self.code = code
        self.space = code_space(rules)
        self.engine = make_engine("python", rules)
        self.strategy = make_strategy(name, rules)
        self.limit = attempts_limit(rules)
        self.rule = rule_of(rules)

    def _game(self, at: tuple[Step, ...]) -> Game:
        return Game(self.engine, self.strategy,
                    history=[(self.code(g), self.rule.from_index(f, self.rules.pegs)) for g, f in at])

    def _below(self, at: tuple[Step, ...]):
        """The strategy's games below ``at`` played at once; None only at the root of a large space (played
        part by part: :meth:`_parts`)."""
        with self._game(at) as game:
            below = game.tree_below(self.limit)
        if below is not None and below.too_deep:
            raise BadInput(f"{self.name} needed more than {self.limit} guesses below a history")
        if below is None and at:
            raise BadInput(f"--anytime needs a strategy that plays a whole subtree at once; {self.name} does not")
        return below

    def _parts(self) -> list[tuple[Step, ...]]:
        """The histories of the parts the strategy's opening leaves."""
        opening = int(self.space.index_of([self.guess(())])[0])
        win = self.rule.win_index(self.rules.pegs)
        return [((opening, int(fb)),) for fb in np.unique(self.space.table[opening]) if fb != win]

    def tree(self, at: tuple[Step, ...]) -> TreeNode:
        """The strategy's tree below ``at``."""
        below = self._below(at)
        if below is not None:
            return played_root(below, self.rules)
        parts = self._parts()
        node = TreeNode(self.code(parts[0][0][0]))
        for part in parts:
            node.children[self.rule.from_index(part[0][1], self.rules.pegs)] = self.tree(part)
        return node

    def cost(self, at: tuple[Step, ...]) -> int:
        """The guesses the strategy takes over the codes consistent with ``at``, counted from there."""
        below = self._below(at)
        if below is not None:
            attempts = below.games[:, 1]
            return int(attempts.sum()) - len(at) * attempts.size
        return self.space.size + sum(self.cost(part) for part in self._parts())

    def guess(self, at: tuple[Step, ...]) -> tuple:
        """The strategy's guess at ``at``."""
        with self._game(at) as game:
            return tuple(game.suggest())


@dataclass
class Node:
    """A set of codes of the tree: those consistent with ``at``, and the best strategy known for them."""

    at: tuple[Step, ...]
    part: np.ndarray
    #: The least cost known for the set (guesses from here on, summed over its codes).
    value: int
    #: What the set's strategy is: the heuristic's ("heuristic"), proved optimal there ("optimal", the
    #: heuristic's or ``tree``), or a guess chosen by look-ahead with its parts as children ("guess").
    state: str = "heuristic"
    guess: int | None = None
    children: dict[int, Node] = field(default_factory=dict)
    #: The exact search's subtree where it beat the heuristic (None after a resume: searched again to write).
    tree: TreeNode | None = None
    improved: bool = False
    #: The journal's line that gave the set's optimum (a resumed run checks it when it writes the tree).
    line: int | None = None


@dataclass
class AnytimeResult:
    """The best strategy found, its total, and what the run did."""

    rules: Rules
    total: int
    heuristic_total: int
    tree: StrategyTree | None
    opening: tuple
    exact_sets: int = 0
    improved_sets: int = 0
    expanded_sets: int = 0
    open_sets: int = 0
    seconds: float = 0.0
    #: Every set settled (its optimum proved, or chosen by look-ahead with its parts settled); False when
    #: the run was stopped (Ctrl-C, SIGTERM): the journal holds what it did.
    finished: bool = False
    heuristic: str = "entropy"
    save_tree: Path | None = None
    journal: Path | None = None

    def as_dict(self) -> dict:
        size = self.rules.size
        figures = self.tree.figures() if self.tree is not None else None
        return {"rules": self.rules.as_dict(), "total": self.total, "mean": round(self.total / size, 4),
                "max": figures.worst if figures is not None else None,
                "heuristic": self.heuristic, "heuristic_total": self.heuristic_total,
                "opening": format_code(self.opening, self.rules),
                "exact_sets": self.exact_sets, "improved_sets": self.improved_sets,
                "expanded_sets": self.expanded_sets, "open_sets": self.open_sets,
                "finished": self.finished, "seconds": round(self.seconds, 1)}

    def text(self) -> str:
        size = self.rules.size
        lines = [f"rules         {self.rules.describe()}",
                 f"opening       {format_code(self.opening, self.rules)}",
                 f"total         {self.total:,} guesses over {size:,} secrets (mean {self.total / size:.4f})",
                 f"{self.heuristic:<13} {self.heuristic_total:,} (the tree it improved: "
                 f"{self.heuristic_total - self.total:,} more)",
                 f"sets          {self.exact_sets:,} searched exactly ({self.improved_sets:,} improved), "
                 f"{self.expanded_sets:,} chosen by look-ahead, {self.open_sets:,} still open",
                 f"seconds       {self.seconds:.1f}"]
        if self.tree is not None:
            lines.insert(3, f"worst case    {self.tree.figures().worst}")
        if self.save_tree is not None:
            lines.append(f"tree          {self.save_tree}")
        if not self.finished:
            again = f": run again with --journal {self.journal} to go on" if self.journal is not None else ""
            lines.append(f"stopped       the best tree so far, not the optimum{again}")
        return "\n".join(lines)


class Anytime:
    """The run: the tree's sets, the heuristic, the exact search, the journal and the running total."""

    def __init__(self, rules: Rules, *, heuristic: str = "entropy", opening: tuple | None = None,
                 exact_below: int = EXACT_BELOW, candidates: int = CANDIDATES, part_seconds: float = PART_SECONDS,
                 journal: Path | None = None, save_tree: Path | None = None, save_every: float = SAVE_EVERY,
                 bits: int | None = None, progress: Callable[[str], None] | None = None):
        self.rules = rules
        self.searcher = Searcher(rules, bits=bits)
        self.code = self.searcher.code
        self.heuristic = Heuristic(rules, heuristic, self.code)
        self.rule = rule_of(rules)
        self.exact_below, self.candidates, self.part_seconds = exact_below, candidates, part_seconds
        self.opening = None if opening is None else int(self.searcher.space.index_of([tuple(opening)])[0])
        settings = {"heuristic": heuristic, "opening": None if opening is None else format_code(opening, rules),
                    "exact_below": exact_below, "candidates": candidates}
        self.journal = AnytimeJournal(journal, rules, settings)
        self.save_tree, self.save_every = save_tree, save_every
        self.progress = progress or (lambda text: None)
        self.total = 0
        self.counts = {"exact": 0, "improved": 0, "expanded": 0}

    # -- names -----------------------------------------------------------------------------
    def _names(self, at: tuple[Step, ...]) -> tuple[str, ...]:
        return tuple(format_entry((self.code(g), self.rule.from_index(f, self.rules.pegs)), self.rules)
                     for g, f in at)

    # -- the two moves ---------------------------------------------------------------------
    def _look_ahead(self, node: Node) -> None:
        """Choose the set's guess by one step of look-ahead (or as the journal says), and make its parts."""
        names = self._names(node.at)
        known = self.journal.get(names)
        history = [g for g, _ in node.at]
        if "guess" in known:
            number, line = known["guess"]
            guess = int(self.searcher.space.index_of([parse_code(line["guess"], self.rules,
                                                                 check_repeat=False)])[0])
            # The parts' costs are the heuristic's again (a few seconds for the largest set), never the line's.
            parts = self.searcher.parts(guess, node.part)
            values = self._rolled(node, guess, parts)
            value = node.part.size + sum(values)
            if line["parts"] != values:
                said = line["parts"]
                raise self.journal.damaged(number, f"does not match its set: the heuristic's parts after "
                                                   f"{line['guess']} are {_listed(values)}, the line says "
                                                   f"{_listed(said)} ({_first_difference(values, said)})")
            if line["value"] != value:
                raise self.journal.damaged(number, f"does not match its set: the heuristic's parts after "
                                                   f"{line['guess']} cost {value:,} in all, the line says "
                                                   f"{_figure(line['value'])}")
        else:
            started = time.monotonic()
            if not node.at and self.opening is not None:
                tried = [self.opening]
            else:
                pick = int(self.searcher.space.index_of([self.heuristic.guess(node.at)])[0])
                found = openings(self.searcher, None, node.part if node.at else None, tuple(history))
                tried = [pick] + [o.index for o in found[: self.candidates] if o.index != pick]
            best = None
            for number, guess in enumerate(tried, 1):
                self.progress(f"{self._where(node)}: look-ahead, guess {number} of {len(tried)}")
                parts = self.searcher.parts(guess, node.part)
                values = self._rolled(node, guess, parts)
                value = node.part.size + sum(values)
                if best is None or value < best[0]:
                    best = (value, guess, parts, values)
            value, guess, parts, values = best
            self.journal.record(names, guess=format_code(self.code(guess), self.rules), parts=values,
                                value=value, seconds=round(time.monotonic() - started, 1))
        children = {fb: Node(node.at + ((guess, fb),), part, v) for (fb, part), v in zip(parts, values)}
        new = node.part.size + sum(child.value for child in children.values())
        self.total += new - node.value
        node.value, node.state, node.guess, node.children = new, "guess", guess, children
        self.counts["expanded"] += 1

    def _rolled(self, node: Node, guess: int, parts: list) -> list[int]:
        """The heuristic's cost of each part of the set after ``guess``."""
        return [self.heuristic.cost(node.at + ((guess, fb),)) for fb, _ in parts]

    def _exact(self, node: Node) -> bool:
        """Search the set exactly within its present cost; False where it took too long."""
        names = self._names(node.at)
        known = self.journal.get(names)
        if "optimum" in known:
            number, line = known["optimum"]
            if line["heuristic"] != node.value:
                raise self.journal.damaged(number, f"does not match its set: the heuristic's cost there is "
                                                   f"{node.value:,}, the line says {_figure(line['heuristic'])}")
            optimum, node.line = line["optimum"], number
        elif "stopped" in known:
            return False
        else:
            history = [g for g, _ in node.at]
            # CPU seconds of this process (the search's thread is what runs): a machine busy with other work
            # does not stop a search sooner.
            started = time.process_time()
            searcher = self.searcher

            def tick(control: np.ndarray) -> None:
                self.progress(f"{self._where(node)}: exact search, {int(control[searcher.k.NODES]):,} positions")
                if time.process_time() - started > self.part_seconds:
                    control[searcher.k.STOP] = 1

            try:
                found = searcher.cost(node.part, history, None, node.value, on_tick=tick)
            finally:
                stopped = bool(searcher.control[searcher.k.STOP])
                searcher.control[searcher.k.STOP] = 0
            seconds = round(time.process_time() - started, 1)
            if stopped or found >= searcher.k.STOPPED:
                self.journal.record(names, stopped=seconds)
                return False
            optimum = min(int(found), node.value)
            self.journal.record(names, optimum=optimum, heuristic=node.value, seconds=seconds)
            if optimum < node.value:
                node.tree = searcher.subtree(node.part, history, None)
        self.counts["exact"] += 1
        if optimum < node.value:
            self.counts["improved"] += 1
            node.improved = True
            self.total += optimum - node.value
            node.value = optimum
        node.state = "optimal"
        return True

    def _where(self, node: Node) -> str:
        return (f"best {self.total:,}, set of {node.part.size:,} codes at depth {len(node.at)} "
                f"({self.counts['exact']:,} searched, {self.counts['improved']:,} improved)")

    # -- the run ---------------------------------------------------------------------------
    def run(self) -> AnytimeResult:
        """Improve the tree until every set is settled, or until Ctrl-C or SIGTERM: the best tree found either
        way (``finished`` says which), written to ``save_tree`` and counted again."""
        try:
            return self._run()
        finally:
            self.journal.close()

    def _run(self) -> AnytimeResult:
        started = time.monotonic()
        searcher = self.searcher
        root = Node((), searcher.root, self.heuristic.cost(()))
        heuristic_total = self.total = root.value
        self.root = root
        todo: list = [(root.part.size, 0, root)]
        order = 1
        saved = time.monotonic()
        try:
            while todo:
                _, _, node = heapq.heappop(todo)
                if node.part.size <= 2:
                    continue  # the heuristic's subtree is optimal: one code, or two
                if node.part.size > self.exact_below or not self._exact(node):
                    self._look_ahead(node)
                    for child in node.children.values():
                        heapq.heappush(todo, (child.part.size, order, child))
                        order += 1
                if self.save_tree is not None and time.monotonic() - saved > self.save_every:
                    self.write_tree()
                    saved = time.monotonic()
        except KeyboardInterrupt:
            stopped = True  # the result so far is the value returned: the caller says it was stopped
        else:
            stopped = False
        return AnytimeResult(self.rules, self.total, heuristic_total, self.write_tree(), self._opening(root),
                             exact_sets=self.counts["exact"], improved_sets=self.counts["improved"],
                             expanded_sets=self.counts["expanded"], open_sets=len(todo),
                             seconds=time.monotonic() - started, finished=not stopped,
                             heuristic=self.heuristic.name, save_tree=self.save_tree, journal=self.journal.path)

    def _opening(self, root: Node) -> tuple:
        if root.guess is not None:
            return self.code(root.guess)
        return self._tree(root).guess if root.improved else self.heuristic.guess(())

    def write_tree(self) -> StrategyTree:
        """The best tree so far, its games counted against the running total, written to ``save_tree``."""
        tree = StrategyTree(self.rules, self._tree(self.root), strategy=f"anytime-{self.heuristic.name}")
        counted = tree.figures().total
        if counted != self.total:
            raise AssertionError(f"the tree's games take {counted} guesses, the search counted {self.total}")
        if self.save_tree is not None:
            write_atomically(self.save_tree, json.dumps(tree.as_json()) + "\n")
        return tree

    def _tree(self, node: Node) -> TreeNode:
        if node.state == "guess":
            made = TreeNode(self.code(node.guess))
            for fb, child in node.children.items():
                made.children[self.rule.from_index(fb, self.rules.pegs)] = self._tree(child)
            return made
        if node.improved:
            if node.tree is None:  # resumed: searched again, within its known cost
                history = [g for g, _ in node.at]
                found = self.searcher.cost(node.part, history, None, node.value + 1)
                if found != node.value:
                    said = f"{found:,}" if found < node.value else f"no less than {found:,}"
                    raise self.journal.damaged(node.line, f"does not match its set: its least total is {said}, "
                                                          f"the line says {_figure(node.value)}")
                node.tree = self.searcher.subtree(node.part, history, None)
            return node.tree
        return self.heuristic.tree(node.at)


def _listed(figures: list[int]) -> str:
    """A list of figures as a message quotes it: as JSON writes it, cut short when long (a 5,000-digit figure or
    a hundred parts is no line to read)."""
    return abridged(json.dumps(figures), SHOWN)


def _first_difference(ours: list[int], theirs: list[int]) -> str:
    """Where a journal line's parts first differ from the heuristic's: their count, else the first part that
    differs (numbered from 1, in the order the search lists them)."""
    if len(ours) != len(theirs):
        return f"{len(ours):,} parts, not {len(theirs):,}"
    index = next(i for i, (mine, given) in enumerate(zip(ours, theirs)) if mine != given)
    return f"part {index + 1} costs {ours[index]:,}, not {_figure(theirs[index])}"


def _figure(n: int) -> str:
    """A figure read from a journal, as a message quotes it: whole if short, else how long it is."""
    text = f"{n:,}"
    return text if len(text) <= 40 else f"a number of {len(str(n)):,} digits"
