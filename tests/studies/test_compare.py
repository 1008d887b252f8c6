"""mmlogic compare: the matrix, its JSON/CSV/charts, the agreement check, Ctrl-C."""

from __future__ import annotations

import json
import math
import re

import pytest

from mm_logic import engines
from mm_logic.engines.reference import ReferenceEngine, ReferenceSession

from conftest import ROOT


class LastFirstSession(ReferenceSession):
    """A broken engine: its 'first' is the largest consistent code."""

    def _first(self):
        alive = self.consistent_indices()
        return self.space.code(alive[-1]) if alive.size else None


class LastFirstEngine(ReferenceEngine):
    name = "lastfirst"

    def _new_session(self):
        return LastFirstSession(self)


def largest_first_attempts(secret, colors: int = 3) -> int:
    """Brute force: guesses taken by always playing the largest consistent code."""
    from itertools import product

    from mm_logic.feedback import feedback
    alive = list(product(range(colors), repeat=len(secret)))
    for attempt in range(1, len(alive) + 1):
        guess = alive[-1]
        if guess == secret:
            return attempt
        alive = [c for c in alive if feedback(guess, c) == feedback(guess, secret)]
    raise AssertionError("no win")


@pytest.fixture
def broken_backend(monkeypatch):
    monkeypatch.setitem(engines.BACKENDS, "lastfirst", "test_compare:LastFirstEngine")


