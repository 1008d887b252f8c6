"""Marks that are none of the positional rule's, refused in one line (issue 56).

``check_feedback`` asks the rule why a feedback cannot occur, then writes it: the positional rule wrote a mark
list with a value other than 0, 1 or 2 by indexing ``-ox`` (``(3, 1, 2)``: IndexError), and took one of the
right length (``(3, 1, 2, 0)``) as an answer. The rule now refuses any value that is no mark, and writes such a
list as its numbers. The readers of text (history entries, the server's ``{"marks": ...}``) make marks only; a
list of the wrong length from them is one line too (exit 2, HTTP 400), which these tests keep so.

A rule of one's own (``--feedback FILE.py``) checks its numbers the same way: as many as the rule tells.
"""

from __future__ import annotations

import numpy as np
import pytest

from mm_logic.engines import make_engine
from mm_logic.feedback import custom
from mm_logic.game import Game
from mm_logic.notation import check_feedback
from mm_logic.rules import Rules, make_rules
from mm_logic.strategies import make_strategy
from mm_logic.support.errors import BadInput

from conftest import mmlogic

POSITIONAL = make_rules(feedback="positional")
NOT_A_MARK = "not a mark (0 for -, 1 for o, 2 for x)"


@pytest.mark.parametrize("fb, said", [
    ((3, 1, 2), f"feedback (3, 1, 2) holds 3, {NOT_A_MARK}"),
    ((3, 1, 2, 0), f"feedback (3, 1, 2, 0) holds 3, {NOT_A_MARK}"),
    ((2, 2, 2, -1), f"feedback (2, 2, 2, -1) holds -1, {NOT_A_MARK}"),
    ((2, 2, 1.5, 0), f"feedback (2, 2, 1.5, 0) holds 1.5, {NOT_A_MARK}"),
    ((2, "x", 0, 0), f"feedback (2, 'x', 0, 0) holds 'x', {NOT_A_MARK}"),
    ((2, 0, 1), "feedback x-o has 3 marks, expected one per peg (4)"),
    ((2, 0, 1, 0, 0), "feedback x-o-- has 5 marks, expected one per peg (4)"),
])
def test_a_mark_list_that_is_no_answer_is_one_line(fb, said):
    with pytest.raises(BadInput) as raised:
        check_feedback(fb, POSITIONAL)
    assert str(raised.value) == said


def test_marks_of_numpy_integers_are_marks():
    assert check_feedback(tuple(np.array([2, 0, 1, 0], dtype=np.uint8)), POSITIONAL) == (2, 0, 1, 0)


def test_a_game_refuses_such_an_answer_and_keeps_its_history():
    game = Game(make_engine("python", POSITIONAL), make_strategy("first", POSITIONAL))
    game.record((0, 0, 1, 1), (2, 0, 1, 0))
    with pytest.raises(BadInput) as raised:
        game.record((2, 2, 3, 3), (3, 1, 2))
    assert str(raised.value) == f"feedback (3, 1, 2) holds 3, {NOT_A_MARK}"
    assert game.history == [((0, 0, 1, 1), (2, 0, 1, 0))]


@pytest.mark.parametrize("entry, said", [
    ("0011:x-o", "feedback x-o in '0011:x-o' has 3 marks, expected one per peg (4)"),
    ("0011:x-o-x", "feedback x-o-x in '0011:x-o-x' has 5 marks, expected one per peg (4)"),
    ("0011:3120", "feedback '3120' in '0011:3120' is not of the form one mark per peg, x o or - (e.g. x-o-)"),
])
def test_a_history_entry_of_the_wrong_marks_is_one_line(entry, said):
    done = mmlogic("next", "--backend", "python", "--strategy", "first", "--feedback", "positional", entry)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: {said}\n")


@pytest.mark.parametrize("marks, said", [
    ("x-o", "feedback x-o has 3 marks, expected one per peg (4)"),
    ("x-o-x", "feedback x-o-x has 5 marks, expected one per peg (4)"),
    ("3120", "feedback '3120' is not of the form one mark per peg, x o or - (e.g. x-o-)"),
    (["x", "-", "o", "-"], 'marks must be a string, e.g. "x-o-"'),
])
def test_a_codemakers_answer_of_the_wrong_marks_is_a_400(client, marks, said):
    game = client.post("/api/games", json={"rules": {"feedback": "positional"}, "role": "codemaker",
                                           "backend": "python", "strategy": "first"}).json()
    answered = client.post(f"/api/games/{game['id']}/feedback", json={"marks": marks})
    assert (answered.status_code, answered.json()) == (400, {"error": said})
    assert client.get(f"/api/games/{game['id']}").json()["history"] == []


# -- a rule of one's own: as many numbers as it tells -----------------------------------------------------------
@pytest.fixture
def shared(tmp_path):
    path = tmp_path / "shared.py"
    path.write_text("from collections import Counter\n\n\ndef score(guess, secret):\n"
                    "    return (sum((Counter(guess) & Counter(secret)).values()),)\n")
    return make_rules(feedback=str(path))


@pytest.mark.parametrize("fb, said", [
    ((1, 2), "feedback 1,2 has 2 numbers; the rule tells one"),
    ((), "feedback  has 0 numbers; the rule tells one"),
    ((1.5,), "feedback 1.5 holds 1.5, not a whole number"),
    ((5,), "feedback 5 exceeds the 4 pegs"),
])
def test_numbers_that_are_no_answer_of_ones_own_rule_are_one_line(shared, fb, said):
    with pytest.raises(custom.BadInput) as raised:
        check_feedback(fb, shared)
    assert str(raised.value) == said


@pytest.mark.parametrize(("feedback", "rules", "message"), [
    ((1,), Rules(4, 6), "feedback 1 is not two whole numbers (black, white)"),
    ((1, 2, 0), Rules(4, 6), "feedback 1,2,0 is not two whole numbers (black, white)"),
    ((True, 0), Rules(4, 6), "feedback True,0 is not two whole numbers (black, white)"),
    ((1, 2), Rules(4, 6, feedback="black"), "feedback 1,2 is not one whole number (black)"),
])
def test_the_other_rules_refuse_a_program_s_value_of_another_form(feedback, rules, message):
    with pytest.raises(BadInput) as error:
        check_feedback(feedback, rules)
    assert str(error.value) == message
