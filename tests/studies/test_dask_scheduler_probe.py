"""``--executor dask --scheduler ADDRESS`` where something else than a Dask scheduler listens.

A web server or any other service on the port took the connection, and dask's client then failed on what it
read (``cannot reach the Dask scheduler at ...: Unable to allocate 3.07 EiB for an array ...``: a reason that
is no reason, after 10.9 s), or waited for ever for a service that says nothing until asked in its own
protocol. Now the address is asked as dask asks, within dask's connect timeout, and a service that answers
otherwise is named in one line, exit 1, as an unreachable scheduler is (tests/studies/test_sweep.py). A Dask
worker's address is told apart, and a real scheduler still gives a client.

Each service is a plain socket server on 127.0.0.1 in a thread of this process; the commands run in their own
process (:func:`conftest.mmlogic`), with a timeout: one that waits for ever fails the test.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time

import pytest

from conftest import mmlogic

#: What an HTTP server answers to bytes that are no HTTP request; and bytes no protocol reads.
HTTP = b"HTTP/1.0 400 Bad Request\r\nContent-Type: text/html\r\n\r\n<html>Bad request</html>\r\n"
GARBAGE = b"\xff" * 128
WAIT = 60  # seconds any command may take at the most


@contextlib.contextmanager
def service(answer: bytes | None):
    """A service on a free port of 127.0.0.1 that sends ``answer`` on each connection (None: nothing) and keeps
    it open until the test ends; yields its address."""
    listener = socket.create_server(("127.0.0.1", 0))
    connections = []

    def serve():
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            connections.append(connection)
            if answer is not None:
                with contextlib.suppress(OSError):
                    connection.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()
        for connection in connections:
            connection.close()


def optimal_on(address: str):
    """``mmlogic optimal --pegs 3 --colors 3 --executor dask --scheduler ADDRESS``; the run and its seconds."""
    started = time.monotonic()
    result = mmlogic("optimal", "--pegs", 3, "--colors", 3, "--executor", "dask", "--scheduler", address,
                     timeout=WAIT)
    return result, time.monotonic() - started


@pytest.mark.parametrize("answer", [HTTP, GARBAGE], ids=["http", "garbage"])
def test_a_service_that_answers_otherwise_is_named_not_a_scheduler(answer):
    with service(answer) as address:
        result, seconds = optimal_on(address)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"error: {address} is not a Dask scheduler (it answered, but not as Dask does)\n"
    assert seconds < 8  # the 10 s the half-built client took to close are not waited


def test_a_service_that_says_nothing_is_named_within_the_connect_timeout(monkeypatch):
    # dask's client waited for ever for the handshake of a service that answers only when asked its own way.
    monkeypatch.setenv("DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT", "2s")
    with service(None) as address:
        result, seconds = optimal_on(address)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (f"error: {address} is not a Dask scheduler (it took the connection, but did not "
                             "answer as Dask does within 2 s)\n")
    assert seconds < 20


@pytest.fixture(scope="module")
def cluster():
    """A scheduler and one worker in this process, over TCP."""
    import distributed
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1, protocol="tcp://",
                                  dashboard_address=None) as cluster:
        yield cluster


def test_a_workers_address_is_told_from_the_schedulers(cluster):
    from mm_logic.studies.sweep_processes import dask_client
    from mm_logic.support.errors import MMLogicError
    worker = next(iter(cluster.workers.values())).address
    with pytest.raises(MMLogicError) as refused:
        dask_client(worker)
    assert str(refused.value) == f"{worker} is not a Dask scheduler (it answered as a Dask Worker)"
    client = dask_client(cluster.scheduler_address)
    try:
        assert client.scheduler_info()["address"] == cluster.scheduler_address
    finally:
        client.close()
