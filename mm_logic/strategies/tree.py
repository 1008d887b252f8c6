"""Strategy trees: a deterministic strategy written out as guesses and feedbacks.

A :class:`TreeNode` is the guess played at one history and, for every
feedback that guess can get (except the win), the subtree played next. A
:class:`StrategyTree` is a whole tree with the rules it plays: saved as JSON
(``bench --all --save-tree FILE``), read back, played by
:class:`TreeStrategy` on any backend (``--strategy tree:FILE``), summed up
and drawn (``mmlogic tree FILE``, :func:`to_dot`).

The file (format version 1) writes codes and feedbacks in the command
line's notation, with the alphabet the codes were written in::

    {"format": "mmlogic-tree", "version": 1,
     "rules": {"pegs": 4, "colors": 6, "max_repeat": null, "feedback": "standard"}, "alphabet": "012345",
     "strategy": "minimax", "seed": null, "backend": "python", "first_guess": null,
     "tree": {"guess": "0011", "next": {"0,0": {"guess": "2345", "next": {...}}, ...}}}

A file saved before every ``rules`` object named its feedback rule has no
``"feedback"``: it plays the standard rule. A file whose rule is one of your own
(``"feedback": "rule.py"``, a ``.lp`` or ``.pl`` file too) names a file that
only the command line loads: reading the tree loads nothing, and its nodes
(whose feedbacks that rule writes) are read once a command names the same
file with ``--feedback`` (:meth:`StrategyTree.played_under`,
:meth:`StrategyTree.read_with`). That file is the tree's where it is the same file as the one the tree
records (by its absolute path, from any folder; a path recorded relative, as trees saved before were, from the
current folder or the tree file's) and has the sha256 the tree's ``variant`` records (edited since: refused).
A node without ``next`` has no
branch below it (the last code left, found by its guess). Files are written whole or not at all (a temporary file
renamed over the target), so an interrupted save leaves nothing half-written.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from ..codespace import code_space
from ..feedback import rule_of
from ..histogram import HistogramFigures, format_histogram
from ..notation import (
    Code,
    Entry,
    Feedback,
    format_code,
    format_entry,
    format_feedback,
    parse_code,
    parse_feedback,
    plural,
    whole_number,
)
from ..rules import FEEDBACK_RULES, RULE_FILE, Rules, rules_from_json
from ..support.errors import BackendUnavailable, BadInput, MMLogicError
from ..support.files import from_here, read_text, same_json, target_of
from .base import Strategy

FORMAT = "mmlogic-tree"
VERSION = 1
#: The prefix of ``--strategy tree:FILE``.
PREFIX = "tree:"


@dataclass
class TreeNode:
    """The guess played at one history, and the subtree after each non-winning feedback."""

    guess: Code
    children: dict[Feedback, TreeNode] = field(default_factory=dict)

def played_root(played, rules: Rules) -> TreeNode:
    """The guesses a strategy played below a history at once (a
    :class:`~mm_logic.strategies.base.PlayedTree`) as a tree: the node of the history itself, its children by
    feedback."""
    codes, rule = code_space(rules).codes, rule_of(rules)
    made = [TreeNode(guess) for guess in map(tuple, codes[played.nodes[:, 0]].tolist())]
    for node, (parent, mark) in zip(made, played.nodes[:, 1:].tolist()):
        if parent >= 0:
            made[parent].children[rule.from_index(mark, rules.pegs)] = node
    return made[0]


# -- a whole tree ------------------------------------------------------------------------
@dataclass
class Visit:
    """One node met in a walk over every secret (:meth:`StrategyTree.visits`)."""

    node: TreeNode
    #: Guesses played when this node's guess is played (1 at the root).
    depth: int
    #: Secrets whose game reaches this node.
    secrets: int
    #: Whether the node's guess is one of them (a game won here).
    wins: bool
    #: Position of the parent's visit in the walk (None at the root), and the feedback leading here.
    parent: int | None
    feedback: Feedback | None
    #: Secrets whose feedback has no branch here (an incomplete tree).
    missing: int = 0
    #: Whether the walk stopped above this node's subtree (``max_depth``).
    cut: bool = False


@dataclass
class StrategyTree:
    """A strategy tree with the rules it plays and where it comes from."""

    rules: Rules
    #: The guess at the empty history and its subtrees; None in a tree read from a file whose rule is one of your own
    #: until it is read under the command's rule (:meth:`played_under`, :meth:`read_with`).
    root: TreeNode | None
    #: The strategy that played it (``minimax``), its seed, and the engine the bench ran on.
    strategy: str = "?"
    seed: int | None = None
    backend: str | None = None
    #: The ``--first-guess`` it was made with (None: the strategy's own opening).
    first_guess: Code | None = None
    #: The file it was read from, for messages.
    source: Path | None = None
    #: The variant it was made for, where it is not the rules' own game: the edited encoding and the rule of
    #: one's own, each ``{"file": name, "sha256": digest of its files}`` (``variant_of``,
    #: :mod:`mm_logic.studies.written_game`); None: the rules' codes under a built-in rule.
    variant: dict | None = None
    #: The file's ``"tree"`` object, not read yet (``root`` is None): its feedbacks are written as the tree's rule of
    #: your own writes them, and a tree never loads that rule's file (only the command line's --feedback does).
    unread: object = field(default=None, repr=False, compare=False)

    # -- the file ----------------------------------------------------------------------
    def as_json(self) -> dict:
        """The file's object (children in feedback order, whatever order they were found in)."""
        rules = self.rules
        return {
            "format": FORMAT, "version": VERSION, "rules": rules.as_dict(),
            "alphabet": rules.alphabet[: rules.colors] if rules.symbolic else None,
            "strategy": self.strategy, "seed": self.seed, "backend": self.backend,
            "first_guess": format_code(self.first_guess, rules) if self.first_guess is not None else None,
            # Only in a variant's file: a built-in game's tree is written as it always was.
            **({"variant": self.variant} if self.variant else {}),
            "tree": node_object(self.root, rules),
        }

    def save(self, path: Path) -> None:
        """Write the tree to ``path`` as JSON, whole or not at all."""
        write_atomically(Path(path), json.dumps(self.as_json(), allow_nan=False) + "\n")  # strict JSON: no NaN

    @classmethod
    def load(cls, path: Path) -> StrategyTree:
        """Read a tree file; anything wrong with it is one :class:`BadInput` line."""
        path = Path(path)
        try:
            text = read_text(path, "tree file")
            try:  # a number of more digits than int() reads: one line naming it, not int()'s ValueError
                data = json.loads(text, parse_int=whole_number)
            except BadInput as error:
                raise BadInput(f"{path}: {error}") from None
        except OSError as error:
            raise BadInput(f"cannot read tree file {path}: {error.strerror or error}") from None
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
            reason = (f"{error.msg} at line {error.lineno}" if isinstance(error, json.JSONDecodeError)
                      else "nested too deeply" if isinstance(error, RecursionError) else "not text")
            raise BadInput(f"{path} is not a strategy tree file (not JSON: {reason})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise BadInput(f'{path} is not a strategy tree file (no "format": "{FORMAT}")')
        if not same_json(data.get("version"), VERSION):
            raise BadInput(f"{path} is tree format version {json.dumps(data.get('version'))}; "
                           f"this mmlogic reads version {VERSION}")
        try:
            rules = rules_from_json(data.get("rules"), data.get("alphabet"))
            # A rule of your own is not loaded here (a tree file naming evil.py must not run it): the nodes wait
            # for a command naming the same file (played_under, read_with). Their shape is checked at once.
            own_rule = rules.feedback_kind == RULE_FILE
            nodes = data.get("tree")
            if own_rule and not (isinstance(nodes, dict) and isinstance(nodes.get("guess"), str)):
                raise BadInput('a node must be {"guess": CODE, "next": {...}} (at the root)')
            root = None if own_rule else _read_node(nodes, rules, [])
            first = data.get("first_guess")
            seed = data.get("seed")
            strategy = data.get("strategy", "?")
            backend = data.get("backend")
            if not (isinstance(seed, int) or seed is None) or not isinstance(strategy, str) \
                    or not (isinstance(backend, str) or backend is None):
                raise BadInput('"strategy", "seed" or "backend" has the wrong type')
            first_guess = parse_code(first, rules, check_repeat=False) if isinstance(first, str) else None
            variant = data.get("variant")
            if variant is not None and not (isinstance(variant, dict) and variant and all(
                    key in ("encoding", "feedback") and isinstance(part, dict)
                    and set(part) == {"file", "sha256"} and all(isinstance(v, str) for v in part.values())
                    for key, part in variant.items())):
                raise BadInput('"variant" must map "encoding" or "feedback" to {"file": NAME, "sha256": DIGEST}')
        except BadInput as error:
            raise BadInput(f"{path}: {error}") from None
        return cls(rules, root, strategy, seed, backend, first_guess, source=path, variant=variant,
                   unread=nodes if own_rule else None)

    def check_rules(self, rules: Rules, name: str) -> None:
        """Refuse to play the tree under other rules than its own (the alphabet may differ), or with lies.

        A rule of your own is the tree's only as the same file (:meth:`plays_rule`) with the same digest
        (:meth:`check_rule_digest`); nothing is loaded to tell. A tree follows truthful answers: with
        ``rules.lies`` a wrong answer has no branch, so it is refused before any game rather than after one.
        """
        def key(r: Rules) -> tuple[int, int, int]:
            return r.pegs, r.colors, r.repeat_limit  # --max-repeat 4 of 4 pegs is no limit at all

        if key(self.rules) != key(rules) or not self.plays_rule(rules.feedback):
            own = f" (--feedback {self.rule_here()}, the same file)" if self.rules.feedback_kind == RULE_FILE else ""
            raise BadInput(f"--strategy {name} plays {self.rules.describe()}, not {rules.describe()}: "
                           f"give the tree's rules options{own}")
        if rules.lies:
            raise BadInput(f"--strategy {name} plays the answers of a game without lies; "
                           f"{rules.naming.rules_field('lies')} {rules.lies} does not apply to a saved tree")
        self.check_rule_digest(rules.feedback, f"--strategy {name}")

    def played_under(self, rules: Rules, name: str) -> StrategyTree:
        """The tree as ``rules`` play it, refused as :meth:`check_rules` refuses: a tree of a rule of your own
        has its nodes read with the rule of ``rules`` (the command's ``--feedback``, the same file)."""
        self.check_rules(rules, name)
        return self if self.root is not None else self._read(rules.feedback)

    def read_with(self, feedback: str | None, encoding: Path | None = None) -> StrategyTree:
        """The tree with its nodes read, for ``mmlogic tree FILE [--feedback RULE] [--encoding FILE]``:
        ``feedback`` (the command's ``--feedback``, None when not given) must be the tree's rule (the same file
        with the same digest, checked before its nodes are read), and is needed where that is a file of your own,
        which only the command line loads; ``encoding`` must be the edited encoding the tree was saved for (by its
        digest), and is needed where it has one (its codes are the game's secrets). Refused in one line
        otherwise."""
        own = " (the same file)" if self.rules.feedback_kind == RULE_FILE else ""
        if feedback is None:
            if self.root is None:
                raise BadInput(f"{self.source} plays {self.rules.describe()}, a rule of your own that only --feedback "
                               f"loads: give --feedback {self.rule_here()}{own}")
            read = self
        elif not self.plays_rule(feedback):
            raise BadInput(f"{self.source} plays {self.rules.describe()}, not --feedback {feedback}: "
                           f"give --feedback {self.rule_here()}{own}")
        else:
            self.check_rule_digest(feedback, str(self.source))
            read = self if self.root is not None else self._read(feedback)
        read._check_encoding(encoding)
        return read

    def _check_encoding(self, encoding: Path | None) -> None:
        """Refuse (one line) to sum up a tree of an edited encoding without that encoding (its codes are the
        secrets the figures count), or with another one or one edited since; and an encoding for a tree of the
        rules' own codes."""
        saved = (self.variant or {}).get("encoding")
        if encoding is None:
            if saved is not None:
                raise BadInput(f"{self.source} was saved for {_described({'encoding': saved})}, whose codes are its "
                               f"secrets: give --encoding {from_here(saved['file'])} (the same file)")
            return
        from ..feedback.variant import variant_of

        found = variant_of(self.rules, encoding) or {}
        if (saved or {}).get("sha256") != found.get("encoding", {}).get("sha256"):
            raise BadInput(f"{self.source} was saved for {_described(self.variant)}, not for {_described(found)}")

    def plays_rule(self, feedback: str) -> bool:
        """Whether a command's ``feedback`` names the tree's rule: the same built-in rule, or the same file of your
        own as the one the tree records (:meth:`rule_paths`), whatever name the command gives it. Nothing is
        loaded; the file's digest is :meth:`check_rule_digest`'s."""
        if self.rules.feedback_kind != RULE_FILE or feedback in FEEDBACK_RULES:
            return same_rule(self.rules.feedback, feedback)
        return any(same_rule(str(path), feedback) for path in self.rule_paths())

    def rule_paths(self) -> list[Path]:
        """Where the tree's rule file of your own is: the absolute path its ``variant`` records; a path recorded
        relative (as trees saved before did, as given on their command line) is looked for from the current
        folder and, where the tree records the rule's digest (which then tells the file apart), from the tree
        file's folder too."""
        recorded = (self.variant or {}).get("feedback")
        path = Path(recorded["file"] if recorded is not None else self.rules.feedback)
        if path.is_absolute() or recorded is None or self.source is None:
            return [path]
        return [path, self.source.parent / path]

    def rule_here(self) -> str:
        """The tree's rule as a command run in the current folder names it with ``--feedback`` (for advice): a
        built-in rule's name; a file of your own (:meth:`rule_paths`, the first that is there) by a path that
        works from here."""
        if self.rules.feedback_kind != RULE_FILE:
            return self.rules.feedback
        paths = self.rule_paths()
        return from_here(next((path for path in paths if path.is_file()), paths[0]))

    def check_rule_digest(self, feedback: str, said: str) -> None:
        """Refuse (one line, ``said`` first) a rule file of your own whose sha256 is not the one the tree records:
        edited since it was saved, or another file that a path recorded relative led to. Nothing is loaded. A
        built-in rule, or a tree saved before trees recorded their rule's digest, passes (its path alone tells)."""
        recorded = (self.variant or {}).get("feedback")
        if recorded is None or feedback in FEEDBACK_RULES:
            return
        from ..feedback.variant import variant_of

        found = variant_of(replace(self.rules, feedback=feedback, lies=0), None)["feedback"]
        if found["sha256"] != recorded["sha256"]:
            raise BadInput(f"{said} was saved for {_described({'feedback': recorded})}, "
                           f"not for {_described({'feedback': found})}")

    def _read(self, feedback: str) -> StrategyTree:
        """The tree with its unread nodes read under the rule file ``feedback`` (checked to be the tree's own), the
        rules naming it as the command does (its rule is loaded once, by that name)."""
        rules = replace(self.rules, feedback=feedback)
        try:
            root = _read_node(self.unread, rules, [])
        except BadInput as error:
            raise BadInput(f"{self.source}: {error}") from None
        return replace(self, rules=rules, root=root, unread=None)

    def check_variant(self, variant: dict | None, name: str) -> None:
        """Refuse to play the tree in another variant than its own (another edited encoding or rule file, or
        one edited since: their digests differ; the files' names may)."""
        def digests(v: dict | None) -> dict:
            return {key: part["sha256"] for key, part in (v or {}).items()}

        if digests(self.variant) != digests(variant):
            raise BadInput(f"--strategy {name} was saved for {_described(self.variant)}, not for {_described(variant)}")

    # -- walking it ----------------------------------------------------------------------
    def follow(self, history: list[Entry], name: str) -> TreeNode:
        """The node the history leads to; a history that leaves the tree is one line."""
        node = self.root
        for number, (guess, fb) in enumerate(history, 1):
            if tuple(guess) != node.guess:
                raise BadInput(f"--strategy {name}: history entry {number} ({format_code(guess, self.rules)}) "
                               f"is not the tree's guess ({format_code(node.guess, self.rules)})")
            if fb not in node.children:
                raise BadInput(f"--strategy {name} has no branch for history entry {number} "
                               f"({format_entry((guess, fb), self.rules)}): the tree does not cover this history")
            node = node.children[fb]
        return node

    def nodes(self) -> Iterator[TreeNode]:
        """Every node, parents before children."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(node.children.values())

    def visits(self, max_depth: int | None = None, secrets: np.ndarray | None = None) -> Iterator[Visit]:
        """Walk the tree over every secret of the game, parents first, children in feedback order.

        At each node the secrets that reach it are split by the feedback they
        give its guess, exactly as a game would: the figures of the walk are
        those of playing every secret. ``secrets``: the game's, as indices into
        the rules' codes, where they are not every code (an edited encoding's,
        :func:`~mm_logic.studies.written_game.encoding_secrets`). Below
        ``max_depth`` a node is met as ``cut`` and its subtree is not walked.
        """
        space = code_space(self.rules)
        rule = rule_of(self.rules)
        win = rule.win_index(self.rules.pegs)
        pegs = self.rules.pegs
        stack: list[tuple[TreeNode, np.ndarray, int, int | None, Feedback | None]] = [
            (self.root, np.arange(space.size) if secrets is None else np.asarray(secrets, dtype=np.int64), 1, None,
             None)]
        number = 0
        while stack:
            node, secrets, depth, parent, fb = stack.pop()
            if max_depth is not None and depth > max_depth:
                yield Visit(node, depth, int(secrets.size), False, parent, fb, cut=True)
                number += 1
                continue
            marks = space.feedback_to(node.guess, secrets)
            wins = bool((marks == win).any())
            below = []
            for child_fb in sorted(node.children):
                group = secrets[marks == rule.index(child_fb, pegs)]
                if group.size:  # a branch no secret takes is never played
                    below.append((node.children[child_fb], group, depth + 1, number, child_fb))
            missing = int(secrets.size) - wins - sum(int(b[1].size) for b in below)
            yield Visit(node, depth, int(secrets.size), wins, parent, fb, missing)
            number += 1
            stack.extend(reversed(below))

    def figures(self, secrets: np.ndarray | None = None) -> TreeFigures:
        """Games, guesses, histogram and nodes of playing every secret with the tree (``secrets``: the game's,
        where not every code, as :meth:`visits` takes them)."""
        histogram: Counter = Counter()
        nodes = missing = 0
        for visit in self.visits(secrets=secrets):
            nodes += 1
            missing += visit.missing
            if visit.wins:
                histogram[visit.depth] += 1
        return TreeFigures(self, histogram, nodes, missing)


def _described(variant: dict | None) -> str:
    """A variant in a message: ``encoding palindrome.lp (sha256 3f2a9c01b4d2)``, ``the rules' own game``."""
    if not variant:
        return "the rules' own game"
    return " and ".join(f"{key} {part['file']} (sha256 {part['sha256'][:12]})" for key, part in variant.items())


