"""``solve``, ``next``, ``split`` and ``play``: one game, the next guess, how a guess splits the codes, a game in
the terminal."""

from __future__ import annotations

import json

import click

from ..notation import parse_entry
from ..secret_codes import chosen_secret
from ..support.errors import BadInput
from .options import (
    Integer,
    backend_option,
    emit,
    encoding_option,
    json_option,
    liar_option,
    rules_options,
    server_option,
    time_limit_option,
)
from .strategy_options import engine_options


@click.command(name="solve")
@rules_options(feedback=True, lies=True)
@engine_options()
@click.option("--secret", "secret_text", metavar="CODE", default=None,
              help="The code to find (random when not given; reproducible with --seed).")
@liar_option
@server_option("Play against a codemaker on this mmlogic server, which keeps the secret "
               "(random unless --secret; reproducible with --seed).")
@json_option
def solve(rules, engine, strategy, seed, secret_text, liar_text, server, as_json):
    """The computer plays against a secret.

    Prints one line per guess with its feedback (black,white), then the number
    of guesses. With --server the secret is a remote codemaker's (seed 003's
    client and server): the strategy runs here and sees only its answers
    (with --encoding, the secret sent there is one of the encoding's codes).

    \b
    Examples:
      mmlogic solve --secret 0123
      mmlogic solve --backend swipl --strategy first --pegs 5 --colors 8 --no-repeat --seed 1
      mmlogic solve --strategy any --pegs 16 --colors 6 --json
      mmlogic solve --server http://127.0.0.1:8000 --pegs 5 --colors 8 --no-repeat
      mmlogic solve --lies 1 --liar 2 --secret 0123
      mmlogic solve --lies 2 --liar random --seed 7 --strategy entropy
    """
    from ..game import play, turn_line
    from ..lies import broken, parse_liar
    from ..studies.bench import warm_up
    from ..terminal.progress import Spinner

    liar = None if liar_text is None else parse_liar(liar_text, rules, seed)
    if liar is not None and server is not None:
        raise BadInput("--liar does not apply with --server: the server's codemaker answers")
    secret = chosen_secret(secret_text, engine, seed, remote=server is not None)
    warm_up(engine.name, strategy.name, rules.max_repeat)  # `seconds` leaves start-up out
    with Spinner("thinking") as spinner:
        def show(number, entry):
            # Each guess as soon as it is made: a long game is never silent.
            spinner.tick()
            if not as_json:
                lie = rules.lies > 0 and secret is not None and bool(broken(rules, [entry], secret))
                click.echo(turn_line(number, entry, rules, lie=lie))

        if server is None:
            record = play(engine, strategy, secret, on_turn=show, liar=liar)
        else:
            from ..client import play_remote
            record = play_remote(engine, strategy, server, secret, seed, on_turn=show)
    # The turns are printed already: the text ends with the summary line alone.
    click.echo(json.dumps(record.as_dict()) if as_json else record.summary())


@click.command(name="next")
@rules_options(feedback=True, lies=True)
@engine_options(unbuilt_with="diagnose")
@json_option
@click.option("--diagnose", is_flag=True,
              help="When no code fits the history: the fewest entries that must be wrong (proven least) and the "
                   "feedbacks that would make it consistent, instead of exit 3.")
@click.argument("history", nargs=-1, metavar="HISTORY...")
def next_command(rules, engine, strategy, seed, as_json, diagnose, history):
    """Given what was played so far, the next guess.

    Each HISTORY item is GUESS:B,W (black, white). With no history, prints the
    strategy's opening; once an entry scored all black, that code, as solved.
    Exits 3, naming the entries that contradict each other, when no code fits
    the history; with --diagnose, says instead which entries must be wrong
    (the fewest: clingo proves it with its optimisation) and what each should
    have been, and exits 0 (the strategy, which a diagnosis does not play, is
    then not checked against the rules).

    \b
    Examples:
      mmlogic next 0011:1,0 2345:0,2
      mmlogic next --strategy first --json 0123:0,2
      mmlogic next --no-repeat --colors 10 0123:1,1
      mmlogic next --diagnose 0011:0,0 0123:2,0 2233:0,0
      mmlogic next --lies 1 0011:1,0 2345:0,2 0123:1,1
    """
    from ..game import advise
    from ..terminal.progress import Spinner

    if diagnose and rules.lies:
        raise BadInput("--diagnose does not apply with --lies: it finds the fewest wrong entries, where --lies "
                       "says how many may be")
    entries = [parse_entry(item, rules, check_repeat=not strategy.probes) for item in history]
    if diagnose:
        # A diagnosis plays no strategy: it is built, and refused for the size, only if some code fits.
        with Spinner("thinking"):
            fits = engine.satisfiable(entries)
        if not fits:
            from ..diagnosis import diagnose as find_fixes

            with Spinner("diagnosing"):
                diagnosis = find_fixes(engine, entries)
            emit(diagnosis, as_json)
            return
        strategy = strategy.build()
    with Spinner("thinking"):
        suggestion = advise(engine, strategy, entries)
    emit(suggestion, as_json)


