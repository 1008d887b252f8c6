"""The files a game of one's own is played from, named so that a saved tree, a journal or a sweep row can tell them
again: an edited encoding and a rule file, each by its absolute path and a digest of what it reads.

Here, beside the rules, not in the studies: a strategy tree (:mod:`mm_logic.strategies.tree`) checks the files it
was saved for, and the strategies are below the studies.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..rules import RULE_FILE, Rules
from .encoded import digest_files, file_sources


def variant_of(rules: Rules, encoding: Path | None) -> dict | None:
    """The variant a strategy tree records (:attr:`mm_logic.strategies.tree.StrategyTree.variant`): the edited
    encoding and the rule of one's own (a ``--feedback`` file), each as ``{"file": its absolute path, "sha256":
    a digest of its bytes and, for a ``.lp`` file, of the files it includes}``; None for the rules' own game.
    The path is absolute so that it names the file from any folder (a tree or a journal is read from others)."""
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
    return {"file": str(path.resolve()), "sha256": digest.hexdigest()}