def same_rule(mine: str, theirs: str) -> bool:
    """Whether two ``feedback`` values name the same rule: the same built-in rule, or the same file of your own (by
    path, each resolved from the current folder as ``--feedback`` is; a file that is not there is no rule). Nothing
    is loaded.

    >>> same_rule("standard", "standard"), same_rule("standard", "black"), same_rule("rule.py", "standard")
    (True, False, False)
    """
    if mine in FEEDBACK_RULES or theirs in FEEDBACK_RULES:
        return mine == theirs
    try:
        return os.path.samefile(mine, theirs)
    except OSError:  # not there, or not readable: not the command's file
        return False


def node_object(node: TreeNode, rules: Rules) -> dict:
    """A (sub)tree as the file writes it: ``{"guess": CODE, "next": {FEEDBACK: node, ...}}``."""
    out: dict = {"guess": format_code(node.guess, rules)}
    if node.children:
        out["next"] = {format_feedback(fb, rules): node_object(node.children[fb], rules)
                       for fb in sorted(node.children)}
    return out


def read_node(data, rules: Rules) -> TreeNode:
    """A (sub)tree from the object :func:`node_object` writes; anything wrong is one :class:`BadInput` line."""
    return _read_node(data, rules, [])


def _read_node(data, rules: Rules, path: list[str]) -> TreeNode:
    """A node of the file (``path``: the feedbacks leading to it, for messages)."""
    where = f" (at {' '.join(path)})" if path else " (at the root)"
    if not isinstance(data, dict) or not isinstance(data.get("guess"), str):
        raise BadInput(f'a node must be {{"guess": CODE, "next": {{...}}}}{where}')
    try:
        guess = parse_code(data["guess"], rules, check_repeat=False)
    except BadInput as error:
        raise BadInput(f"{error}{where}") from None
    node = TreeNode(guess)
    below = data.get("next", {})
    if not isinstance(below, dict):
        raise BadInput(f'"next" must map feedbacks B,W to nodes{where}')
    for key, child in below.items():
        step = f"{data['guess']}:{key}"
        fb = parse_feedback(key, rules, where=step)
        if fb == rule_of(rules).win(rules.pegs):
            raise BadInput(f"the winning feedback {key} has no branch{where}")
        node.children[fb] = _read_node(child, rules, [*path, step])
    return node


