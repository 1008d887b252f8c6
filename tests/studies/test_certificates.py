"""The certificates of docs/results: every saved strategy tree plays every secret of its game to the total and
worst case the results pages quote (on the python engine; the pages give the clingo and swipl replays)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mm_logic.codespace import code_space
from mm_logic.feedback import rule_of
from mm_logic.notation import parse_code
from mm_logic.optimal.objectives import optimal
from mm_logic.rules import Rules
from mm_logic.strategies.tree import read_node

from conftest import ROOT

RESULTS = ROOT / "docs" / "results"

#: File, and what docs/results/optimal.md (feedback-rules.md for the black-peg tree) says it plays to.
QUOTED = {
    "4x9-optimal.json": (6561, 34666, 8),
    "4x9-worst-case.json": (6561, 35049, 7),
    "4x10-optimal.json": (10000, 55632, 8),
    "4x10-worst-case.json": (10000, 56424, 7),
    "5x6-optimal.json": (7776, 36721, 7),
    "5x6-worst-case.json": (7776, 37353, 6),
    "5x7-optimal.json": (16807, 85645, 7),
    "5x7-worst-case.json": (16807, 86779, 6),
    "hard-4x6-optimal.json": (1296, 5660, 6),
    "black-4x6-optimal.json": (1296, 8859, 9),
    "5x8-anytime.json": (32768, 178510, 8),
}


#: Strategies against every liar: trees of answers, checked by tests/studies/test_lies_within.py.
AGAINST_LIARS = {"lies-4x6-within-7.json"}


def test_every_certificate_is_quoted_here():
    assert {p.name for p in RESULTS.glob("*.json")} == set(QUOTED) | AGAINST_LIARS


@pytest.mark.parametrize("name", sorted(QUOTED))
def test_a_certificate_plays_every_secret_to_its_quoted_total(run_json, name):
    path = RESULTS / name
    rules = run_json("tree", path)["rules"]
    args = ["--pegs", rules["pegs"], "--colors", rules["colors"], "--feedback", rules["feedback"]]
    played = run_json("bench", "--backend", "python", "--strategy", f"tree:{path}", "--all", *args)
    assert (played["games"], played["total_guesses"], played["max"]) == QUOTED[name]


# -- the journals of the searches kept ---------------------------------------------------------
#: docs/results/journals: the journal of a search, which the same command resumes from (its first line names the
#: game): 4x10's and 5x7's, finished, hold every part and guess their searches settled, the other openings' bounds
#: among them; docs/results/optimal.md quotes what each settled.
JOURNALS = RESULTS / "journals"
#: Each journal's exact lines (each replayed below) and its lines in all, as docs/results/optimal.md says.
QUOTED_JOURNALS = {"4x10-expected.jsonl": (78, 935), "5x7-expected.jsonl": (187, 6012)}
#: Journals of searches under way, committed as they grow (issue 57), and what docs/results/optimal.md says they
#: hold already: (opening, feedback, depth) of the parts proved unable to finish within depth more guesses.
UNDER_WAY = {"5x8-worst-case.jsonl": {("00123", "0,2", 4), ("01234", "0,2", 4), ("00112", "0,1", 4)}}
#: Journals of finished ``optimal --anytime`` runs: the tree each rebuilds (None: not kept, the same command rebuilds
#: it), and its lines in all, its exact searches and its guesses chosen by look-ahead.
ANYTIME_JOURNALS = {"5x8-anytime-1000.jsonl": ("5x8-anytime.json", 319, 297, 17),
                    "5x8-anytime-400.jsonl": (None, 645, 608, 36)}


def cost_on_part(node, indices, space, rule) -> int:
    """The guesses a subtree takes in all over the codes ``indices`` (its first guess counted for each), played
    from the game's own feedback; a feedback with codes and no subtree fails."""
    if not indices.size:
        return 0
    pegs = space.rules.pegs
    found = space.feedback_to(node.guess, indices)
    total = int(indices.size)
    for index in np.unique(found):
        if index == rule.win_index(pegs):
            continue
        child = node.children.get(rule.from_index(int(index), pegs))
        assert child is not None, f"{node.guess}: no subtree for {rule.from_index(int(index), pegs)}"
        total += cost_on_part(child, indices[found == index], space, rule)
    return total


