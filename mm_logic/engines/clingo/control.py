"""The lifecycle of a session's Control: one step per history entry, released on pop.

``base`` (the code space) is grounded once per Control. Each pushed entry
adds its facts (``guess/3``, ``black/2``, ``white/2`` of a fresh step number
``t``) and grounds the encoding's ``step(t)`` part (and the feedback rule's own part,
:func:`~.program.rule_parts`), whose constraints are
guarded by the external atom ``active(t)``; popping releases that external,
which voids the step's constraints for good. A fresh Control grounded from
scratch for every question was 2.7 times slower on 5x8 no-repeat games (21
ms against 7.8 ms per game) and 5 times slower on 16x6 (0.22 s against
0.04 s).
"""

from __future__ import annotations

from clingo import Function, Number

from ...feedback import rule_of
from ...notation import Entry
from ...support.interrupts import interrupts_held
from .program import LIES_PART, Program, rule_parts

#: Released steps a Control may carry before it is rebuilt from the live history.
MAX_RELEASED_STEPS = 32




def ground_entry(program: Program, ctl, t: int, entry: Entry, active: bool | None = True) -> None:
    """Add entry ``t`` of the history to ``ctl``: its facts as a part of their own, grounded with the
    parts of step ``t`` under the game's feedback rule, and ``active(t)`` set (True: its constraints
    bind; None: free, the solver may switch the entry off, as a diagnosis asks)."""
    guess, fb = entry
    rules = program.rules
    facts = "".join(f"guess({t},{p},{c})." for p, c in enumerate(guess, 1))
    parts = rule_parts(rules)
    if rules.lies:  # lies.lp: the entry may be switched off, as one of the lies
        parts, active = (*parts, LIES_PART), None
        if tuple(fb) != rule_of(rules).win(rules.pegs):
            facts += f"missed({t})."
    part = f"mmlogic_entry_{t}"
    ctl.add(part, [], facts + rule_of(rules).asp_facts(t, fb))
    # Only the rule's parts: grounding every rule's part in every game made the standard game's clingo
    # rows 1.2 to 1.6 times slower (Knuth 4x6: 2.04 s against 1.26 s), the grounder working through a
    # rule's aggregates even with no facts of it.
    program.ground(ctl, [(part, []), *((name, [Number(t)]) for name in parts)])
    ctl.assign_external(Function("active", [Number(t)]), active)
    if rules.lies:
        ctl.assign_external(Function("live", [Number(t)]), True)


class StepControl:
    """A Control whose steps follow a history that grows and shrinks."""

    def __init__(self, program: Program):
        self.program = program
        self.rules = program.rules
        #: Controls built so far (one, plus one per rebuild).
        self.controls_built = 0
        self._next_step = 1
        self._start()
        lexicographic = Function("lexicographic")
        #: The external that switches on search.lp's lexicographic order; None if the encoding lacks it.
        self.lexicographic = lexicographic if lexicographic in self.ctl.symbolic_atoms else None
        #: Whether the encoding has search.lp's target(P,C) externals (aiming ``any``).
        self.has_targets = Function("target", [Number(1), Number(0)]) in self.ctl.symbolic_atoms

    def _start(self) -> None:
        self.release()
        self.ctl = self.program.control()
        self.controls_built += 1
        self._steps: list[int] = []  # step number of each live entry
        self._released = 0  # steps released in this Control
        self._targets: list[list[int]] | None = None

    def release(self) -> None:
        """Free the Control now, with Ctrl-C held: clingo's ``Control.__del__`` runs Python code, and
        a KeyboardInterrupt raised there is printed as ignored and lost (a bench then ran on)."""
        if getattr(self, "ctl", None) is not None:
            with interrupts_held():
                self.ctl = None

    def push(self, entry: Entry, history: list[Entry]) -> None:
        """Add ``entry``, the last of ``history``, as a new step."""
        # A strategy tree pushes and pops thousands of steps; released ones
        # stay in the Control and slow every later ground and solve (Knuth's
        # 4x6 tree: 17 s instead of 2 s). Past MAX_RELEASED_STEPS a new
        # Control is grounded from the live history. clingo's own idiom,
        # Control.cleanup() after each release (or every 8), simplifies what
        # the released externals made false but the grown program stays:
        # Knuth 4x6 --all 7.7 s against 1.4 s here, first 4x8 --all 69 s
        # against 4.0 s, 300 games of 5x8 no-repeat 1.9 s against 1.4 s.
        if self._released > MAX_RELEASED_STEPS:
            self._start()
            for earlier in history[:-1]:
                self._add_step(earlier)
        self._add_step(entry)

    def _add_step(self, entry: Entry) -> None:
        t = self._next_step
        self._next_step += 1
        ground_entry(self.program, self.ctl, t, entry)
        self._steps.append(t)

    def pop(self) -> None:
        """Release the last step: ``active(t)`` (and ``live(t)`` with lies) false for good, its constraints void."""
        t = self._steps.pop()
        self.ctl.release_external(Function("active", [Number(t)]))
        if self.rules.lies:
            self.ctl.release_external(Function("live", [Number(t)]))
        self._released += 1

    def target_literals(self) -> list[list[int]]:
        """Program literals of the ``target(P,C)`` externals, by peg and colour (looked up once per Control)."""
        if self._targets is None:
            atoms = self.ctl.symbolic_atoms
            self._targets = [[atoms[Function("target", [Number(p), Number(c)])].literal
                              for c in range(self.rules.colors)]
                             for p in range(1, self.rules.pegs + 1)]
        return self._targets