@dataclass
class TreeFigures(HistogramFigures):
    """What ``mmlogic tree`` prints: the tree's bench over every secret (games, total, mean, worst:
    :class:`~mm_logic.histogram.HistogramFigures`), and its size."""

    tree: StrategyTree
    histogram: Counter
    #: Nodes reached by some secret (one guess each).
    nodes: int
    #: Secrets the tree has no branch for (0 for a complete tree).
    uncovered: int

    def as_dict(self) -> dict:
        """The ``tree --json`` object (figures named as in ``bench --json``)."""
        tree = self.tree
        return {
            "rules": tree.rules.as_dict(), "strategy": tree.strategy, "seed": tree.seed, "backend": tree.backend,
            **({"variant": tree.variant} if tree.variant else {}),  # only a variant's, as in its file
            "opening": format_code(tree.root.guess, tree.rules),
            **self.histogram_figures(),
            "nodes": self.nodes, "uncovered": self.uncovered,
        }

    def text(self) -> str:
        """The human summary of ``mmlogic tree``."""
        tree = self.tree
        made = ", ".join(part for part in (f"seed {tree.seed}" if tree.seed is not None else "",
                                           f"backend {tree.backend}" if tree.backend else "") if part)
        histogram = format_histogram(self.histogram)
        lines = [f"rules      {tree.rules.describe()}",
                 *([f"variant    {_described(tree.variant)}"] if tree.variant else []),
                 f"strategy   {tree.strategy}" + (f" ({made})" if made else ""),
                 f"opening    {format_code(tree.root.guess, tree.rules)}",
                 f"games      {self.games}",
                 f"total      {self.total}",
                 f"mean       {self.mean:.3f}",
                 f"max        {self.worst}",
                 f"histogram  {histogram}",
                 f"nodes      {self.nodes}"]
        if self.uncovered:
            lines.append(f"uncovered  {plural(self.uncovered, 'secret')} (the tree has no branch for their "
                         "feedback)")
        return "\n".join(lines)


