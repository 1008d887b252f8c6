"""Load on the codemaker server: N games at once on 127.0.0.1, each checked against play in process.

Starts ``mmlogic serve`` on a free port of 127.0.0.1 (or uses ``--url``, which
must be a loopback address), then plays ``--games`` games with ``--concurrency``
of them at a time, one thread per game in flight, each over its own
connection:

* ``--role codemaker`` (default): the server's strategy guesses (``GET
  /next``) and the client answers from its secret (``POST /feedback``), so
  the server's engines do the work;
* ``--role codebreaker``: the client's strategy guesses (this process's
  engine) and the server answers from its secret (``POST /guesses``).

With ``--workers 1,2`` it runs the same load once per number of worker processes,
side by side in one run: each on its own ``mmlogic serve --db`` (a temporary file)
with ``--workers N``, and says how many times the games per second of the first
the others reach (``--rounds R``: every configuration R times in turn, the medians
compared; ``--warmup N``: N games first on each server, untimed). ``--restart-after
N`` kills that server (``kill -9``, its workers too) once N games are done, starts it
again on the same file, and every game goes on from the state the file has.

Every game's attempts must equal the same strategy's game in process on the
same secret (``mm_logic.game.play``): a game mixed up with another, or a lost
request, shows as a mismatch. It reports games per second and the p50/p99
latency of a request. It is bounded: at most 10 000 games and 1 000 at once,
and it stops by itself after ``--max-seconds`` (exit 1, saying how many games
were left).

Usage::

    .venv/bin/python py/tools/serve_load.py                      # 200 games, 200 at once, 4x6 minimax, python
    .venv/bin/python py/tools/serve_load.py --games 1000 --concurrency 50 --backend clingo
    .venv/bin/python py/tools/serve_load.py --role codebreaker --strategy first --pegs 5 --colors 8
    .venv/bin/python py/tools/serve_load.py --url http://127.0.0.1:8000   # a server already running here
    .venv/bin/python py/tools/serve_load.py --workers 1,2 --games 400    # 1 and 2 worker processes, one run
    .venv/bin/python py/tools/serve_load.py --workers 1 --games 1000 --restart-after 500   # kill -9 mid-load
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import resource
import signal
import socket
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from mm_logic.client import RemoteServer, ServerError, play_remote, server_url
from mm_logic.engines import make_engine
from mm_logic.feedback import feedback
from mm_logic.game import play
from mm_logic.notation import Code, format_code, parse_code
from mm_logic.rules import make_rules
from mm_logic.secret_codes import random_secrets
from mm_logic.server.process import ServerProcess
from mm_logic.strategies import DEFAULT_STRATEGY, make_strategy
from mm_logic.support.errors import BadInput
from mm_logic.support.scripting import count, natural, positive_seconds, run

MAX_GAMES = 10_000
MAX_CONCURRENCY = 1_000


class TimedServer(RemoteServer):
    """A :class:`RemoteServer` that records each request's latency."""

    def __init__(self, url: str, latencies: list[float]):
        super().__init__(url)
        self.latencies = latencies

    def request(self, method: str, path: str, body: dict | None = None) -> dict:
        start = time.perf_counter()
        try:
            return super().request(method, path, body)
        finally:
            self.latencies.append(time.perf_counter() - start)


def loopback(url: str) -> str:
    """``url`` if it names this machine; load is never sent elsewhere."""
    try:
        _, host, _ = server_url(url)
    except BadInput:  # its message names the CLI's --server
        raise BadInput(f"--url must be a server's address such as http://127.0.0.1:8000, not {url!r}") from None
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(host, None)}
    except OSError:  # socket.gaierror: the name does not resolve, so it cannot be shown to be this machine
        raise BadInput(f"--url {url!r}: its host {host!r} does not resolve (use 127.0.0.1, ::1 or localhost)") from None
    if not addresses or not all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in addresses):
        raise BadInput(f"--url must be a loopback address (127.0.0.1, ::1, localhost), not {url!r}")
    return url