def checked_lines(path) -> tuple[int, int]:
    """Every exact line of a journal (a part's cost, or a guess's at a part) replayed: its subtree, played on its
    part's codes, takes exactly its value. Returns (exact lines, lines)."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    rules = Rules.from_dict(lines[0]["rules"])
    space, rule = code_space(rules), rule_of(rules)
    exact = 0
    for entry in lines[1:]:
        if "within" in entry or entry["value"] >= entry["budget"]:
            continue
        opening = parse_code(entry["opening"], rules)
        part = np.flatnonzero(space.feedback_to(opening, None) ==
                              rule.index(rule.read(entry["feedback"], rules.pegs), rules.pegs))
        tree = read_node(entry["tree"], rules)
        if "guess" in entry:
            assert tree.guess == parse_code(entry["guess"], rules)
        assert cost_on_part(tree, part, space, rule) == entry["value"], entry["opening"] + " " + entry["feedback"]
        exact += 1
    return exact, len(lines) - 1


def test_the_exact_lines_of_a_journal_are_checked_by_replay(tmp_path):
    # The check itself, on a journal of guesses and parts written here: every exact line replays to its value,
    # and a value one off is caught.
    journal = tmp_path / "4x4.jsonl"
    optimal(Rules(4, 4), jobs=2, journal=journal, split_above=40)
    exact, lines = checked_lines(journal)
    assert exact > 10 and lines > exact
    entries = journal.read_text().splitlines()
    first = next(i for i, line in enumerate(entries[1:], 1) if '"guess"' in line and '"tree": {' in line)
    wrong = json.loads(entries[first])
    wrong["value"] += 1
    entries[first] = json.dumps(wrong)
    journal.write_text("\n".join(entries) + "\n")
    with pytest.raises(AssertionError, match=f"^{wrong['opening']} {wrong['feedback']}"):
        checked_lines(journal)


def test_every_journal_is_quoted_here():
    assert {p.name for p in JOURNALS.glob("*")} == set(QUOTED_JOURNALS) | set(UNDER_WAY) | set(ANYTIME_JOURNALS)


def follow(node, entries: list[str], rules, space, rule):
    """The subtree a history of journal entries reaches, and the codes consistent with it."""
    part = np.arange(space.size)
    for entry in entries:
        guess, told = entry.split(":")
        assert node.guess == parse_code(guess, rules)
        index = rule.index(rule.read(told, rules.pegs), rules.pegs)
        part = part[space.feedback_to(node.guess, part) == index]
        node = node.children[rule.read(told, rules.pegs)]
    return node, part


@pytest.mark.parametrize("name", sorted(ANYTIME_JOURNALS))
def test_an_anytime_journal_says_what_its_tree_plays(name):
    # Every decision of the run is in the tree it wrote: the guess chosen by look-ahead at its history, and each
    # exact search's optimum, the cost of the subtree at its history over the codes consistent with it.
    tree_name, count, exact, chosen = ANYTIME_JOURNALS[name]
    lines = [json.loads(line) for line in (JOURNALS / name).read_text().splitlines()]
    rules = Rules.from_dict(lines[0]["rules"])
    assert lines[0]["kind"] == "mmlogic optimal --anytime" and name.startswith(f"{rules.pegs}x{rules.colors}-")
    decided = [e for e in lines[1:] if "optimum" in e]
    looked = [e for e in lines[1:] if "guess" in e]
    assert (len(lines), len(decided), len(looked)) == (count, exact, chosen)
    if tree_name is None:
        return
    space, rule = code_space(rules), rule_of(rules)
    root = read_node(json.loads((RESULTS / tree_name).read_text())["tree"], rules)
    for entry in looked:
        node, _ = follow(root, entry["at"], rules, space, rule)
        assert node.guess == parse_code(entry["guess"], rules)
    for entry in decided:
        node, part = follow(root, entry["at"], rules, space, rule)
        assert cost_on_part(node, part, space, rule) == entry["optimum"], entry["at"]


@pytest.mark.parametrize("name", sorted(UNDER_WAY))
def test_a_journal_under_way_is_a_worst_case_search_of_its_size(name):
    lines = [json.loads(line) for line in (JOURNALS / name).read_text().splitlines()]
    rules = Rules.from_dict(lines[0]["rules"])
    assert name == f"{rules.pegs}x{rules.colors}-worst-case.jsonl" and not lines[0]["consistent_only"]
    # A worst-case search writes whether each part can be finished within a depth, nothing else.
    assert all(isinstance(entry["within"], bool) and set(entry) >= {"opening", "feedback", "depth"}
               for entry in lines[1:])
    impossible = {(e["opening"], e["feedback"], e["depth"]) for e in lines[1:] if not e["within"]}
    assert UNDER_WAY[name] <= impossible


@pytest.mark.parametrize("name", sorted(QUOTED_JOURNALS))
def test_a_kept_journal_holds_what_it_says(name):
    path = JOURNALS / name
    header = json.loads(path.read_text().splitlines()[0])
    rules = Rules.from_dict(header["rules"])
    assert name == f"{rules.pegs}x{rules.colors}-expected.jsonl" and not header["consistent_only"]
    exact, lines = checked_lines(path)
    assert (exact, lines) == QUOTED_JOURNALS[name]
