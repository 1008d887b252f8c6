"""Seed 000's human-like strategies 1, 2 and 3 (Maréchal and Rastoix's report).

They find the secret colour by colour, as a person does, with four criteria
(report, section 3.1; colours are tried in order 0, 1, 2, ...):

1. *How many pegs have colour c*: play the found pegs and ``c`` everywhere
   else; black minus the pegs already found is the count.
2. *Where each occurrence of c is*: play ``c`` at one untested position, the
   found pegs, and the next colour everywhere else; no white peg means ``c``
   is there (any other place for the occurrence would leave a white).
3. *The next colour's count comes for free*: in that probe, black + white −
   found − 1 is the number of pegs of the filling colour.
4. *Skip absent colours*: a filling colour counted 0 is replaced by the next.

Strategy 1 applies criteria 1–2 literally: it replays the counting probe even
when it equals the probe just played, as the report's worked example does
(12 attempts on the secret 1 3 2 1 5). Strategy 2 adds the report's "position
found" flags; the report's annex with its detailed pseudo-code is not in the
text we have, so this is our reading of "a flag saying whether a colour's
position was found", chosen to agree with the report's observations: the flag
tells that the probe which just placed the last occurrence *is* the next
colour's counting probe (its feedback is reused, one attempt saved per
colour present), but each occurrence's search starts again from the first
unflagged position, retesting places already ruled out for that colour: a
loss when colours repeat a lot (the report's 6 pegs x 4 colours, where
strategy 1 beats 2). Strategy 3 keeps strategy 1's search order and adds
criteria 3 and 4.

The probes repeat colours whatever the repetition rule: ``1111`` is how
criterion 1 asks its question, as in the report, where the same three
programs played the no-repeat rule set. Each strategy is a function of the
history: the plan is replayed on the feedback already received, so benches
can evaluate it as a tree, and a history this strategy did not play is
refused with the entry where it differs.
"""

from __future__ import annotations

from collections.abc import Generator

from ..notation import Code, Entry, Feedback, format_code
from ..support.errors import BadInput
from .base import Strategy

#: A plan yields guesses and is sent each guess's feedback.
Plan = Generator[Code, Feedback, None]


def counting_probe(found: list[int | None], colour: int) -> Code:
    """Criterion 1: the found pegs, ``colour`` everywhere else."""
    return tuple(colour if f is None else f for f in found)


def position_probe(found: list[int | None], colour: int, position: int, filler: int) -> Code:
    """Criterion 2: the found pegs, ``colour`` at ``position``, ``filler`` everywhere else."""
    return tuple(f if f is not None else colour if i == position else filler for i, f in enumerate(found))


class HumanStrategy(Strategy):
    """Common part: replaying the plan on a history."""

    feedback_rules = ("standard",)

    deterministic = True
    probes = True

    def __init__(self, rules, seed=None, **options):
        super().__init__(rules, seed, **options)
        # The plan of the game in progress, so a game costs one step per turn;
        # any other history (a tree walk's sibling) replays from the start.
        self._live: tuple[list[Entry], Plan, Code] | None = None

    def plan(self) -> Plan:
        """The strategy's guesses, each followed by the feedback it got."""
        raise NotImplementedError

    def choose(self, session) -> Code | None:
        try:
            return self._follow(session.history)
        except StopIteration:
            # The plan ran out of colours without a win: the feedback contradicts itself.
            self._live = None
            return None

    def _follow(self, history: list[Entry]) -> Code:
        if self._live is not None:
            played, plan, guess = self._live
            if len(history) == len(played) + 1 and history[:-1] == played and history[-1][0] == guess:
                guess = plan.send(history[-1][1])
                self._live = (list(history), plan, guess)
                return guess
        plan = self.plan()
        guess = next(plan)
        for number, (played, fb) in enumerate(history, 1):
            if played != guess:
                raise BadInput(
                    f"{self.rules.naming.option('strategy')} {self.name} plays its own sequence of probes: history "
                    f"entry {number} "
                    f"({format_code(played, self.rules)}) is not its guess ({format_code(guess, self.rules)})")
            guess = plan.send(fb)
        self._live = (list(history), plan, guess)
        return guess


class Human1(HumanStrategy):
    """Seed 000's strategy 1: criteria 1 and 2, as the report's worked example plays them."""

    name = "human1"
    summary = "seed 000's strategy 1: count each colour, then find each occurrence's place; opens 0000"

    def plan(self) -> Plan:
        pegs = self.rules.pegs
        found: list[int | None] = [None] * pegs
        for colour in range(self.rules.colors):
            black, _ = yield counting_probe(found, colour)
            count = black - (pegs - found.count(None))
            start = 0
            for _ in range(count):
                for position in range(start, pegs):
                    if found[position] is None:
                        _, white = yield position_probe(found, colour, position, colour + 1)
                        if white == 0:
                            found[position], start = colour, position + 1
                            break


class Human2(HumanStrategy):
    """Seed 000's strategy 2: strategy 1 with "position found" flags (our reading, see the module)."""

    name = "human2"
    summary = "seed 000's strategy 2: strategy 1 with position-found flags; opens 0000"

    def plan(self) -> Plan:
        pegs = self.rules.pegs
        found: list[int | None] = [None] * pegs
        last: tuple[Code, Feedback] | None = None
        for colour in range(self.rules.colors):
            guess = counting_probe(found, colour)
            # The flag just raised says the last probe was this counting probe.
            black, _ = last[1] if last is not None and last[0] == guess else (yield guess)
            count = black - (pegs - found.count(None))
            for _ in range(count):
                # Every occurrence's search starts at the first unflagged position.
                for position in range(pegs):
                    if found[position] is None:
                        guess = position_probe(found, colour, position, colour + 1)
                        fb = yield guess
                        last = (guess, fb)
                        if fb[1] == 0:
                            found[position] = colour
                            break


class Human3(HumanStrategy):
    """Seed 000's strategy 3: strategy 1 with criteria 3 (next colour counted) and 4 (absent colours skipped)."""

    name = "human3"
    summary = "seed 000's strategy 3: strategy 1 plus next colour counted, absent colours skipped; opens 0000"

    def plan(self) -> Plan:
        pegs, colors = self.rules.pegs, self.rules.colors
        found: list[int | None] = [None] * pegs
        counts: dict[int, int] = {}  # colours counted by criterion 3

        def filler_from(colour: int) -> int | None:
            # Criterion 4: the first colour from `colour` on not known to be absent.
            while colour < colors and counts.get(colour) == 0:
                colour += 1
            return colour if colour < colors else None

        for colour in range(colors):
            if colour in counts:
                count = counts[colour]
            else:
                black, _ = yield counting_probe(found, colour)
                count = black - (pegs - found.count(None))
            start = 0
            filler = filler_from(colour + 1)
            for _ in range(count):
                if filler is None:
                    # Every later colour is absent: the unfound pegs are all this colour.
                    yield counting_probe(found, colour)
                    return
                for position in range(start, pegs):
                    if found[position] is None:
                        black, white = yield position_probe(found, colour, position, filler)
                        # Criterion 3: found pegs + this colour + the filler's pegs.
                        counts[filler] = black + white - (pegs - found.count(None)) - 1
                        if counts[filler] == 0:
                            filler = filler_from(filler + 1)
                        if white == 0:
                            found[position], start = colour, position + 1
                            break
                        if filler is None:
                            break
