"""Seed 003's own console client, read from its report at run time, plays against ``mmlogic serve --tcp-port``.

``py/tools/seed003_vs_swipl.py`` writes the report's ``mastermind-client.pl``,
``ia - version 3.0.pl`` and ``mastermind_stats.pl`` (with its documented
adaptations) into a temporary folder, starts the real ``mmlogic serve --port
P --tcp-port Q --pegs 5 --colors 8 --no-repeat`` and runs ``swipl`` on the
client for three games. Every answer the client printed must be the feedback
rule's for its game's secret (the game's last guess), and every game must end
with the client's own win line. The report lies beside the repository
(``shared/seeds/``): missing there, these tests are skipped, except in CI.
"""

from __future__ import annotations

import pytest

from mm_logic.feedback import feedback

from conftest import load_seed003_script


def test_the_reports_client_wins_three_games_against_mmlogic_serve():
    script = load_seed003_script()
    games, output, status = script.play_client(3, seed=3, timeout=60)
    assert status == 0  # stopped as Ctrl-C does, cleanly
    assert len(games) == 3
    assert output.count("'La proposition est composée de 5 lettres de a à h, sans doublons.'\n") == 3
    assert output.count("J'ai trouvé !!!\n") == 3
    for game in games:
        secret = script.letters_code(game[-1][0])
        assert game[-1][1:] == (5, 0)
        assert 1 <= len(game) <= 10
        for guess, bulls, cows in game:
            code = script.letters_code(guess)
            assert len(set(code)) == 5 and all(0 <= c < 8 for c in code)
            assert (bulls, cows) == feedback(code, secret), (guess, game)
        # Each game printed its guesses numbered 1..n, and the win line right after the last one.
        last = f"{len(game)} Proposition : {game[-1][0]} Bulls= 5 Cows = 0\nJ'ai trouvé !!!\n"
        assert last in output


def test_the_client_is_read_from_the_report_with_only_the_documented_changes(tmp_path):
    script = load_seed003_script()
    report = script.SEED_DOC.read_text(encoding="utf-8")
    client_path = script.write_client(tmp_path, 5123)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ia - version 3.0.pl", "mastermind-client.pl",
                                                         "mastermind_stats.pl"]
    client = client_path.read_text(encoding="utf-8")
    assert client.startswith(":- encoding(utf8).\n:- use_module(library(yall)).\n% module de l'IA du mastermind\n"
                             ":- use_module('ia - version 3.0.pl').\n")
    assert "library(lambda)" not in client and "Port=5000" not in client and client.count("Port=5123,") == 2
    assert "maplist([X,Y]>>(Y is X+97), Suggestion, Ms)" in client
    # Undo the adaptations: what is left is the report's text, line for line.
    original = client.removeprefix(":- encoding(utf8).\n")
    for old, new in script.client_adaptations(5123):
        original = original.replace(new, old)
    assert original in report and original.rstrip().endswith("etudie(resultat).")
    stats = (tmp_path / "mastermind_stats.pl").read_text(encoding="utf-8")
    assert stats.startswith(":- encoding(utf8).\n:- module('mastermind_stats.pl', [etudie/1]).\n")
    assert stats.removeprefix(":- encoding(utf8).\n") in report and "dif(Var,Other)." in stats
    assert (tmp_path / "ia - version 3.0.pl").read_text(encoding="utf-8") == script.seed_program()


def test_the_client_output_is_checked_line_by_line():
    script = load_seed003_script()
    rules = "'La proposition est composée de 5 lettres de a à h, sans doublons.'\n"
    game = rules + "1 Proposition : abcde Bulls= 0 Cows = 3\n2 Proposition : hadfb Bulls= 5 Cows = 0\nJ'ai trouvé !!!\n"
    assert script.client_games(game + game) == [[("abcde", 0, 3), ("hadfb", 5, 0)]] * 2
    for broken, message in [
        (rules + "1 Proposition : abcde Bulls= 0 Cows = 3\n", "the last game ended without"),
        (rules + "1 Proposition : abcde Bulls= 0 Cows = 3\n" + game, "a game ended without"),
        (rules + "2 Proposition : abcde Bulls= 0 Cows = 3\n", "guess 2 follows guess 0"),
        (game + "no game 1\n", "unexpected line from the client: 'no game 1'"),
    ]:
        with pytest.raises(ValueError, match=message):
            script.client_games(broken)


def test_a_report_without_the_client_is_one_clear_line(tmp_path):
    script = load_seed003_script()
    other = tmp_path / "other.txt"
    other.write_text(":- module('ia.pl', [bulls_and_cows/1]).\nIV-C. Quelques résultats.\n", encoding="utf-8")
    with pytest.raises(script.MissingReport, match=r"does not hold seed 003's 'mastermind-client\.pl'"):
        script.client_program(5000, other)
    with pytest.raises(script.MissingReport, match=r"does not hold seed 003's 'mastermind_stats\.pl'"):
        script.stats_program(other)