def test_rows_and_agreement(run):
    result = run("compare", "--backend", "python", "--strategy", "first,minimax", "--all", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["disagreements"] == []
    rows = [(r["strategy"], r["games"], r["total_guesses"], r["max"]) for r in data["rows"]]
    assert rows == [("first", 1296, 7471, 9), ("minimax", 1296, 5801, 5)]
    assert list(data["rows"][0]) == ["rules", "backend", "strategy", "games", "total_guesses", "mean", "max",
                                     "histogram", "seconds", "ms_per_game", "min", "stdev", "ci95", "failed",
                                     "failure_rate"]
    assert data["rows"][1]["histogram"] == {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}
    # Knuth's 1296 games: sum (k - 5801/1296)^2 n_k / 1295 = 0.38247 (stdev 0.6184), t(0.975, 1295) = 1.96184.
    assert {k: data["rows"][1][k] for k in ("min", "stdev", "ci95", "failed", "failure_rate")} == {
        "min": 1, "stdev": 0.6184, "ci95": [4.4424, 4.5098], "failed": 0, "failure_rate": 0.0}


def test_disagreement_is_reported_and_exits_1(run, broken_backend):
    result = run("compare", "--pegs", 3, "--colors", 3, "--backend", "python,lastfirst",
                 "--strategy", "first", "--all", "--json")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and result.stderr.endswith(" disagreement(s) between backends\n")
    data = json.loads(result.stdout)
    # Secret 000 is the first guess of `first` (1 attempt); the broken engine opens with 222.
    assert data["disagreements"][0] == {"rules": {"pegs": 3, "colors": 3, "max_repeat": None, "feedback": "standard"},
                                        "strategy": "first", "secret": "000",
                                        "attempts": {"python": 1, "lastfirst": largest_first_attempts((0, 0, 0))}}
    n = int(result.stderr.split()[1])
    assert n == len(data["disagreements"])


def test_random_without_a_seed_plays_one_drawn_seed_on_every_backend(run):
    # Each backend drew its own seed: the random strategy played other games on each, reported as disagreements
    # (exit 1), in an example of compare --help.
    result = run("compare", "--pegs", 3, "--colors", 3, "--backend", "python,clingo", "--strategy", "random",
                 "--all", "--json")
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    data = json.loads(result.stdout)
    assert data["disagreements"] == [] and [r["backend"] for r in data["rows"]] == ["python", "clingo"]
    # The drawn seed is said: given back as --seed, it plays the same games.
    again = json.loads(run("compare", "--pegs", 3, "--colors", 3, "--backend", "python", "--strategy", "random",
                           "--all", "--json", "--seed", data["seed"]).stdout)
    assert (again["seed"], again["rows"][0]["histogram"]) == (data["seed"], data["rows"][0]["histogram"])


def test_any_strategy_is_not_checked_for_agreement(run, broken_backend):
    result = run("compare", "--pegs", 3, "--colors", 3, "--backend", "python,lastfirst",
                 "--strategy", "any", "--games", 20, "--seed", 1, "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["disagreements"] == []


def first_strategy_by_brute_force(pegs, colors):
    """Shapiro's strategy played game by game with a plain filter: the expected histogram."""
    from collections import Counter
    from itertools import product

    from mm_logic.feedback import feedback
    codes = list(product(range(colors), repeat=pegs))
    histogram = Counter()
    for secret in codes:
        alive, attempts = codes, 0
        while True:
            guess, attempts = alive[0], attempts + 1
            fb = feedback(guess, secret)
            if fb == (pegs, 0):
                break
            alive = [c for c in alive if feedback(guess, c) == fb]
        histogram[attempts] += 1
    return histogram


PALINDROME = ROOT / "examples" / "palindrome.lp"


def smallest_first_attempts(secret, colors: int = 6) -> int:
    """Brute force: guesses taken by always playing the smallest consistent code (the rules' game)."""
    from itertools import product

    from mm_logic.feedback import feedback
    alive = list(product(range(colors), repeat=len(secret)))
    for attempt in range(1, len(alive) + 1):
        guess = alive[0]
        if guess == secret:
            return attempt
        alive = [c for c in alive if feedback(guess, c) == feedback(guess, secret)]


def test_an_edited_encoding_is_compared_on_its_secrets_by_every_backend(run, run_json):
    # With --games the other backends drew secrets of their own and the agreement check failed on a
    # KeyError (internal failure); with --all they played all 1,296 codes against clingo's 36 and
    # were reported as 21 disagreements (exit 1).
    from itertools import product
    result = run("compare", "--backend", "clingo,python,a2", "--strategy", "first", "--all",
                 "--encoding", PALINDROME, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ("note: clingo plays the game of palindrome.lp; python, a2 play the rules' game, on "
                             "its secrets where clingo plays too, so no disagreement with clingo is checked\n")
    data = json.loads(result.stdout)
    palindromes = [c for c in product(range(6), repeat=4) if c == c[::-1]]
    by_hand = sum(smallest_first_attempts(secret) for secret in palindromes)
    edited = run_json("bench", "--strategy", "first", "--all", "--encoding", PALINDROME)["total_guesses"]
    assert [(r["backend"], r["games"], r["total_guesses"]) for r in data["rows"]] == [
        ("clingo", 36, edited), ("python", 36, by_hand), ("a2", 36, by_hand)]
    assert data["disagreements"] == []
    drawn = run("compare", "--backend", "clingo,python", "--strategy", "first", "--games", 5, "--seed", 1,
                "--encoding", PALINDROME, "--json")
    assert drawn.exit_code == 0, drawn.stderr
    # The secrets are drawn among the palindromes' indices (peg 1 most significant) with --seed's generator.
    import numpy as np
    indices = [sum(c * 6 ** (3 - p) for p, c in enumerate(code)) for code in palindromes]
    secrets = [tuple(int(i) // 6 ** (3 - p) % 6 for p in range(4))
               for i in np.random.default_rng(1).choice(indices, size=5)]
    python = json.loads(drawn.stdout)["rows"][1]
    assert (python["backend"], python["games"]) == ("python", 5)
    assert python["total_guesses"] == sum(smallest_first_attempts(secret) for secret in secrets)


def test_backends_playing_the_rules_game_beside_an_edited_encoding_are_still_checked(run, broken_backend):
    result = run("compare", "--pegs", 2, "--colors", 3, "--backend", "clingo,python,lastfirst", "--strategy",
                 "first", "--all", "--encoding", PALINDROME, "--json")
    assert result.exit_code == 1
    disagreements = json.loads(result.stdout)["disagreements"]
    assert {tuple(d["attempts"]) for d in disagreements} == {("python", "lastfirst")}  # clingo plays another game
    found = {(d["secret"], d["attempts"]["python"], d["attempts"]["lastfirst"]) for d in disagreements}
    palindromes = [(0, 0), (1, 1), (2, 2)]
    assert found == {(f"{a}{b}", smallest_first_attempts((a, b), 3), largest_first_attempts((a, b)))
                     for a, b in palindromes
                     if smallest_first_attempts((a, b), 3) != largest_first_attempts((a, b))}


def test_text_tables(run):
    result = run("compare", "--pegs", 3, "--colors", 3, "--backend", "python", "--strategy", "first", "--all")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "3x3 (27 codes)"
    assert lines[1].split() == ["backend", "strategy", "games", "failed", "mean", "+-95%", "stdev", "min", "max",
                                "ms/game", "seconds", "histogram"]
    expected = first_strategy_by_brute_force(3, 3)
    total = sum(k * v for k, v in expected.items())
    mean = total / 27
    stdev = math.sqrt(sum(v * (k - mean) ** 2 for k, v in expected.items()) / 26)
    cells = lines[2].split()
    # t(0.975, 26) = 2.05553 (Student's table: 2.056)
    assert cells[:9] == ["python", "first", "27", "0", f"{mean:.3f}", f"{2.055529 * stdev / math.sqrt(27):.3f}",
                         f"{stdev:.3f}", str(min(expected)), str(max(expected))]
    assert cells[11:] == [f"{k}:{v}" for k, v in sorted(expected.items())]


def test_columns_fit_the_longest_strategy_name(run):
    # sample-entropy:5 is longer than the strategy column's 9 characters: every column after it
    # starts at the same place in the heading and in every row.
    result = run("compare", "--pegs", 3, "--colors", 3, "--backend", "python", "--strategy",
                 "first,sample-entropy:5", "--all")
    assert result.exit_code == 0
    heading, *rows = result.stdout.splitlines()[1:4]
    # "  " + backend (8) + " " + strategy (16, the longest name) + " " + games (7, right-aligned)
    assert heading[:35] == "  backend  strategy           games"
    assert [row[35] for row in rows] == [" ", " "]
    assert [row[:35] for row in rows] == ["  python   first                 27",
                                          "  python   sample-entropy:5      27"]


def test_csv_and_plot(run, tmp_path):
    csv_file, charts = tmp_path / "rows.csv", tmp_path / "charts"
    result = run("compare", "--preset", "seed001", "--backend", "clingo", "--strategy", "first",
                 "--games", 5, "--seed", 1, "--csv", csv_file, "--plot", charts)
    assert result.exit_code == 0, result.stderr
    lines = csv_file.read_text().splitlines()
    assert lines[0] == ("pegs,colors,max_repeat,feedback,backend,strategy,games,total_guesses,mean,max,histogram,"
                        "seconds,ms_per_game,min,stdev,ci95_low,ci95_high,failed,failure_rate")  # no nodes, checks:
    # no engine here counts its search
    # The preset's rule sets, each once though several studies share it (4x8 no-repeat, 5x10 no-repeat).
    settings = ([(n, 2 * n, "1") for n in range(4, 9)] + [(5, p, "1") for p in range(5, 16) if p != 10]
                + [(4, 8, "2")])
    assert [line.split(",")[:7] for line in lines[1:]] == [
        [str(n), str(p), r, "standard", "clingo", "first", "5"] for n, p, r in settings]
    names = sorted(p.name for p in charts.iterdir())
    # The overall charts, then each study's: lines against pegs or colours, bars for the last.
    assert names == sorted([
        "mean_attempts.png", "max_attempts.png", "time_per_game.png", "csp-attempts.png", "csp-time.png",
        "genetic-attempts.png", "genetic-time.png", "alphabet-attempts.png", "alphabet-time.png",
        "two-occurrences-mean.png", "two-occurrences-max.png", "two-occurrences-time.png"])
    assert all((charts / n).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for n in names)


def test_csv_has_the_search_columns_when_an_engine_counts_its_search(run, tmp_path):
    csv_file = tmp_path / "rows.csv"
    result = run("compare", "--backend", "python,a2", "--strategy", "first", "--pegs", 3, "--colors", 3, "--all",
                 "--csv", csv_file)
    assert result.exit_code == 0, result.stderr
    header, python, a2 = (line.split(",") for line in csv_file.read_text().splitlines())
    assert header[-10:] == ["seconds", "ms_per_game", "min", "stdev", "ci95_low", "ci95_high", "failed",
                            "failure_rate", "nodes", "checks"]
    as_json = json.loads(run("compare", "--backend", "a2", "--strategy", "first", "--pegs", 3, "--colors", 3,
                             "--all", "--json").stdout)["rows"][0]["search"]
    assert python[-2:] == ["", ""] and a2[-2:] == [str(as_json["nodes"]), str(as_json["checks"])]


def test_preset_names_are_the_presets():
    from mm_logic.studies.compare import PRESETS
    from mm_logic.studies.presets import PRESET_HELP
    assert list(PRESETS) == list(PRESET_HELP)


def test_a_preset_replays_its_studies_with_their_own_choices():
    from mm_logic.studies.compare import ComparePlan
    plan = ComparePlan.make(preset="seed001", rules=None, explicit_rules=[], backends=None, strategies=None,
                            all_secrets=False, games=None)
    rows = [(s.slug, r.describe(), tuple(b for b in s.backends if s.plays(r, b)), tuple(map(str, s.strategies)),
             s.every_secret(r) or s.games) for s in plan.studies for r in s.rule_sets]
    csp = ("a1", "a2", "a3", "a4", "a5", "clingo")
    assert rows[:5] == [
        ("csp", "4x8 no-repeat", csp, ("any",), True), ("csp", "5x10 no-repeat", csp, ("any",), 20),
        ("csp", "6x12 no-repeat", csp, ("any",), 20),
        ("csp", "7x14 no-repeat", csp[1:], ("any",), 20), ("csp", "8x16 no-repeat", csp[1:], ("any",), 20)]
    assert [r[1] for r in rows if r[0] == "alphabet"] == [f"5x{p} no-repeat" for p in range(5, 16)]
    assert rows[-2:] == [("two-occurrences", "4x8 no-repeat", ("a3", "a4"), ("any",), 40),
                         ("two-occurrences", "4x8 max-repeat 2", ("a3", "a4"), ("any",), 40)]
    # What is typed replaces the preset's own choice in every study.
    plan = ComparePlan.make(preset="seed004", rules=None, explicit_rules=[], backends="clingo",
                            strategies=None, all_secrets=False, games=7)
    assert [(s.backends, tuple(map(str, s.strategies)), s.games, s.every_secret_up_to) for s in plan.studies] == [
        (("clingo",), ("ga004", "ga001-random", "random", "first", "minimax", "human3"), 7, 0)]
    assert plan.total_games == 42


def test_each_strategy_name_is_read_once(monkeypatch):
    # The plan reads every name of its studies once; the studies then hold what was read. Reading the
    # preset's names per study and again per rule set, as compare did, read each 1 + 2 = 3 times here.
    from mm_logic import strategies
    from mm_logic.rules import Rules
    from mm_logic.studies import compare as comparing

    from generators import brute_replay, contract_pick
    rule_sets = (Rules(2, 3), Rules(2, 3, feedback="black"))
    monkeypatch.setitem(comparing.PRESETS, "tiny", (
        comparing.Study("two rules", "tiny", rule_sets, ("python", "clingo"), ("first", "minimax"),
                        every_secret_up_to=9),))
    read = []
    parse = strategies.parse_strategy

    def counted(text, **options):
        read.append(text)
        return parse(text, **options)

    monkeypatch.setattr(strategies, "parse_strategy", counted)
    plan = comparing.ComparePlan.make(preset="tiny", rules=None, explicit_rules=[], backends=None, strategies=None,
                                      all_secrets=False, games=None)
    outcome = comparing.compare(plan)
    assert sorted(read) == ["first", "minimax"]
    assert outcome.disagreements == []
    found = [(r.rules, r.strategy, r.backend, r.histogram) for r in outcome.rows]
    expected = []
    for rules in rule_sets:
        picks = {"first": lambda codes, alive: alive[0],
                 "minimax": lambda codes, alive, rules=rules: contract_pick(codes, alive, max, rules)}
        for name, pick in picks.items():
            expected += [(rules, name, backend, brute_replay(rules, pick)) for backend in ("python", "clingo")]
    assert found == expected


def test_preset_and_rules_conflict(run):
    result = run("compare", "--preset", "seed000", "--pegs", 5, "--backend", "python", "--games", 3)
    assert result.exit_code == 2
    assert result.stderr == "error: give --preset or rules options, not both (--pegs)\n"


def test_all_refuses_spaces_too_large(run):
    result = run("compare", "--preset", "seed001", "--backend", "python", "--all")
    assert result.exit_code == 2
    assert result.stderr == "error: --all: 8x16 no-repeat has 518,918,400 codes; use --games N\n"


def test_unknown_backend_in_list(run):
    result = run("compare", "--backend", "python,nope", "--games", 2)
    assert result.exit_code == 2
    assert result.stderr == "error: unknown backend 'nope'; choose from clingo, swipl, python, a1, a2, a3, a4, a5\n"


def test_ctrl_c_prints_finished_rows(run, monkeypatch):
    from mm_logic.studies import compare as compare_module
    real = compare_module.bench_all
    calls = []

    def interrupted_second_time(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(compare_module, "bench_all", interrupted_second_time)
    result = run("compare", "--pegs", 3, "--colors", 3, "--backend", "python", "--strategy", "first,minimax",
                 "--all", "--json")
    assert result.exit_code == 130
    assert result.stderr == "interrupted: the rows above are the finished ones\n"
    rows = json.loads(result.stdout)["rows"]
    assert [r["strategy"] for r in rows] == ["first"]


def test_jobs_identical(run):
    one = json.loads(run("compare", "--pegs", 4, "--colors", 5, "--backend", "python",
                         "--strategy", "minimax", "--all", "--json").stdout)
    two = json.loads(run("compare", "--pegs", 4, "--colors", 5, "--backend", "python",
                         "--strategy", "minimax", "--all", "--json", "--jobs", 2).stdout)
    def strip(data):
        return [{k: v for k, v in r.items() if k not in ("seconds", "ms_per_game")} for r in data["rows"]]

    assert strip(one) == strip(two)


def test_the_feedback_rules_preset_names_the_rule_of_every_row(run, tmp_path):
    # 3x4 under each rule on python and clingo: every row is the brute-force replay of its strategy (the
    # textbook feedback of each rule, every code a guess for the scorers); 4x6 on python: `first` replayed
    # alike, the scorers as `bench --all` plays them. Each row's rule is named in JSON, CSV and text.
    import csv

    from mm_logic.rules import Rules

    from generators import SCORER_RANKS, brute_replay, contract_pick
    rows_csv = tmp_path / "rows.csv"
    result = run("compare", "--preset", "feedback-rules", "--json", "--csv", rows_csv)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["disagreements"] == []
    names = ("first", "minimax", "expected", "entropy", "parts")
    plan = [(pegs, colors, feedback, backend, name) for pegs, colors, backends in ((3, 4, ("python", "clingo")),
                                                                                 (4, 6, ("python",)))
            for feedback in ("standard", "black", "positional") for name in names for backend in backends]
    found = [(r["rules"]["pegs"], r["rules"]["colors"], r["rules"].get("feedback", "standard"), r["backend"],
              r["strategy"]) for r in data["rows"]]
    assert found == plan
    for (pegs, colors, feedback, backend, name), row in zip(plan, data["rows"]):
        rules = Rules(pegs, colors, feedback=feedback)
        if pegs == 3 or name == "first":
            def pick(codes, alive, name=name, rules=rules):
                return alive[0] if name == "first" else contract_pick(codes, alive, SCORER_RANKS[name], rules)
            expected = brute_replay(rules, pick)
        else:
            bench = run("bench", "--backend", "python", "--strategy", name, "--feedback", feedback, "--all", "--json")
            expected = {int(k): v for k, v in json.loads(bench.stdout)["histogram"].items()}
        assert {int(k): v for k, v in row["histogram"].items()} == expected, (rules, backend, name)
        assert row["games"] == rules.size == sum(expected.values())
    with rows_csv.open() as f:
        assert [(int(r["pegs"]), r["feedback"], r["backend"], r["strategy"]) for r in csv.DictReader(f)] == \
            [(pegs, feedback, backend, name) for pegs, _, feedback, backend, name in plan]
    text = run("compare", "--preset", "feedback-rules", "--backend", "python", "--strategy", "first").stdout
    assert [line for line in text.splitlines() if "codes)" in line] == [
        f"{size} {label}({codes} codes)" for size, codes in (("3x4", "64"), ("4x6", "1,296"))
        for label in ("", "black-peg ", "positional ")]


def test_a_feedback_typed_with_the_feedback_rules_preset_keeps_one_rule_set_per_size():
    # The preset's rule sets differ by their rule only: --feedback black leaves each size once, under black.
    from mm_logic.studies.compare import ComparePlan
    plan = ComparePlan.make(preset="feedback-rules", rules=None, explicit_rules=[], backends=None, strategies=None,
                            all_secrets=False, games=None, feedbacks="black,positional")
    assert [[r.describe() for r in s.rule_sets] for s in plan.studies] == [
        ["3x4 black-peg", "3x4 positional"], ["4x6 black-peg", "4x6 positional"]]
    assert plan.total_games == 2 * 64 * 5 * 2 + 2 * 1296 * 5


def test_compare_takes_rules_of_ones_own_on_its_feedback_axis(run, run_json, tmp_path):
    # A module and a rule written once in an encoding beside a built-in rule; python and clingo play each alike.
    from generators import own_rule_file

    module = own_rule_file(tmp_path, "colour_zero")
    written_once = ROOT / "examples" / "shared_no_adjacent.lp"
    out = run_json("compare", "--backend", "python,clingo", "--strategy", "first,minimax", "--pegs", 3, "--colors", 3,
                   "--feedback", f"standard,{written_once}", "--all")
    rows = {(r["rules"]["feedback"], r["backend"], r["strategy"]): r for r in out["rows"]}
    for strategy in ("first", "minimax"):
        ours = [rows[(str(written_once), backend, strategy)] for backend in ("python", "clingo")]
        assert ours[0]["histogram"] == ours[1]["histogram"] and ours[0]["games"] == 12
    assert rows[(str(written_once), "python", "minimax")]["total_guesses"] == 42
    alone = run_json("compare", "--backend", "python", "--strategy", "minimax", "--pegs", 3, "--colors", 3,
                     "--feedback", module, "--all")
    assert alone["rows"][0]["games"] == 27
    wrong = run("compare", "--backend", "python", "--strategy", "first", "--feedback", "standard,mixed", "--all")
    assert (wrong.exit_code, wrong.stderr) == (2, "error: unknown feedback rule 'mixed'; choose from standard, "
                                                  "black, positional, or a FILE.py, FILE.lp or FILE.pl of your own\n")


def test_the_docs_list_the_presets_named_once():
    # The presets were written in four places (the studies, their help lines, the command's choices and help, the
    # docs); the docs' table and option line name the same presets, in the same order.
    from mm_logic.studies.presets import PRESET_NAMES
    text = (ROOT / "docs" / "cli.md").read_text()
    table = re.findall(r"^\| `([a-z0-9-]+)` \| ", text.split("| preset | studies |", 1)[1].split("\n\n", 1)[0], re.M)
    assert table == PRESET_NAMES
    assert "`--preset " + "\\|".join(PRESET_NAMES) + "`" in text
