"""Where a sweep's cases run: each in a fresh Python process, supervised from here or started by Dask workers.

Always in a fresh Python process of its own (:func:`run_isolated` starts
``python -m mm_logic.studies.sweep_processes CASE``), so that its peak memory is the case's own
(:mod:`mm_logic.studies.sweep`). :func:`run_local` supervises up to ``--jobs`` of
them from threads of this process; :func:`run_dask` submits :func:`run_isolated` to a
``dask.distributed`` scheduler, and each worker starts the process on its machine.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed

from ..notation import quoted
from ..support.errors import BackendUnavailable, BadInput, MMLogicError, install_hint
from ..support.processes import die_with_parent, worker_count
from .sweep_case import Case, run_case

EXECUTORS = ("local", "dask")
#: Schemes of a scheduler's address (tcp:// when none is written).
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")

#: Called in the main thread as each case ends: the case, and its row or ``{"error": message}``.
OnResult = Callable[[Case, dict], None]


class _Children:
    """The case processes this process has running, to stop them on Ctrl-C."""

    def __init__(self):
        self.lock = threading.Lock()
        self.running: set[subprocess.Popen] = set()
        self.stopped = False

    def stop(self) -> None:
        with self.lock:
            self.stopped = True
            for child in self.running:
                child.kill()


_children = _Children()


def run_isolated(case: dict, stop: _Children | None = None) -> dict:
    """Run one case (``Case.as_dict()``) in a fresh Python process: its row, or ``{"error": message}``.

    This is the task a Dask worker runs; it returns, never raises, so that
    one failed case is reported and the others go on.
    """
    stop = stop or _children
    command = [sys.executable, "-m", "mm_logic.studies.sweep_processes", json.dumps(case), str(os.getpid())]
    with stop.lock:
        if stop.stopped:
            return {"error": "interrupted"}
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
        stop.running.add(child)
    said: list[str] = []
    # The child's stderr read as it comes: its notes (what a case waits for, an encoding's codes listed for
    # minutes) are passed on at once; the rest, its last line, says why a case failed.
    reader = threading.Thread(target=_passed_on, args=(child.stderr, said), daemon=True)
    reader.start()
    try:
        out = child.stdout.read()
        child.wait()
        reader.join()
    finally:
        with stop.lock:
            stop.running.discard(child)
    err = "".join(said)
    lines = out.strip().splitlines()
    try:
        row = json.loads(lines[-1]) if lines else None
    except ValueError:
        row = None
    if isinstance(row, dict) and (child.returncode == 0 or "error" in row):
        return row
    try:
        how = (f"was killed by signal {signal.Signals(-child.returncode).name}" if child.returncode < 0
               else f"exited {child.returncode}")
    except ValueError:
        how = f"was killed by signal {-child.returncode}"
    last = err.strip().splitlines()[-1:] or [""]
    return {"error": f"the process running the case {how} on {socket.gethostname()}"
                     + (f": {last[0]}" if last[0] else "")}


def _passed_on(stream, said: list[str]) -> None:
    """Read a case's stderr to its end into ``said``, writing each ``note:`` line to this process's stderr as it
    comes (a sweep's case waiting on an encoding said so only once it ended)."""
    for line in stream:
        said.append(line)
        if line.startswith("note: "):
            sys.stderr.write(line)
            sys.stderr.flush()


def _case_process(argv: list[str]) -> int:
    """``python -m mm_logic.studies.sweep_processes CASE [PARENT]``: run one case, print its row (or
    ``{"error": ...}``) as JSON; it ends with the process ``PARENT`` (the sweep's), even one killed outright."""
    if len(argv) > 1:
        die_with_parent(int(argv[1]))
    # The row's own channel, the process's stdout; what the case's code writes to its stdout from here on (a
    # print, a rule module's os.write(1, ...)) goes to stderr: on the row's line it made the row unreadable, and
    # the case was said to fail ("exited 0") though it ran.
    row_out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    try:
        row = run_case(Case.from_dict(json.loads(argv[0])))
        code = 0
    except KeyboardInterrupt:
        return 130
    except MMLogicError as error:
        row, code = {"error": str(error)}, 1
    except Exception as error:  # noqa: BLE001 - reported as the case's one-line failure
        row, code = {"error": f"internal failure: {type(error).__name__}: {error}"}, 1
    row_out.write(json.dumps(row) + "\n")
    row_out.flush()
    return code


# -- executors ------------------------------------------------------------------------
def run_local(cases: list[Case], jobs: int, on_result: OnResult) -> None:
    """Run the cases, up to ``jobs`` at once, each in its own process; Ctrl-C kills those running."""
    stop = _Children()
    pool = ThreadPoolExecutor(max_workers=worker_count(jobs, len(cases)), thread_name_prefix="mmlogic-case")
    futures = {pool.submit(run_isolated, case.as_dict(), stop): case for case in cases}
    try:
        for future in as_completed(futures):
            on_result(futures[future], future.result())
    finally:
        stop.stop()
        pool.shutdown(wait=True, cancel_futures=True)


def check_dask() -> None:
    """Refuse ``--executor dask`` where dask.distributed is not installed (exit 2)."""
    import importlib.util
    try:
        found = importlib.util.find_spec("distributed") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise BackendUnavailable(f"--executor dask needs dask.distributed: {install_hint('dask')}")


def check_scheduler(address: str) -> None:
    """Refuse a ``--scheduler`` that is no address (exit 2), before dask tries to reach it."""
    from distributed.comm.addressing import parse_address, parse_host_port
    try:
        if not address.strip() or any(c.isspace() for c in address):
            raise ValueError("it has spaces" if address.strip() else "it is empty")
        if not address.isascii():  # another script's digits would pass as a port, then time out connecting
            raise ValueError("it is not ASCII")
        scheme, location = parse_address(address)
        if scheme not in SCHEMES:
            raise ValueError(f"{scheme}:// is not one of {', '.join(s + '://' for s in SCHEMES)}")
        try:
            _, port = parse_host_port(location)
        except ValueError as error:
            raise ValueError("missing port number" if "missing port" in str(error)
                             else "the port is not a number") from None
        if not 0 < port < 65536:
            raise ValueError(f"port {port} is not between 1 and 65535")
    except ValueError as error:
        reason = str(error)
        raise BadInput(f"--scheduler {quoted(address)} is not a scheduler address ({reason}); "
                       "write tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786") from None


def dask_client(address: str):
    """A ``distributed.Client`` on the scheduler at ``address``, or one line and exit 1.

    How long it tries is dask's ``distributed.comm.timeouts.connect`` (30 s;
    ``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s`` shortens it). Something else than a Dask scheduler
    listening there is named so, within that time (:func:`check_speaks_dask`).
    """
    check_dask()
    import logging

    from distributed import Client
    # Connection attempts log their own retries: the one line below says it all.
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    check_speaks_dask(address)
    try:
        return Client(address, set_as_default=False)
    except Exception as error:  # noqa: BLE001 - unreachable, refused, bad address: one line
        reason = " ".join(str(error).split()) or type(error).__name__
        error.__traceback__ = None  # its frames hold the half-built Client: let it go now
    # The half-built Client's __del__ fails in turn (its close times out after 10 s) and Python
    # prints that as an "Exception ignored" traceback: collected here, quietly; the line below says it.
    hook, sys.unraisablehook = sys.unraisablehook, lambda unraisable: None
    try:
        gc.collect()
    finally:
        sys.unraisablehook = hook
    raise MMLogicError(f"cannot reach the Dask scheduler at {address}: {reason}")


def check_speaks_dask(address: str) -> None:
    """Refuse (one line, exit 1) a service at ``address`` that takes a connection but is no Dask scheduler: a web
    server, a Dask worker, anything listening on the port.

    dask's client reads what such a service sends as its own frames (a length of exabytes: ``Unable to allocate
    3.07 EiB``, said as the reason the scheduler cannot be reached) or waits for ever for a handshake that never
    comes. So the address is asked here as dask asks (its handshake, then ``identity``), within dask's connect
    timeout. A TCP address nothing listens on is left to the client, which retries and says so, as before.
    """
    import asyncio

    import dask
    from dask.utils import parse_timedelta
    from distributed.comm.addressing import parse_address, parse_host_port
    seconds = parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), default="seconds")
    scheme, location = parse_address(address)
    try:
        host, port = parse_host_port(location.split("/")[0])
    except ValueError:
        return  # no host and port (ucx://...): the client alone knows how to reach it
    if scheme == "ucx":
        return  # not TCP: the client alone knows how to reach it
    try:
        socket.create_connection((host, port), timeout=seconds).close()
    except TimeoutError:  # a host that does not answer: the client would wait as long again
        raise MMLogicError(f"cannot reach the Dask scheduler at {address}: Timed out trying to connect to "
                           f"{address} after {seconds:g} s") from None
    except OSError:
        return  # refused, no route, no such host: the client retries (a scheduler starting) and says so
    try:
        kind = asyncio.run(asyncio.wait_for(_identity(address, seconds), seconds))
    except TimeoutError:
        raise MMLogicError(f"{address} is not a Dask scheduler (it took the connection, but did not answer as Dask "
                           f"does within {seconds:g} s)") from None
    except Exception:  # noqa: BLE001 - whatever it sent, read as dask reads it, failed: one line
        kind = None
    if kind != "Scheduler":
        said = (f"answered as a Dask {kind}" if isinstance(kind, str) and kind.isidentifier() and len(kind) <= 40
                else "answered, but not as Dask does")
        raise MMLogicError(f"{address} is not a Dask scheduler (it {said})")


