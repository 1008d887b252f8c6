"""The game as an edited encoding writes it, for the studies that search over every code (``optimal``, ...).

The secrets of an edited encoding are the codes it admits, listed by its own engine (clingo for a
``.lp`` file, SWI-Prolog for a ``.pl`` file); the guesses are every code of the rules' space, as the
strategies play an edited encoding (minimax opens 0012 on palindromes); a guess that is a secret may win,
and the win is always told (docs/cli.md, "Edited encodings in every command").
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from ..codespace import MAX_CODES
from ..engines import BACKENDS, engine_class, make_engine
from ..feedback import rule_of
from ..notation import amount
from ..rules import Rules
from ..secret_codes import secret_indices
from ..support.errors import BadInput, NoConsistentCode
from ..support.waiting import waiting


def backend_of(encoding: Path) -> str:
    """The engine that reads an encoding, by its suffix (``.lp``: clingo, ``.pl``: swipl)."""
    readers = {engine_class(name).suffix: name for name in BACKENDS if engine_class(name).suffix}
    try:
        return readers[encoding.suffix]
    except KeyError:
        raise BadInput(f"--encoding must be a {' or '.join(sorted(readers))} file, got {encoding}") from None


def engine_secrets(engine) -> np.ndarray | None:
    """The secrets of the game an engine plays: the codes its edited encoding admits (asked of it, an
    empty history's consistent codes), or those a rule stated in an encoding admits (``--feedback
    FILE.lp`` on the python engine); None: every code. Indices into the rules' codes, increasing."""
    # The bench's secrets of the engine's game (secret_codes.secret_indices), where they are not every code.
    return np.asarray(secret_indices(engine), dtype=np.int64) if engine.edited else None


def encoding_secrets(rules: Rules, encoding: Path | None, time_limit: float | None = None) -> np.ndarray | None:
    """The codes ``encoding`` admits, by its own engine: indices into the rules' codes (lexicographic order),
    increasing; None without an encoding (every code is a secret). Refused in one line: a space the studies
    cannot list, an encoding that admits no code. A listing that goes on is said on stderr while it lasts
    (``time_limit`` ends it; without one, Ctrl-C)."""
    own = rule_of(rules).admitted_codes()  # a rule stated in an encoding that narrows the code space
    if encoding is None:
        return own
    if rules.size > MAX_CODES:
        raise BadInput(f"{rules.describe()} has {amount(rules.size)} codes, more than an edited encoding's codes "
                       f"are listed for ({MAX_CODES:,})")
    # The codes alone: the encoding's engine lists them under the standard rule (the code space is the
    # encoding's, whatever rule answers the guesses).
    backend = backend_of(encoding)
    # Its engine may never answer (a program whose solving never ends, a clause that loops): said on stderr
    # while it lasts, whatever command lists them.
    with waiting(f"listing the codes {encoding} admits, by {backend}", time_limit):
        engine = make_engine(backend, replace(rules.truthful, feedback="standard"), encoding=encoding,
                             time_limit=time_limit)
        try:
            admitted = engine_secrets(engine)
        finally:
            engine.close()
    if own is not None:
        admitted = np.intersect1d(admitted, own)
        if admitted.size == 0:
            raise NoConsistentCode(f"{encoding} and {rules.feedback} admit no code of {rules.describe()} together")
    return admitted