def codemaker_game(server: RemoteServer, request: dict, secret: Code, rules, game_id: list | None = None) -> int:
    """The server's strategy guesses; the client answers from ``secret``. The attempts.

    ``game_id``: a list holding the game's id once created (then the game goes on from the state the
    server has: after a restart, a request killed inside may or may not be in it)."""
    if game_id:
        url = f"/api/games/{game_id[0]}"
        state = server.request("GET", url)
        if state["won"]:
            return state["attempts"]
    else:
        game = server.request("POST", "/api/games", {**request, "role": "codemaker"})
        if game_id is not None:
            game_id.append(game["id"])
        url = f"/api/games/{game['id']}"
    while True:
        guess = parse_code(server.request("GET", f"{url}/next")["guess"], rules)
        black, white = feedback(guess, secret)
        state = server.request("POST", f"{url}/feedback",
                               {"black": black, "white": white, "guess": format_code(guess, rules)})
        if state["won"]:
            return state["attempts"]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def cpu(who: int) -> float:
    """CPU seconds (user and system) of this process."""
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def tree_cpu(pid: int) -> float | None:
    """CPU seconds (user and system) of process ``pid`` and its children, from /proc (None elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/task/{pid}/children") as listed:
            children = [int(child) for child in listed.read().split()]
    except OSError:
        return None
    seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    for child in children:
        seconds += tree_cpu(child) or 0.0
    return seconds


def worker_counts(text: str) -> list[int]:
    """``--workers``: numbers of worker processes, comma-separated (``1,2``), each 1 to 16."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be numbers such as 1,2, not {text!r}") from None
    if not counts or not all(1 <= n <= 16 for n in counts):
        raise argparse.ArgumentTypeError(f"each number must be 1..16, not {text!r}")
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=count, default=200, help=f"games in all (default 200, at most {MAX_GAMES})")
    parser.add_argument("--concurrency", type=count, default=200,
                        help=f"games in flight at once (default 200, at most {MAX_CONCURRENCY})")
    parser.add_argument("--role", choices=["codemaker", "codebreaker"], default="codemaker",
                        help="the client's side (default codemaker: the server guesses)")
    parser.add_argument("--backend", default="python", help="engine (default python)")
    parser.add_argument("--strategy", default=DEFAULT_STRATEGY, help=f"strategy (default {DEFAULT_STRATEGY})")
    parser.add_argument("--pegs", type=int, default=4)
    parser.add_argument("--colors", type=int, default=6)
    parser.add_argument("--seed", type=natural, default=1, help="seed of the secrets (default 1)")
    parser.add_argument("--max-seconds", type=positive_seconds, default=300, help="stop after this long (default 300)")
    parser.add_argument("--url", default=None, help="a server already running on this machine (loopback only)")
    parser.add_argument("--restart-after", type=count, default=None, metavar="N",
                        help="with --workers, role codemaker: kill -9 the server once N games are done, start it "
                             "again on the same --db file, and let every game go on")
    parser.add_argument("--warmup", type=natural, default=0,
                        help="games played first on each server, untimed (its solvers compiled and warm; default 0)")
    parser.add_argument("--rounds", type=count, default=1,
                        help="with --workers: run every configuration this many times, in turn, and compare the "
                             "medians (default 1)")
    parser.add_argument("--workers", type=worker_counts, default=None,
                        help="run the load once per number of worker processes (e.g. 1,2), each server on --db")
    args = parser.parse_args()
    if args.url and args.workers:
        parser.error("--workers starts its own servers: not with --url")
    if args.restart_after is not None and (not args.workers or args.role != "codemaker"
                                           or args.restart_after >= args.games):
        parser.error("--restart-after N needs --workers, --role codemaker and N below --games")
    if not 1 <= args.games <= MAX_GAMES or not 1 <= args.concurrency <= MAX_CONCURRENCY:
        parser.error(f"--games must be 1..{MAX_GAMES} and --concurrency 1..{MAX_CONCURRENCY}")

    rules = make_rules(args.pegs, args.colors)
    if args.url:
        # Checked before the games in process: a server that cannot be reached fails every game at once,
        # which is not load (the server's own answer, e.g. "cannot reach ...: connection refused", exit 1).
        url = loopback(args.url)
        probe = RemoteServer(url, timeout=args.max_seconds)
        probe.request("GET", "/api/options")
        probe.close()
    secrets = random_secrets(rules, args.games, args.seed)
    engine = make_engine(args.backend, rules)
    strategy = make_strategy(args.strategy, rules, args.seed)
    expected = [play(engine, strategy, secret).attempts for secret in secrets]
    request = {"rules": rules.as_dict(), "backend": args.backend, "strategy": args.strategy, "seed": args.seed}
    if not args.workers:
        return load(args, None, url if args.url else None, rules, secrets, expected, strategy, request)[0]
    print(f"{args.games} games of {rules.describe()}, {args.concurrency} at once, role {args.role}, "
          f"{args.backend}/{args.strategy}, by number of worker processes")
    codes, rates = [], {n: [] for n in args.workers}
    with tempfile.TemporaryDirectory() as folder:
        for round_number in range(args.rounds):
            for n in args.workers:
                code, rate = load(args, n, None, rules, secrets, expected, strategy, request,
                                  db=str(Path(folder) / f"workers{n}-{round_number}.db"))
                codes.append(code)
                rates[n].append(rate)
    medians = {n: statistics.median(r) for n, r in rates.items()}
    if args.rounds > 1:
        print("median     " + ", ".join(f"{n} workers {medians[n]:.1f} games/s" for n in args.workers))
    first = args.workers[0]
    for n in args.workers[1:]:
        print(f"speed-up   {n} workers: {medians[n] / medians[first]:.2f} times the games/s of {first}"
              if medians[first] else f"speed-up   {n} workers: none measured")
    return max(codes)