async def _identity(address: str, seconds: float):
    """What the service at ``address`` says it is, asked as dask's client asks (its handshake, then the
    ``identity`` operation): ``Scheduler`` for a scheduler, ``Worker``...; None for an answer without it."""
    from distributed.comm import connect
    from distributed.security import Security
    # The connection's arguments as the client's (a tls:// scheduler's certificates, from dask's configuration).
    comm = await connect(address, timeout=seconds, **Security().get_connection_args("client"))
    try:
        await comm.write({"op": "identity", "reply": True})
        answer = await comm.read()
    finally:
        comm.abort()
    return answer.get("type") if isinstance(answer, dict) else None


def run_dask(cases: list[Case], client, on_result: OnResult) -> None:
    """Submit every case to the cluster (biggest first), handing rows on as they come."""
    from distributed import as_completed as dask_completed
    futures = {client.submit(run_isolated, case.as_dict(), pure=False): case for case in cases}
    try:
        for future in dask_completed(list(futures), loop=client.loop):
            try:
                row = future.result()
            except Exception as error:  # noqa: BLE001 - a worker lost, a task that cannot run
                row = {"error": " ".join(f"{type(error).__name__}: {error}".split())}
            on_result(futures[future], row)
    finally:
        client.cancel(list(futures))



if __name__ == "__main__":
    sys.exit(_case_process(sys.argv[1:]))
