"""``mmlogic info``'s bounds (issue 16): seed 000's, the feedbacks', the openings' partitions', and the
optimal values known; every bound below the optimum and below what the strategies play."""

from __future__ import annotations

import pytest

from mm_logic.engines import make_engine
from mm_logic.rules import Rules
from mm_logic.studies.info import Optimum, fill_levels, partition_bound, study

from conftest import PY

KOYAMA_LAI = "Koyama & Lai, An optimal Mastermind strategy, J. Recreational Mathematics 25(4), 1993"


@pytest.mark.parametrize("codes, branching, first_depth, expected", [
    (1, 13, 1, (1, 1)),
    (14, 13, 1, (2, 27)),            # 1 + 13 codes: 1x1 + 13x2
    (15, 13, 1, (3, 30)),
    (1296, 13, 1, (4, 4986)),        # 1, 13, 169, then 1113 at the 4th guess
    (256, 13, 2, (5, 1082)),         # below an opening: 1 at guess 2, 13 at 3, 169 at 4, 73 at 5
    (5040, 13, 1, (5, 22622)),
])
def test_fill_levels_places_codes_at_the_shallowest_guesses(codes, branching, first_depth, expected):
    assert fill_levels(codes, branching, first_depth) == expected


def test_4x6_bounds_and_the_published_optima(run_json):
    bounds = run_json("info", *PY)["bounds"]
    assert bounds == {
        "seed000": {"worst_case": 3},
        "feedbacks": {"worst_case": 4, "total_guesses": 4986, "mean": 3.847},
        "partitions": {"worst_case": 5, "total_guesses": 5196, "mean": 4.009, "max_parts": 14, "openings": 5},
        "optimal": [
            {"measure": "worst_case", "value": 5, "max_guesses": None, "status": "published",
             "source": "Knuth, The computer as master mind, J. Recreational Mathematics 9(1), 1976"},
            {"measure": "total_guesses", "value": 5625, "mean": 4.34, "max_guesses": None, "status": "published",
             "source": KOYAMA_LAI},
            {"measure": "total_guesses", "value": 5626, "mean": 4.341, "max_guesses": 5, "status": "published",
             "source": KOYAMA_LAI},
        ],
    }


def test_bulls_and_cows_bounds_and_the_published_optima(run_json):
    bounds = run_json("info", *PY, "--colors", 10, "--no-repeat")["bounds"]
    assert bounds["feedbacks"] == {"worst_case": 5, "total_guesses": 22622, "mean": 4.488}
    assert bounds["partitions"] == {"worst_case": 5, "total_guesses": 23440, "mean": 4.651, "max_parts": 14,
                                    "openings": 1}
    assert [(o["measure"], o["value"], o["status"]) for o in bounds["optimal"]] == [
        ("worst_case", 7, "published"), ("total_guesses", 26274, "published")]


@pytest.mark.parametrize("rules", [Rules(4, 6), Rules(4, 10, 1)])
def test_no_bound_exceeds_the_published_optimum(rules):
    found = study(make_engine("python", rules))
    optimum = {o.measure: o.value for o in found.optima if o.max_guesses is None}
    for bound in (found.feedback_bound, found.partitions):
        assert bound.worst_case <= optimum["worst_case"] and bound.total_guesses <= optimum["total_guesses"]
    assert found.seed_bound <= optimum["worst_case"]


@pytest.mark.parametrize("pegs, colors, max_repeat", [(2, 2, None), (2, 3, None), (3, 2, None), (3, 3, None),
                                                       (2, 4, None), (3, 4, 1), (4, 4, None), (4, 5, 1)])