# -- playing it ----------------------------------------------------------------------------
class TreeStrategy(Strategy):
    """Plays a saved tree: the guess at the node the history leads to (``--strategy tree:FILE``).

    It asks the engine nothing, so every backend plays the same games; a
    history the tree does not have is refused in one line.
    """

    name = "tree:FILE"
    summary = "plays a tree saved by bench --all --save-tree FILE; opens with its root"

    def __init__(self, rules: Rules, tree: StrategyTree, name: str | None = None, **options):
        super().__init__(rules, None, **options)
        self.name = name or f"{PREFIX}{tree.source}"
        self.tree = tree = tree.played_under(rules, self.name)
        if self.first_guess is not None and self.first_guess != tree.root.guess:
            raise BadInput(f"--first-guess {format_code(self.first_guess, rules)}: --strategy {self.name} "
                           f"opens with {format_code(tree.root.guess, rules)}")
        # A tree saved from a probing strategy (human1..3) repeats colours under --no-repeat:
        # `next` then accepts its guesses.
        self.probes = rules.restricted and any(
            max(Counter(node.guess).values()) > rules.repeat_limit for node in tree.nodes())

    def opening(self, session) -> Code:
        return self.tree.root.guess

    def choose(self, session) -> Code:
        return self.tree.follow(session.history, self.name).guess


