"""The clingo engine: the ASP encodings in ``mm_logic/encodings/*.lp`` answer the questions."""

from __future__ import annotations

from pathlib import Path

from ...feedback import rule_of
from ...support.resources import encoding_path
from ..base import Engine
from .diagnose import fewest_wrong
from .program import Program
from .session import ClingoSession

#: The shipped entry file, used unless the engine is given ``encoding``.
ENTRY = "mastermind.lp"


class ClingoEngine(Engine):
    """Answer consistency questions with clingo (ASP) and the shipped or a user's encoding."""

    name = "clingo"
    suffix = ".lp"

    def __init__(self, rules, **options):
        super().__init__(rules, **options)
        self.entry_file = Path(self.encoding) if self.encoding else encoding_path(ENTRY)
        self.program = Program(self.entry_file, rules, self.time_limit, watched=bool(self.encoding),
                               shipped=not self.encoding)

    @property
    def source(self) -> str:
        return str(self.entry_file)

    @property
    def warnings(self) -> list[str]:
        """clingo's warnings about the encoding (not shown to the user)."""
        return self.program.warnings

    def _new_session(self) -> ClingoSession:
        return ClingoSession(self)

    def fewest_wrong(self, history):
        """As the base class says, by the encoding's ``#minimize`` (``diagnose.lp``) in one solve; by
        dropping entries, as every engine can, under an edited encoding without that part or a feedback
        rule of the user's own (whose told/3 constraints the user's encoding states, not relaxed there)."""
        if not rule_of(self.rules).diagnosed:
            return super().fewest_wrong(history)
        found = fewest_wrong(self.program, list(history), self.time_limit)
        return super().fewest_wrong(history) if found is None else found