def test_the_bounds_hold_for_every_strategy(run_json, pegs, colors, max_repeat):
    rules = ["--pegs", pegs, "--colors", colors, *(["--max-repeat", max_repeat] if max_repeat else [])]
    bounds = run_json("info", *PY, *rules)["bounds"]
    for strategy in ("first", "minimax", "expected", "entropy", "parts"):
        played = run_json("bench", *PY, *rules, "--strategy", strategy, "--all")
        for name in ("feedbacks", "partitions"):
            assert bounds[name]["total_guesses"] <= played["total_guesses"], (name, strategy)
            assert bounds[name]["worst_case"] <= played["max"], (name, strategy)


@pytest.mark.parametrize("rules, worst, total", [(Rules(2, 3), 3, 21), (Rules(3, 2), 3, 18), (Rules(2, 2), 3, 8)])
def test_the_partition_bound_is_attained_on_small_games(run_json, rules, worst, total):
    # expected plays exactly the bound there, which makes it the optimum.
    bound = partition_bound(rules)
    assert (bound.worst_case, bound.total_guesses) == (worst, total)
    played = run_json("bench", *PY, "--pegs", rules.pegs, "--colors", rules.colors, "--strategy", "expected", "--all")
    assert (played["max"], played["total_guesses"]) == (worst, total)


def test_computed_optima_are_listed_after_the_published_ones():
    computed = Optimum("total_guesses", 21, "computed", "mmlogic optimal")
    found = study(make_engine("python", Rules(2, 3)), computed=(computed,))
    assert found.as_dict()["bounds"]["optimal"] == [
        {"measure": "total_guesses", "value": 21, "mean": 2.333, "max_guesses": None, "status": "computed",
         "source": "mmlogic optimal"}]
    assert "  optimal (computed)          21 (2.333)     mmlogic optimal" in found.text().splitlines()


def test_huge_games_have_the_feedback_bounds_only(run_json):
    out = run_json("info", "--backend", "clingo", "--pegs", 16)
    assert out["bounds"] == {"seed000": {"worst_case": 6},
                             "feedbacks": {"worst_case": 7, "total_guesses": 19668216434421, "mean": 6.972},
                             "partitions": None, "optimal": []}


@pytest.mark.parametrize("own", [None, 7.0])
def test_the_feedback_questions_stop_at_their_budget(monkeypatch, own):
    # 20x30 without repetition asked its 231 questions for over 100 s: a feedback that cannot occur
    # takes clingo long to prove so. Past the budget the set is not computed (null), at once.
    import time

    import mm_logic.studies.info as info
    monkeypatch.setattr(info, "FEEDBACK_SECONDS", 0.5)
    engine = make_engine("clingo", Rules(20, 30, max_repeat=1), time_limit=own)
    start = time.monotonic()
    assert info.possible_feedbacks(engine) is None
    assert time.monotonic() - start < 5 and engine.time_limit == own  # the engine's own limit is back
    # Within the budget the set is exact: 4x6 has 14 of the 15 pairs (not 3,1). The shipped budget: half a
    # second is not always enough for 14 questions on a loaded machine, and this part is not about time.
    monkeypatch.undo()
    assert len(info.possible_feedbacks(make_engine("clingo", Rules(4, 6), time_limit=own))) == 14


def test_one_is_singular(run):
    # It said "1 guesses", "1 feedbacks", "1 classes", and play "1 pegs".
    text = run("info", "--pegs", 1, "--colors", 1, *PY).stdout
    assert "worst case needs >=    1 guess\n" in text
    assert "  1 feedback: 1, 0, 0^2... codes found at guess 1, 2, 3...\n" in text
    assert "at most 1 class a guess\n" in text
    assert run("play", "--pegs", 1, "--colors", 2, *PY, input="q\n").stdout.startswith(
        "Find the code of 1 peg over 01 (1x2).")


