"""An agent's loop over mmlogic's HTTP API: observe the game, choose a guess, send it, read the answer.

The agent here is a stand-in for yours (a language model, a learned policy): ``--policy hint`` asks the
server for its strategy's next guess (``GET /api/games/{id}/next``, a tool the agent may call), ``--policy
random`` plays random codes of the game's alphabet (comma-separated colour numbers when the game has more
colours than the alphabet has symbols), sometimes mistyped, to show what a refusal looks like (a 400 or 422
with one JSON line, the game unchanged). Standard library only; run it against ``mmlogic serve``:

    mmlogic serve --port 8000 &
    python examples/agent_over_http.py --url http://127.0.0.1:8000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import urllib.error
import urllib.parse
import urllib.request


class NotMmlogic(Exception):
    """The URL answers, but not as mmlogic's server does (another web server on that port)."""


def call(url: str, method: str = "GET", body: dict | None = None) -> tuple[int, dict]:
    """One request: the HTTP status and the JSON reply (an error's too: ``{"error": "..."}``)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, parsed(reply, method, url)
    except urllib.error.HTTPError as error:
        return error.code, parsed(error, method, url)


def parsed(reply, method: str, url: str) -> dict:
    """A reply's JSON object; any other reply is :class:`NotMmlogic`, naming the request."""
    try:
        answer = json.load(reply)
    except ValueError:  # HTML, or bytes that are no JSON
        answer = None
    if not isinstance(answer, dict):
        path = urllib.parse.urlsplit(url).path
        raise NotMmlogic(f"{method} {path} gave {reply.status} and no JSON{'' if answer is None else ' object'}")
    return answer


def choose(policy: str, server: str, game: dict, rng: random.Random) -> str:
    """The agent's next guess, from what it observes (``game``: the state, its history and rules)."""
    if policy == "hint":
        return call(f"{server}/api/games/{game['id']}/next")[1]["guess"]
    pegs = game["rules"]["pegs"] + (1 if rng.random() < 0.2 else 0)  # now and then a code one peg too long
    colors, alphabet = game["rules"]["colors"], game["alphabet"]
    if len(alphabet) < colors:  # more colours than symbols: the server reads codes as comma-separated numbers
        return ",".join(str(rng.randrange(colors)) for _ in range(pegs))
    return "".join(rng.choice(alphabet) for _ in range(pegs))


def play(server: str, rules: dict, policy: str, seed: int, max_guesses: int) -> int:
    """One game as codebreaker; prints each step; returns the guesses it took (0: not found)."""
    status, game = call(f"{server}/api/games", "POST", {"rules": rules, "role": "codebreaker", "seed": seed,
                                                         "backend": "python"})
    if status != 201:
        sys.exit(f"error: the server refused the game: {game['error']}")
    rng = random.Random(seed)
    for _ in range(max_guesses):
        guess = choose(policy, server, game, rng)
        status, answer = call(f"{server}/api/games/{game['id']}/guesses", "POST", {"guess": guess})
        if status != 200:
            print(f"{guess}: refused ({status}): {answer['error']}")
            continue
        told = ",".join(str(answer[key]) for key in answer if key in ("black", "white", "marks"))
        print(f"{answer['attempts']}  {guess}  {told}")
        if answer["won"]:
            print(f"won in {answer['attempts']} guesses")
            return answer["attempts"]
        game = call(f"{server}/api/games/{game['id']}")[1]  # the observation: the state with its history
    state = call(f"{server}/api/games/{game['id']}/resign", "POST")[1]
    print(f"gave up after {max_guesses} tries; the secret was {state['secret']}")
    return 0


def positive(text: str) -> int:
    """A positive whole number, as ``--max-guesses`` takes it."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, got {text!r}")
    return number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the mmlogic server (default: %(default)s)")
    parser.add_argument("--pegs", type=int, default=4)
    parser.add_argument("--colors", type=int, default=6)
    parser.add_argument("--policy", choices=("hint", "random"), default="hint")
    parser.add_argument("--seed", type=int, default=1, help="the server's secret and the agent's draws")
    parser.add_argument("--max-guesses", type=positive, default=10)
    args = parser.parse_args()
    try:
        play(args.url.rstrip("/"), {"pegs": args.pegs, "colors": args.colors}, args.policy, args.seed,
             args.max_guesses)
    except urllib.error.URLError as error:
        sys.exit(f"error: cannot reach {args.url}: {error.reason}")
    except (NotMmlogic, KeyError) as error:  # KeyError: a JSON reply without a field mmlogic's replies have
        what = f"its reply has no {error}" if isinstance(error, KeyError) else str(error)
        sys.exit(f"error: {args.url} does not answer as an mmlogic server: {what}")


if __name__ == "__main__":
    main()