@click.command(name="split")
@rules_options(feedback=True)
@backend_option(help="Engine that lists the codes consistent with the history.")
@encoding_option
@time_limit_option(help="Bound on one solver call; exceeding it exits 1.")
@json_option
@click.argument("guess", metavar="GUESS")
@click.argument("history", nargs=-1, metavar="[HISTORY...]")
def split_command(rules, backend, encoding, time_limit, as_json, guess, history):
    """How GUESS splits the codes still possible after HISTORY.

    The engine lists the codes consistent with the history (each item
    GUESS:B,W, or the feedback of --feedback); the game's feedback rule sorts
    them into parts, one per feedback GUESS would get. Prints one line per
    part, in feedback order (fewest black pegs first, then fewest white; the
    win last), with its size; then the number of parts, the largest (what
    minimax minimises), the expected size sum(size^2)/n (expected), the
    entropy in bits (entropy), and whether GUESS is still possible (then it
    may win now, its own part of 1). GUESS may break the repetition rule (a
    probe); it is then never consistent. Exits 3, naming the entries that
    contradict each other, when no code fits the history; refuses (exit 2)
    more than 1,000,000 codes still possible (swipl: 100,000).

    \b
    Examples:
      mmlogic split 0000
      mmlogic split --backend python --json 0011 0123:1,1
      mmlogic split --feedback black 0123 0011:1
      mmlogic split --no-repeat --colors 8 --pegs 5 01234
    """
    from ..engines import make_engine
    from ..notation import parse_code
    from ..split import split_codes
    from ..terminal.progress import Spinner

    # A probe (a guess or an entry breaking the repetition rule) is a question the codemaker can answer.
    code = parse_code(guess, rules, check_repeat=False)
    entries = [parse_entry(item, rules, check_repeat=False) for item in history]
    engine = make_engine(backend, rules, encoding=encoding, time_limit=time_limit)
    try:
        with Spinner("listing the codes"):
            result = split_codes(engine, code, entries)
    finally:
        engine.close()
    emit(result, as_json)


@click.command(name="play")
@rules_options(feedback=True, lies=True)
@engine_options(beyond="any")
@click.option("--role", type=click.Choice(["codebreaker", "codemaker", "duel"]), default="codebreaker",
              show_default=True, help="codebreaker: you guess; codemaker: you keep a code in mind and the computer "
                                      "guesses it; duel: both in turn, with a score.")
@click.option("--secret", "secret_text", metavar="CODE", default=None,
              help="The code to find (codebreaker; random by default).")
@click.option("--max-guesses", type=Integer(1), default=None,
              help="Give up after this many guesses.  [default: unlimited; in a duel 10]")
@click.option("--rounds", type=Integer(2, 100), default=None,
              help="duel: the rounds, an even number (each side makes as many codes as it breaks).  [default: 2]")
@click.option("--adversary", is_flag=True,
              help="codebreaker: the computer keeps no secret and answers each guess so that the most codes stay "
                   "possible (Knuth's worst case, as Absurdle for Wordle); at the end, a code that fits every answer.")
@liar_option
def play_command(rules, engine, strategy, seed, role, secret_text, max_guesses, rounds, adversary, liar_text):
    """Play in the terminal: you guess (codebreaker), the computer guesses your code (codemaker), or a duel.

    Codebreaker: type a code per line (0123, or 0 1 2 3); a typo is explained
    and you type again. Type `?` for how many codes are still possible (asked
    of --backend), `hint` for the guess --strategy would play, `help` for help,
    `quit` (or Ctrl-D) to give up and see the secret.

    Codemaker: think of a code; answer each of the computer's guesses with
    black,white (1,2 or 1 2). An answer that contradicts earlier ones is
    refused at once, naming them; `undo` takes your last answer back; at the
    end (or after `quit`) type your code to see which answers were wrong.

    With --adversary the codebreaker's codemaker keeps no secret: each
    answer is the one that leaves the most codes possible, so the game ends
    only when your guess is the last code left.

    Duel: you break the computer's code, then it breaks yours, for --rounds
    rounds; the codemaker scores a point per guess and one more for a code
    not broken within --max-guesses (10 unless given). The score follows
    each round; the last line says who won.

    \b
    Examples:
      mmlogic play --pegs 4 --colors 6
      mmlogic play --role codemaker --strategy minimax
      mmlogic play --adversary
      mmlogic play --role duel --rounds 4 --seed 1
      mmlogic play --lies 1 --liar random
      mmlogic play --role codemaker --lies 1
    """
    from ..game import Game
    from ..game_setup import GameSetup
    from ..terminal.play import play_codebreaker, play_codemaker
    from ..terminal.progress import Spinner

    def ask(prompt: str) -> str | None:
        try:
            return click.prompt(prompt, prompt_suffix="> ", default="", show_default=False, err=True)
        except click.Abort as abort:
            if isinstance(abort.__context__, KeyboardInterrupt):
                raise KeyboardInterrupt from None  # Ctrl-C: "interrupted", exit 130, as everywhere
            click.echo("", err=True)  # Ctrl-D: end the prompt's line; the game ends as after quit
            return None

    setup = GameSetup(engine.rules, role, secret_text, adversary, liar_text, rounds, seed)
    setup.check()
    setup.check_engine(type(engine), engine.encoding is not None)
    setup.check_codes(engine)
    if role == "duel":
        from ..terminal.duel import play_duel

        return play_duel(engine, strategy, setup.duel_secrets(engine), ask, click.echo, setup.duel_rounds,
                         max_guesses, busy=Spinner)
    if role == "codemaker":
        with Game(engine, strategy) as game:
            return play_codemaker(game, ask, click.echo, max_guesses, busy=Spinner)
    game = Game(engine, strategy, secret=setup.secret_for(engine), adversary=adversary, liar=setup.make_liar())
    with game:
        return play_codebreaker(game, ask, click.echo, max_guesses, busy=Spinner)
