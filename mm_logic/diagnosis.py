"""Which answers of a contradictory history must be wrong, and what they should have been (``next --diagnose``).

Peer solvers' users most often meet "no possible solutions" after a typo in one
feedback. A diagnosis names the fewest entries that must be wrong (a minimum:
the engine proves that no fewer will do, :meth:`~mm_logic.engines.base.Engine.fewest_wrong`),
and, for each such set of entries, the feedbacks that make the history consistent:
those the codes consistent with the other entries give the set's guesses (the
game's feedback rule, :func:`mm_logic.feedback.score`). Every fix listed changes
every entry of its set: a code that kept one of them would need fewer changes.

>>> from mm_logic.engines.reference import ReferenceEngine
>>> from mm_logic.rules import Rules
>>> rules = Rules(4, 6)
>>> found = diagnose(ReferenceEngine(rules), [((0, 0, 1, 1), (0, 0)), ((0, 1, 2, 3), (4, 0))])
>>> found.text()
'1 entry must be wrong (no code fits them all): entry 1 0011:0,0 should be 0011:1,1; or entry 2 0123:4,0 should be \
0123:0,0, 0123:0,1, 0123:0,2, 0123:1,0, 0123:1,1 or 0123:2,0'
>>> found.as_dict()["sets"][0]
[{'entry': 1, 'feedback': '1,1'}]
"""

from __future__ import annotations

from dataclasses import dataclass

from .engines.base import Engine
from .feedback import rule_of, score
from .notation import Entry, Feedback, format_entry
from .rules import Rules

#: Most fixes a diagnosis lists (``--json``'s ``sets``); ``complete`` says whether there are more.
SETS_LISTED = 50
#: Most codes listed for one set of entries when its fixes are read from them (a huge game's history
#: of two entries may leave millions); ``complete`` is then false.
CODES_READ = 200_000


@dataclass
class Diagnosis:
    """The fewest entries that must be wrong and the fixes: each a tuple of ``(entry index from 0, feedback)``."""

    rules: Rules
    history: list[Entry]
    fewest: int
    fixes: list[tuple[tuple[int, Feedback], ...]]
    #: Whether ``fixes`` lists every fix (not cut at :data:`SETS_LISTED`, nor read from part of the codes).
    complete: bool = True

    def as_dict(self) -> dict:
        """``next --diagnose --json``'s object (``docs/cli.md``): entries numbered from 1."""
        write = rule_of(self.rules).write
        return {"fewest_wrong": self.fewest, "complete": self.complete,
                "sets": [[{"entry": i + 1, "feedback": write(fb)} for i, fb in fix] for fix in self.fixes]}

    def text(self, noun: str = "entry") -> str:
        """One line: how many entries must be wrong, then each set of them with what it should have been
        (``noun``: what an entry is called, ``answer`` in the terminal game)."""
        nouns = "entries" if noun == "entry" else f"{noun}s"
        if self.fewest == 0:
            return f"no {noun} is wrong: some code fits them all"
        groups: dict[tuple[int, ...], list[tuple[Feedback, ...]]] = {}
        for fix in self.fixes:
            groups.setdefault(tuple(i for i, _ in fix), []).append(tuple(fb for _, fb in fix))
        said = []
        for entries, feedbacks in groups.items():
            numbers = ", ".join(str(i + 1) for i in entries)
            given = ", ".join(format_entry(self.history[i], self.rules) for i in entries)
            ways = [", ".join(format_entry((self.history[i][0], fb), self.rules) for i, fb in zip(entries, fbs))
                    for fbs in feedbacks]
            if len(entries) > 1:  # each way a group of entries: in brackets
                given, ways = f"({given})", [f"({way})" for way in ways]
            should = ways[0] if len(ways) == 1 else f"{', '.join(ways[:-1])} or {ways[-1]}"
            said.append(f"{noun if len(entries) == 1 else nouns} {numbers} {given} should be {should}")
        more = "" if self.complete else f"; and more (--json lists up to {SETS_LISTED})"
        return (f"{self.fewest} {noun if self.fewest == 1 else nouns} must be wrong (no code fits them all): "
                + "; or ".join(said) + more)


def diagnose(engine: Engine, history: list[Entry], limit: int = SETS_LISTED) -> Diagnosis:
    """The fewest entries of ``history`` that must be wrong, and the fixes (at most ``limit``).

    Raises :class:`~mm_logic.support.errors.NoConsistentCode` when no code exists at
    all (an edited encoding that admits none): no entry is to blame.
    """
    rules = engine.rules
    rule = rule_of(rules)
    subsets = engine.fewest_wrong(history)
    if not subsets:
        raise engine.no_solution(history)
    fixes: list[tuple[tuple[int, Feedback], ...]] = []
    complete = True
    for subset in subsets:
        if not subset:
            break  # the history is consistent: nothing to fix
        rest = [entry for i, entry in enumerate(history) if i not in subset]
        codes = engine.enumerate(rest, CODES_READ)
        complete &= len(codes) < CODES_READ
        found = {tuple(score(rules, history[i][0], tuple(int(c) for c in code)) for i in subset) for code in codes}
        ordered = sorted(found, key=lambda fbs: [rule.index(fb, rules.pegs) for fb in fbs])
        fixes += [tuple(zip(subset, fbs)) for fbs in ordered]
    if len(fixes) > limit:
        fixes, complete = fixes[:limit], False
    return Diagnosis(rules, list(history), len(subsets[0]), fixes, complete)

