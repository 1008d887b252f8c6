"""Can every code of Mastermind PxC be found within D guesses? An exhaustive check written apart from the package.

A finished experiment (the check of ``mmlogic optimal --objective worst-case``), kept runnable: it uses
nothing of ``mm_logic``'s game logic (no feedback function, no code list, no search of its own); only
:mod:`mm_logic.support.scripting` for the arguments and the one-line errors. Its figures are in the report of
branch ``worst-check`` (5x6 and 4x8 within 5 guesses: impossible).

The game: P pegs, C colours, repetition allowed, the C^P codes; the feedback of (guess, secret) is
``black`` = pegs equal, ``white`` = sum over colours of min(count in guess, count in secret) - black.
Found means guessed: the winning guess (black = P) counts.

Method (exact; the only shortcuts are the sound ones listed):

* The whole feedback table, every guess against every secret, as a uint8 matrix
  (``black * (P + 1) + white``), computed with vectorised numpy in row chunks.
* ``within(S, d)``: can every code of the set S be found within d more guesses?
  ``|S| == 0``: yes; ``d == 0``: no (S is not empty); ``|S| == 1``: yes (guess it).
  Capacity: d guesses tell apart at most ``cap(d) = 1 + k + k^2 + ... + k^(d-1)`` codes, ``k`` the
  number of non-winning feedbacks that exist (the pairs b + w <= P, less (P, 0), the win, and
  (P-1, 1), which cannot occur), since a guess wins on one code and splits the others into at most k
  parts, each left with d - 1 guesses; so ``|S| > cap(d)``: no.
  Otherwise: yes iff some guess g, ANY of the C^P codes (not only those of S), leaves every
  non-winning part ``S_f = {s in S : fb(g, s) = f}`` with ``within(S_f, d - 1)`` (the code g itself, if
  it is in S, is found by g). Every guess is tried; a guess with a part larger than ``cap(d - 1)`` fails
  at once (the capacity bound again); the parts of the others are tried from the largest down and the
  guess fails at the first part that fails. ``d == 2`` and ``d == 3`` are the same rule in compiled
  loops (numba): at ``d == 2`` a guess works iff no two codes of S share a non-winning feedback;
  at ``d == 3`` the parts larger than ``cap(2)`` reject a guess before any recursion.
  Nothing is memoised.
* The root: the first guess o; the opening works within D iff every non-winning part of all codes
  under o is ``within(part, D - 1)``. Renaming the colours (a permutation of the C colours applied to
  every peg) and permuting the positions (the same permutation of the P pegs in every code) map codes
  to codes one to one and keep the feedback of every pair: black counts equal pegs, which both maps
  keep, and the colour counts of a code are only permuted, so sum of min is kept. So a strategy after
  opening o is carried to one after the image of o with the same number of guesses on every secret,
  and o matters only through the multiset of its colour counts, a partition of P into at most C parts:
  one representative per partition is tried (e.g. 5x6: 00000 00001 00011 00012 00112 00123 01234).
  Symmetry is used there and nowhere else.
* An opening that works is checked once more: the strategy is built (at every node the first guess
  whose parts all pass) and played against every secret, the feedback computed anew from the codes,
  not read from the table.

Usage::

    .venv/bin/python py/experiments/worst_case_check.py --pegs 5 --colors 6 --depth 5
    .venv/bin/python py/experiments/worst_case_check.py --pegs 5 --colors 6 --depth 6 --opening 00123

Prints one line per opening (the first part that cannot be solved within D - 1 more guesses: its
feedback, size and the seconds taken; or that every part can, and the most guesses the strategy
built took on any secret), then the final line
``no strategy within D guesses: proved`` or ``a strategy within D guesses exists (opening X)``;
with ``--opening``, the final line is about that opening alone
(``no strategy within D guesses after opening X``). Progress on stderr. Exit 0; bad arguments 2,
Ctrl-C 130.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

import numpy as np
from numba import njit

from mm_logic.support.errors import BadInput
from mm_logic.support.scripting import count, run

#: The largest game whose table (codes^2 bytes) is built: 16,384 codes, 268 MB.
MAX_CODES = 16_384


# -- the game -------------------------------------------------------------------------------------------
def all_codes(pegs: int, colors: int) -> np.ndarray:
    """Every code, one row each, in the order of the base-C numbers (the first peg most significant)."""
    return np.array(list(itertools.product(range(colors), repeat=pegs)), dtype=np.int8).reshape(-1, pegs)


def feedback_table(codes: np.ndarray, colors: int, chunk: int = 256) -> np.ndarray:
    """``table[g, s] = black * (P + 1) + white`` for every guess g and secret s (uint8)."""
    n, pegs = codes.shape
    counts = np.stack([(codes == c).sum(axis=1) for c in range(colors)], axis=1).astype(np.int16)
    table = np.empty((n, n), dtype=np.uint8)
    for start in range(0, n, chunk):
        rows = slice(start, min(start + chunk, n))
        black = (codes[rows, None, :] == codes[None, :, :]).sum(axis=2)
        common = np.minimum(counts[rows, None, :], counts[None, :, :]).sum(axis=2)
        table[rows] = black * (pegs + 1) + (common - black)
    return table


def scalar_feedback(guess: tuple[int, ...], secret: tuple[int, ...]) -> tuple[int, int]:
    """(black, white) of one pair, as the rules say (the check of a strategy found, apart from the table)."""
    black = sum(g == s for g, s in zip(guess, secret))
    common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    return black, common - black


def non_winning_feedbacks(pegs: int) -> int:
    """k: the (black, white) pairs with black + white <= P, less (P, 0) (the win) and (P-1, 1) (impossible)."""
    return sum(1 for b in range(pegs + 1) for w in range(pegs + 1 - b) if (b, w) not in ((pegs, 0), (pegs - 1, 1)))


def capacities(pegs: int, depth: int) -> list[int]:
    """``cap[d]`` = 1 + k + ... + k^(d-1): the most codes d guesses can tell apart (cap[0] = 0)."""
    k = non_winning_feedbacks(pegs)
    caps = [0]
    for _ in range(depth):
        caps.append(1 + k * caps[-1])
    return caps


def partitions(total: int, most: int, largest: int | None = None):
    """The partitions of ``total`` into at most ``most`` parts, largest part first, the largest first."""
    largest = total if largest is None else largest
    if total == 0:
        yield ()
        return
    if most == 0:
        return
    for first in range(min(total, largest), 0, -1):
        for rest in partitions(total - first, most - 1, first):
            yield (first, *rest)


def opening_representatives(pegs: int, colors: int) -> list[tuple[int, ...]]:
    """One code per partition of P into at most C parts: colour i repeated (i-th part) times."""
    return [tuple(i for i, part in enumerate(parts) for _ in range(part)) for parts in partitions(pegs, colors)]


def code_text(code) -> str:
    return "".join(str(int(c)) for c in code)


def code_index(code, colors: int) -> int:
    index = 0
    for c in code:
        index = index * colors + int(c)
    return index


# -- the compiled levels: within 2 and within 3 guesses --------------------------------------------------
@njit
def _within2(table, members, win, stamp):
    """Some guess leaves no two codes of ``members`` with the same non-winning feedback (|members| >= 2).

    ``stamp``: scratch of one entry per feedback, any values below 0 on entry."""
    n_guesses = table.shape[0]
    for f in range(stamp.shape[0]):
        stamp[f] = -1
    for g in range(n_guesses):
        row = table[g]
        ok = True
        for i in range(members.shape[0]):
            f = row[members[i]]
            if f != win:
                if stamp[f] == g:
                    ok = False
                    break
                stamp[f] = g
        if ok:
            return True
    return False


@njit
def _within3(table, members, win, cap2, n_feedbacks):
    """Some guess leaves every non-winning part of ``members`` solvable within 2 guesses (|members| >= 2)."""
    n_guesses = table.shape[0]
    sizes = np.zeros(n_feedbacks, dtype=np.int64)
    stamp = np.full(n_feedbacks, -1, dtype=np.int64)
    part = np.empty(members.shape[0], dtype=np.int64)
    for g in range(n_guesses):
        row = table[g]
        sizes[:] = 0
        ok = True
        for i in range(members.shape[0]):
            f = row[members[i]]
            if f != win:
                sizes[f] += 1
                if sizes[f] > cap2:
                    ok = False
                    break
        if not ok:
            continue
        # The parts of two codes or more, the largest first; the guess fails at the first part that fails.
        order = np.argsort(-sizes, kind="mergesort")
        for j in range(n_feedbacks):
            f = order[j]
            if sizes[f] < 2:
                break
            m = 0
            for i in range(members.shape[0]):
                if row[members[i]] == f:
                    part[m] = members[i]
                    m += 1
            if not _within2(table, part[:m], win, stamp):
                ok = False
                break
        if ok:
            return True
    return False


# -- the search ---------------------------------------------------------------------------------------
class Checker:
    """``within(S, d)`` on one game's feedback table; ``progress`` on stderr every few seconds."""

    def __init__(self, pegs: int, colors: int, depth: int):
        self.pegs, self.colors = pegs, colors
        self.codes = all_codes(pegs, colors)
        self.table = feedback_table(self.codes, colors)
        self.n_feedbacks = (pegs + 1) ** 2
        self.win = pegs * (pegs + 1)
        self.cap = capacities(pegs, max(depth, 3))
        self.where = ""
        self.last_report = time.monotonic()
        # The compiled levels compiled now, before the search: numba swallows a Ctrl-C while it compiles.
        pair = np.arange(min(2, len(self.codes)), dtype=np.int64)
        _within2(self.table, pair, self.win, np.full(self.n_feedbacks, -1, np.int64))
        _within3(self.table, pair, self.win, self.cap[2], self.n_feedbacks)

    def feedback_text(self, f: int) -> str:
        return f"{f // (self.pegs + 1)}B{f % (self.pegs + 1)}W"

    def parts(self, guess: int, members: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """The non-winning parts of ``members`` under ``guess``: (feedback, codes), the largest first."""
        row = self.table[guess, members]
        found = [(int(f), members[row == f]) for f in np.unique(row) if f != self.win]
        return sorted(found, key=lambda item: -len(item[1]))

    def within(self, members: np.ndarray, depth: int, top: bool = False) -> bool:
        n = len(members)
        if n == 0:
            return True
        if depth == 0:
            return False
        if n == 1:
            return True
        if n > self.cap[depth]:
            return False
        if depth == 2:
            return bool(_within2(self.table, members, self.win, np.full(self.n_feedbacks, -1, np.int64)))
        if depth == 3:
            return bool(_within3(self.table, members, self.win, self.cap[2], self.n_feedbacks))
        n_guesses = self.table.shape[0]
        candidates = self.candidates(members, depth)
        for tried, guess in enumerate(candidates):
            if top:
                self.report(f"guess {tried + 1}/{len(candidates)} ({n_guesses - len(candidates)} of "
                            f"{n_guesses} rejected by capacity)")
            if all(self.within(part, depth - 1) for _, part in self.parts(int(guess), members)):
                return True
        return False

    def candidates(self, members: np.ndarray, depth: int) -> np.ndarray:
        """The guesses whose non-winning parts of ``members`` all hold cap(depth - 1) codes or fewer, the
        most even first (an order only: every one of them is tried before the answer is no)."""
        n_guesses = self.table.shape[0]
        sub = self.table[:, members].astype(np.int64)
        sub += (np.arange(n_guesses, dtype=np.int64) * self.n_feedbacks)[:, None]
        sizes = np.bincount(sub.ravel(), minlength=n_guesses * self.n_feedbacks).reshape(n_guesses, -1)
        sizes[:, self.win] = 0
        largest = sizes.max(axis=1)
        candidates = np.flatnonzero(largest <= self.cap[depth - 1])
        return candidates[np.argsort(largest[candidates], kind="stable")]

    def strategy(self, members: np.ndarray, depth: int) -> tuple[int, dict]:
        """A strategy that finds every code of ``members`` within ``depth`` guesses, which within() said
        exists: (guess, {feedback: the strategy for its part})."""
        if len(members) == 1:
            return int(members[0]), {}
        for guess in self.candidates(members, depth):
            parts = self.parts(int(guess), members)
            if all(self.within(part, depth - 1) for _, part in parts):
                return int(guess), {f: self.strategy(part, depth - 1) for f, part in parts}
        raise AssertionError("within() said yes, and no guess works")

    def verify(self, opening: tuple[int, ...], depth: int) -> int:
        """Build the strategy after ``opening`` and play it against every secret, the feedback computed anew
        from the codes (not the table); the most guesses a secret took (AssertionError if one is not found
        within ``depth``)."""
        everything = np.arange(len(self.codes), dtype=np.int64)
        first = code_index(opening, self.colors)
        tree = (first, {f: self.strategy(part, depth - 1) for f, part in self.parts(first, everything)})
        codes = [tuple(code) for code in self.codes.tolist()]
        most = 0
        for secret in codes:
            node, guesses = tree, 0
            while True:
                guess, children = node
                guesses += 1
                black, white = scalar_feedback(codes[guess], secret)
                if black == self.pegs:
                    break
                node = children[black * (self.pegs + 1) + white]
            assert guesses <= depth, (secret, guesses)
            most = max(most, guesses)
        return most

    def report(self, what: str, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self.last_report >= 5:
            print(f"{self.where}: {what}", file=sys.stderr, flush=True)
            self.last_report = now

    def opening(self, code: tuple[int, ...], depth: int) -> tuple[int, int] | None:
        """The first non-winning part under ``code`` (largest first) not solvable within depth - 1: (feedback,
        size); None if every part is."""
        everything = np.arange(len(self.codes), dtype=np.int64)
        for f, part in self.parts(code_index(code, self.colors), everything):
            self.where = f"opening {code_text(code)}, part {self.feedback_text(f)} ({len(part)} codes)"
            self.report(f"within {depth - 1} guesses?", force=True)
            if not self.within(part, depth - 1, top=True):
                return f, len(part)
        return None


# -- the command ---------------------------------------------------------------------------------------
def parse_opening(text: str, pegs: int, colors: int) -> tuple[int, ...]:
    if len(text) != pegs or not all(ch.isdigit() and int(ch) < colors for ch in text):
        raise BadInput(f"--opening {text!r} is not a code of {pegs} digits from 0 to {colors - 1}")
    return tuple(int(ch) for ch in text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pegs", type=count, required=True)
    parser.add_argument("--colors", type=count, required=True)
    parser.add_argument("--depth", type=count, required=True, help="the number of guesses D, the winning one counted")
    parser.add_argument("--opening", help="check this first guess alone (a code such as 00123)")
    args = parser.parse_args()
    pegs, colors, depth = args.pegs, args.colors, args.depth
    if colors > 10:
        raise BadInput(f"--colors must be at most 10 (a code is written one digit a peg), got {colors}")
    if colors ** pegs > MAX_CODES:
        raise BadInput(f"{pegs}x{colors} has {colors ** pegs:,} codes; the table is built for at most "
                       f"{MAX_CODES:,}")
    openings = ([parse_opening(args.opening, pegs, colors)] if args.opening is not None
                else opening_representatives(pegs, colors))
    started = time.monotonic()
    checker = Checker(pegs, colors, depth)
    print(f"{pegs}x{colors}: {len(checker.codes):,} codes, feedback table in {time.monotonic() - started:.1f} s; "
          f"within {depth} guesses? (k = {non_winning_feedbacks(pegs)} non-winning feedbacks)", flush=True)
    working = None
    for code in openings:
        begun = time.monotonic()
        failed = checker.opening(code, depth)
        seconds = time.monotonic() - begun
        if failed is None:
            begun = time.monotonic()
            most = checker.verify(code, depth)
            print(f"opening {code_text(code)}: every part solvable within {depth - 1} more guesses "
                  f"({seconds:.1f} s); the strategy built, played against all {len(checker.codes):,} secrets: "
                  f"at most {most} guesses ({time.monotonic() - begun:.1f} s)", flush=True)
            working = working or code
        else:
            f, size = failed
            print(f"opening {code_text(code)}: part {checker.feedback_text(f)} ({size:,} codes) not solvable "
                  f"within {depth - 1} more guesses ({seconds:.1f} s)", flush=True)
    if working is not None:
        print(f"a strategy within {depth} guesses exists (opening {code_text(working)})")
    elif args.opening is not None:
        print(f"no strategy within {depth} guesses after opening {args.opening}")
    else:
        print(f"no strategy within {depth} guesses: proved")
    return 0


if __name__ == "__main__":
    run(main)
