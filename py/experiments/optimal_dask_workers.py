"""``mmlogic optimal`` on a Dask cluster of 1, then 2, ... workers: the search's time beside the worker count.

A finished experiment (issue 38, item 3), kept runnable: its figures are in
``docs/results/optimal.md``, section "On a Dask cluster". For each worker count
of ``--workers`` it starts a ``distributed.LocalCluster`` of that many worker
processes (one thread each, on this machine); before each timed search it restarts
the workers and warms them (a 3x3 search loads the kernels in every worker), so
that no search finds the sets an earlier one solved in a worker's table; it
runs the search of ``--pegs x --colors``
with ``--executor dask`` semantics (the openings' parts as tasks) ``--repeat``
times, the counts alternated round by round so that the machine's other load
falls on each alike; it prints each count's best and median seconds, the
total found (the same at every count, or the script says so and exits 1) and
the speed-up over the first count. On a 2-core machine, 1 and 2 workers.
``--split-above N`` searches the parts of more than N codes guess by guess
(the next level as tasks, :mod:`mm_logic.optimal.tasks`), at every
count alike (0, the default: the root's parts alone, as before).

Usage::

    .venv/bin/python py/experiments/optimal_dask_workers.py                      # 4x7, 1 and 2 workers, 3 rounds
    .venv/bin/python py/experiments/optimal_dask_workers.py --pegs 4 --colors 6 --repeat 5
    .venv/bin/python py/experiments/optimal_dask_workers.py --split-above 240 --repeat 1
"""

from __future__ import annotations

import argparse
import statistics
import time

from mm_logic.optimal.objectives import optimal
from mm_logic.rules import Rules
from mm_logic.support.errors import MMLogicError
from mm_logic.support.scripting import count, run


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pegs", type=count, default=4)
    parser.add_argument("--colors", type=count, default=7)
    parser.add_argument("--workers", type=count, nargs="+", default=[1, 2], help="worker counts, in order")
    parser.add_argument("--repeat", type=count, default=3, help="rounds (each count once a round)")
    parser.add_argument("--split-above", type=int, default=0,
                        help="parts of more than N codes searched guess by guess (0: none)")
    args = parser.parse_args(argv)
    if args.split_above < 0:
        parser.error(f"argument --split-above: must be 0 or more, got {args.split_above}")
    import logging
    import warnings

    import distributed

    logging.getLogger("distributed").setLevel(logging.ERROR)  # the cluster's start and stop, said at INFO
    warnings.filterwarnings("ignore", module="distributed")
    rules = Rules(args.pegs, args.colors)
    clusters = {n: distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                            dashboard_address=None) for n in args.workers}
    clients = {n: distributed.Client(cluster, set_as_default=False) for n, cluster in clusters.items()}
    try:
        seconds: dict[int, list[float]] = {n: [] for n in args.workers}
        totals = set()
        for round_number in range(1, args.repeat + 1):
            for n in args.workers:
                # Cold: fresh worker processes (each keeps its searcher's table across tasks), kernels loaded.
                clients[n].restart()
                optimal(Rules(3, 3), "expected", client=clients[n])
                started = time.perf_counter()
                result = optimal(rules, "expected", client=clients[n],
                                 split_above=args.split_above or rules.size)
                seconds[n].append(time.perf_counter() - started)
                totals.add(result.total)
                print(f"round {round_number}: {n} worker{'s' if n > 1 else ''}, total {result.total}, "
                      f"{seconds[n][-1]:.2f} s, {result.guess_tasks} guess tasks", flush=True)
        if len(totals) != 1:
            raise MMLogicError(f"the worker counts found different totals: {sorted(totals)}")
        first = min(seconds[args.workers[0]])
        print(f"{rules.describe()}, expected objective, total {totals.pop()}; best (median) seconds:")
        for n in args.workers:
            best = min(seconds[n])
            print(f"  {n} worker{'s' if n > 1 else ' '}  {best:7.2f} ({statistics.median(seconds[n]):.2f})  "
                  f"speed-up x{first / best:.2f}")
    finally:
        for client in clients.values():
            client.close()
        for cluster in clusters.values():
            cluster.close()
    return 0


if __name__ == "__main__":
    run(main)
