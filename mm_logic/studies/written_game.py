"""The game as an edited encoding writes it, for the studies that search over every code (``optimal``, ...).

The secrets of an edited encoding are the codes it admits, listed by its own engine (clingo for a
``.lp`` file, SWI-Prolog for a ``.pl`` file); the guesses are every code of the rules' space, as the
strategies play an edited encoding (minimax opens 0012 on palindromes); a guess that is a secret may win,
and the win is always told (docs/cli.md, "Edited encodings in every command").
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..codemaker import secret_indices
from ..codespace import MAX_CODES
from ..engines import BACKENDS, engine_class, make_engine
from ..feedback import rule_of
from ..feedback.encoded import digest_files, file_sources
from ..notation import amount
from ..rules import RULE_FILE, Rules
from ..support.errors import BadInput, NoConsistentCode


def variant_of(rules: Rules, encoding: Path | None) -> dict | None:
    """The variant a strategy tree records (:attr:`mm_logic.strategies.tree.StrategyTree.variant`): the edited
    encoding and the rule of one's own (a ``--feedback`` file), each as ``{"file": its name as given, "sha256":
    a digest of its bytes and, for a ``.lp`` file, of the files it includes}``; None for the rules' own game."""
    found = {}
    rule_file = Path(rules.feedback) if rules.feedback_kind == RULE_FILE else None
    # A rule written once is its own encoding too (an engine plays --feedback FILE.lp as its encoding).
    if encoding is not None and (rule_file is None or Path(encoding).resolve() != rule_file.resolve()):
        found["encoding"] = _file_digest(Path(encoding))
    if rule_file is not None:
        found["feedback"] = _file_digest(rule_file)
    return found or None


def _file_digest(path: Path) -> dict:
    digest = hashlib.sha256()
    digest_files(digest, file_sources(path), strict=True)  # the files it reads, as a derived table's cache key
    return {"file": str(path), "sha256": digest.hexdigest()}


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
    # The bench's secrets of the engine's game (codemaker.secret_indices), where they are not every code.
    return np.asarray(secret_indices(engine), dtype=np.int64) if engine.edited else None


def encoding_secrets(rules: Rules, encoding: Path | None, time_limit: float | None = None) -> np.ndarray | None:
    """The codes ``encoding`` admits, by its own engine: indices into the rules' codes (lexicographic order),
    increasing; None without an encoding (every code is a secret). Refused in one line: a space the studies
    cannot list, an encoding that admits no code."""
    own = rule_of(rules).admitted_codes()  # a rule stated in an encoding that narrows the code space
    if encoding is None:
        return own
    if rules.size > MAX_CODES:
        raise BadInput(f"{rules.describe()} has {amount(rules.size)} codes, more than an edited encoding's codes "
                       f"are listed for ({MAX_CODES:,})")
    # The codes alone: the encoding's engine lists them under the standard rule (the code space is the
    # encoding's, whatever rule answers the guesses).
    engine = make_engine(backend_of(encoding), replace(rules.truthful, feedback="standard"), encoding=encoding,
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