def test_huge_counts_are_printed_as_mantissa_and_exponent_and_stay_exact_in_json(run, run_json):
    # 64x255 printed 155-digit numbers, which made the table 250 columns wide.
    lines = run("info", "--backend", "clingo", "--pegs", 64, "--colors", 255).stdout.splitlines()
    assert lines[1] == "codes                  about 1.044e+154"
    assert lines[7] == ("  feedbacks            >= 48  >= about 4.993e+155 (47.838)  2144 feedbacks: 1, 2143, "
                        "2143^2... codes found at guess 1, 2, 3...")
    out = run_json("info", "--backend", "clingo", "--pegs", 64, "--colors", 255)
    assert out["codes"] == 255**64
    lines = run("info", "--backend", "clingo", "--pegs", 16).stdout.splitlines()
    assert lines[1] == "codes                  2,821,109,907,456"


def test_info_text_has_the_bounds_table(run):
    result = run("info", *PY)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[3:9] == [
        "worst case needs >=    5 guesses (the partitions bound below)",
        "bounds on the best strategy (guessing valid codes):",
        "                       worst  total (mean)      how",
        "  seed 000's bound     >= 3                     ceil(log N / log F), F = 14: every pair but 3,1",
        "  feedbacks            >= 4   >= 4,986 (3.847)  14 feedbacks: 1, 13, 13^2... codes found at guess 1, 2, 3...",
        "  partitions           >= 5   >= 5,196 (4.009)  the best opening's partition (of 5 canonical), "
        "at most 14 classes a guess",
    ]
    assert result.stdout.splitlines()[10] == f"  optimal (published)         5,625 (4.340)     {KOYAMA_LAI}"


def test_a_small_space_without_published_optima_gets_them_computed(run, run_json):
    # docs: info lists what `mmlogic optimal` proves on spaces of at most 1,000 codes (4x4: 905 guesses)
    lines = run("info", *PY, "--pegs", 4, "--colors", 4).stdout.splitlines()
    assert lines[-2:] == ["  optimal (computed)   4                      mmlogic optimal --objective worst",
                          "  optimal (computed)          905 (3.535)     mmlogic optimal"]
    optima = run_json("info", *PY, "--pegs", 4, "--colors", 4)["bounds"]["optimal"]
    assert optima == [
        {"measure": "worst_case", "value": 4, "max_guesses": None, "status": "computed",
         "source": "mmlogic optimal --objective worst"},
        {"measure": "total_guesses", "value": 905, "mean": 3.535, "max_guesses": None, "status": "computed",
         "source": "mmlogic optimal"}]
    # 4x6 has its published values only; 5x5 (3,125 codes) is too large to search here
    assert {o["status"] for o in run_json("info", *PY)["bounds"]["optimal"]} == {"published"}
    assert run_json("info", *PY, "--pegs", 5, "--colors", 5)["bounds"]["optimal"] == []


@pytest.mark.parametrize("feedback", ["black", "positional"])
def test_info_under_another_feedback_rule_lists_what_occurs_and_bounds_below_the_optimum(run_json, feedback):
    from itertools import product

    from mm_logic.feedback import rule_of

    from generators import brute_score
    rules = Rules(3, 4, feedback=feedback)
    rule = rule_of(rules)
    out = run_json("info", "--backend", "python", "--pegs", 3, "--colors", 4, "--feedback", feedback)
    codes = list(product(range(4), repeat=3))
    occurring = {brute_score(rules, g, s) for g in codes for s in codes}
    assert out["feedback_list"] == [rule.write(fb) for fb in sorted(occurring, key=lambda fb: rule.index(fb, 3))]
    assert out["naive_feedbacks"] == {"black": 4, "positional": 27}[feedback]
    assert out["rules"] == {"pegs": 3, "colors": 4, "max_repeat": None, "feedback": feedback}
    # No published optimum is the standard game's here; the computed ones are mmlogic optimal's own.
    optima = {(o["measure"], o["max_guesses"]): o["value"] for o in out["bounds"]["optimal"]}
    assert all(o["status"] == "computed" for o in out["bounds"]["optimal"])
    partitions = out["bounds"]["partitions"]
    assert partitions["worst_case"] <= optima["worst_case", None]
    assert partitions["total_guesses"] <= optima["total_guesses", None]
