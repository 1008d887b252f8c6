"""A question that runs out of Prolog's stack is one short line: the game too large for swipl (the shipped
encoding), or the edited encoding's recursion named (SWI-Prolog's own report is 700 characters of frames).

The whole case, ``solve --backend swipl --pegs 64 --colors 255``, takes a minute to fill the stack; here
Prolog's answer to the question is the one it gave there, handed to the engine as the bridge hands it.
"""

from __future__ import annotations

import pytest

from mm_logic.engines import make_engine
from mm_logic.rules import Rules
from mm_logic.support.errors import BadInput, EncodingError

from conftest import ROOT

#: SWI-Prolog's answer to question first on 64x255 (cut: its frames go on for 600 characters more).
OVERFLOW = ("Stack limit (1.0Gb) exceeded Stack sizes: local: 0.3Mb, global: 0.8Gb, trail: 47.7Mb Stack depth: "
            "3,037, last-call: 30%, Choice points: 71 Possible non-terminating recursion: [3,037] "
            "'$attvar':call_all_attr_uhooks(<compound att/3>, _23766994)")


@pytest.mark.parametrize("encoding, error, message", [
    (None, BadInput, "3x3 is too large for the swipl engine: question first ran out of Prolog's stack (1.0Gb); use "
                     "--backend clingo or python"),
    (ROOT / "examples" / "no_adjacent.pl", EncodingError,
     f"{ROOT / 'examples' / 'no_adjacent.pl'}:1: question first ran out of Prolog's stack (1.0Gb): a recursion "
     "that does not end, or a game too large for swipl"),
])
def test_a_question_out_of_stack_is_one_short_line(monkeypatch, encoding, error, message):
    engine = make_engine("swipl", Rules(3, 3), encoding=encoding)
    try:
        monkeypatch.setattr(engine._prolog, "ask", lambda *args: ("error", OVERFLOW))
        with pytest.raises(error) as told:
            engine.ask("first", [])
        assert str(told.value) == message
    finally:
        engine.close()