# -- drawing it ----------------------------------------------------------------------------------
def to_dot(tree: StrategyTree, max_depth: int | None = None, secrets: np.ndarray | None = None) -> str:
    """The tree in Graphviz's DOT language, drawn like the published pictures of Knuth's tree.

    A box per guess (with the number of secrets still possible where more
    than one), an edge per feedback labelled ``B,W``; a guess that wins for
    one secret there has a double border, and a filled one ends every game
    that reaches it. Below ``max_depth`` guesses a subtree is one dashed box
    with its number of secrets. ``secrets``: the game's, where not every code
    (:meth:`StrategyTree.visits`).
    """
    rules = tree.rules
    title = _escaped(f"{tree.strategy} {rules.describe()}")
    lines = [f'digraph "{title}" {{',
             "  graph [rankdir=LR, nodesep=0.08, ranksep=0.6];",
             '  node [shape=box, fontname="Helvetica", fontsize=11, margin="0.06,0.03", height=0.3];',
             '  edge [fontname="Helvetica", fontsize=9, arrowsize=0.5];']
    for number, visit in enumerate(tree.visits(max_depth, secrets)):
        code = _escaped(format_code(visit.node.guess, rules))
        if visit.cut:
            attributes = f'label="{_codes(visit.secrets)}", style=dashed'
        elif not visit.node.children and visit.wins and visit.secrets == 1:
            attributes = f'label="{code}", peripheries=2, style=filled, fillcolor="#dcefdc"'
        else:
            attributes = f'label="{code}\\n{_codes(visit.secrets)}"' + (", peripheries=2" if visit.wins else "")
        lines.append(f"  n{number} [{attributes}];")
        if visit.parent is not None:
            lines.append(f'  n{visit.parent} -> n{number} [label="{format_feedback(visit.feedback, rules)}"];')
        if visit.missing:
            lines.append(f'  n{number}m [label="{_codes(visit.missing)}: no branch", color=red, fontcolor=red];')
            lines.append(f"  n{number} -> n{number}m [color=red];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _escaped(text: str) -> str:
    """``text`` inside a DOT string (an alphabet may have quotes or backslashes)."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _codes(n: int) -> str:
    return f"{n} code" if n == 1 else f"{n} codes"


def check_graphviz() -> str:
    """The path of Graphviz's ``dot`` program; one line (exit 2) when it is not installed."""
    program = shutil.which("dot")
    if program is None:
        raise BackendUnavailable("--png needs Graphviz's dot program on PATH (apt-get install graphviz, "
                                 "brew install graphviz); --dot prints the DOT text without it")
    return program


def write_png(dot: str, path: Path) -> None:
    """Draw DOT text into a PNG file with Graphviz's ``dot``, whole or not at all."""
    program = check_graphviz()
    path = target_of(path)  # a link is written through, and stays
    temporary = _temporary_name(path)
    try:
        done = subprocess.run([program, "-Tpng", "-o", str(temporary)], input=dot, text=True,
                              capture_output=True)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
            raise MMLogicError(f"dot could not draw the tree: {last}")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


# -- files ------------------------------------------------------------------------------------
def _temporary_name(path: Path) -> Path:
    # Beside the target, so that the final rename stays on one file system.
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file renamed over it.

    Ctrl-C or a full disk leaves the old file (or none), never half of the new one. A link
    is written through: its target is replaced, the link stays.
    """
    path = target_of(path)
    temporary = _temporary_name(path)
    try:
        with temporary.open("w") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