def load(args, workers: int | None, url: str | None, rules, secrets, expected, strategy, request,
         db: str | None = None) -> tuple[int, float]:
    """The games against ``url``, or against a server started here (``--workers workers --db db`` when
    ``workers`` is given); the exit code and the games per second."""
    # One connection a game in flight: the server must hold them all (its default is 500).
    options = ["--max-games", str(max(1000, args.concurrency)),
               "--max-connections", str(max(500, args.concurrency + 10))]
    if workers is not None:
        options += ["--db", db, "--workers", str(workers)]
    server = None if url else ServerProcess(*options)
    if server is not None:
        url = server.url
    latencies: list[float] = []
    local = threading.local()
    stop = threading.Event()
    restarted = threading.Event()
    current = {"url": url}

    def one(index: int) -> int:
        if stop.is_set():
            raise TimeoutError
        if getattr(local, "url", None) != current["url"]:
            local.server = TimedServer(current["url"], latencies)
            local.engine = make_engine(args.backend, rules)
            local.url = current["url"]
        if args.role != "codemaker":
            return play_remote(local.engine, strategy, local.server, secrets[index]).attempts
        if args.restart_after is None:
            return codemaker_game(local.server, request, secrets[index], rules)
        game_id: list[str] = []
        try:
            return codemaker_game(local.server, request, secrets[index], rules, game_id)
        except ServerError:  # killed under this request: the game goes on on the server started again
            if not restarted.wait(args.max_seconds):
                raise
            local.server, local.url = TimedServer(current["url"], latencies), current["url"]
            return codemaker_game(local.server, request, secrets[index], rules, game_id)

    def restart() -> None:
        """kill -9 the server and its workers, start it again on the same file."""
        nonlocal server
        with open(f"/proc/{server.process.pid}/task/{server.process.pid}/children") as listed:
            for pid in [*map(int, listed.read().split()), server.process.pid]:
                os.kill(pid, signal.SIGKILL)
        server.stop()
        begin = time.perf_counter()
        server = ServerProcess(*options)
        current["url"] = server.url
        restarted.set()
        print(f"restart    kill -9 after {len(got)} games done; started again on the same file in "
              f"{time.perf_counter() - begin:.2f} s (at {server.url})")

    if workers is None:
        print(f"server {url}; {args.games} games of {rules.describe()}, {args.concurrency} at once, "
              f"role {args.role}, {args.backend}/{args.strategy}")
    else:
        print(f"workers    {workers} (mmlogic serve --db FILE --workers {workers}, at {url})")
    got: dict[int, int] = {}
    failures: list[str] = []
    timed_out = False
    if args.warmup:
        with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
            warm = list(pool.map(one, [i % len(secrets) for i in range(args.warmup)]))
        latencies.clear()
        if [w for i, w in enumerate(warm) if w != expected[i % len(secrets)]]:
            print("failed     a warm-up game's attempts differ from play in process")
            return 1, 0.0
    client_cpu = cpu(resource.RUSAGE_SELF)
    server_cpu = None if server is None else tree_cpu(server.process.pid)
    start = time.perf_counter()
    try:
        with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
            futures = {pool.submit(one, i): i for i in range(args.games)}
            try:
                for future in as_completed(futures, timeout=args.max_seconds):
                    try:
                        got[futures[future]] = future.result()
                    except Exception as error:  # noqa: BLE001 - each failure is reported, the run goes on
                        failures.append(f"game {futures[future]}: {error}")
                    if len(got) == args.restart_after and not restarted.is_set():
                        restart()
            except TimeoutError:
                timed_out = True
                stop.set()
                for future in futures:
                    future.cancel()
    finally:
        seconds = time.perf_counter() - start
        client_cpu = cpu(resource.RUSAGE_SELF) - client_cpu
        if server is not None:
            after = tree_cpu(server.process.pid)
            restarted_once = restarted.is_set()  # the CPU of the process killed is not known
            server_cpu = None if after is None or server_cpu is None or restarted_once else after - server_cpu
            server.stop()

    mismatched = [i for i, attempts in got.items() if attempts != expected[i]]
    print(f"games      {len(got)} of {args.games} in {seconds:.2f} s: {len(got) / seconds:.1f} games/s")
    print(f"requests   {len(latencies)}: p50 {1000 * percentile(latencies, 50):.1f} ms, "
          f"p99 {1000 * percentile(latencies, 99):.1f} ms, max {1000 * max(latencies):.1f} ms"
          if latencies else "requests   none")
    print(f"attempts   {sum(got.values())} in all; mismatches with play in process: {len(mismatched)}")
    if workers is not None:
        print(f"cpu        this client {client_cpu:.1f} s, the server "
              + ("(not known)" if server_cpu is None else f"{server_cpu:.1f} s"))
    for line in failures[:5]:
        print(f"failed     {line}")
    if timed_out:  # not when the games failed: they were not left, and the time did not run out
        print(f"stopped    after {args.max_seconds:g} s with {args.games - len(got)} games left", file=sys.stderr)
    ok = len(got) == args.games and not mismatched and not failures
    return (0 if ok else 1), len(got) / seconds

if __name__ == "__main__":
    run(main)
