"""Running ``mmlogic serve``: the API's socket bound, uvicorn on it, the line protocol beside.

:func:`require_serve_extra` says at once when Starlette or uvicorn is
missing; :func:`run_server` binds the port itself (so a port in use is one line and
exit 1, where uvicorn would exit 3), runs until Ctrl-C, SIGTERM or SIGHUP, and
returns the command's exit code. With ``workers`` > 1 it forks that many processes after binding: each
runs the application on the one socket (the kernel hands each connection to one of them), over a store they
share (:class:`~mm_logic.server.db_store.SqliteStore`), and the first process waits for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
from collections.abc import Callable

from ..errors import BackendUnavailable, cannot_listen, host_port, install_hint
from ..interrupts import ENDINGS, interrupted_code
from .line_protocol import LineGames, doubles, serve_beside
from .store import GameStore


def require_serve_extra() -> None:
    """Refuse, before anything else, when the ``serve`` extra (Starlette, uvicorn) is not installed."""
    try:
        import uvicorn  # noqa: F401

        from .api import create_app  # noqa: F401
    except ImportError:
        raise BackendUnavailable(f"mmlogic serve needs Starlette and uvicorn: {install_hint('serve')}") from None


def listen(host: str, port: int, reuse_port: bool = False) -> socket.socket:
    """A socket bound to ``(host, port)`` and listening (port 0 chooses one); a failure is one line.
    With ``reuse_port``, other sockets may bind the port too (``SO_REUSEPORT``), and the kernel spreads
    the connections over them."""
    try:
        # An IPv6 address (::1) needs its family: create_server's default, IPv4, cannot resolve it.
        sock = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET,
                                    reuse_port=reuse_port)
    except OSError as error:
        raise cannot_listen(host, port, error) from None
    # Accepted connections inherit it. uvicorn sets it only on sockets it creates: without it, a
    # response's headers and body wait on the client's delayed ACK, 40 ms a request.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def run_server(store: GameStore, host: str, port: int, line_games: LineGames | None = None, tcp_port: int | None = None,
          *, read_timeout: float, max_connections: int, say: Callable[[str], None] = print, workers: int = 1) -> int:
    """Serve the web page and the API of ``store`` on ``host:port`` (and ``line_games`` on ``tcp_port``)
    until Ctrl-C, SIGTERM or SIGHUP; ``say`` gets the lines that say where it listens.

    Returns the exit code: 0 after Ctrl-C, as ``uvicorn.run`` does; 143 or 129
    after SIGTERM or SIGHUP, as when they killed it.
    """
    import uvicorn

    from .api import create_app, served_hosts
    from .connections import bounded_protocol  # uvicorn's h11: imported once the extra is known to be there

    sock = listen(host, port, reuse_port=workers > 1)
    port = sock.getsockname()[1]
    # The Host headers are those of the port bound (port 0 chooses one).
    server = uvicorn.Server(uvicorn.Config(create_app(store, served_hosts(host, port)), host=host, port=port,
                                           log_level="warning", http=bounded_protocol(read_timeout, max_connections)))

    def listening(line_port: int | None = None) -> None:
        say(f"mmlogic serve: http://{host_port(host, port)}/ (the web page; the API under /api) (Ctrl-C stops)")
        if line_port is not None:
            r = line_games.rules
            say(f"mmlogic serve: line protocol on {host_port(host, line_port)} ({r.pegs} letters from a to "
                f"{chr(ord('a') + r.colors - 1)}, doubles {doubles(r)})")

    if workers > 1:
        listening()
        say(f"mmlogic serve: {workers} worker processes")
        # A socket of its own for each worker but the first, on the same port: the kernel spreads the new
        # connections evenly over them (on one shared socket, the worker awake first would take most).
        def serve(number: int) -> None:
            own = sock if number == 0 else listen(host, port, reuse_port=True)
            asyncio.run(server.serve(sockets=[own]))
        return run_workers(serve, workers)
    try:
        if line_games is None:
            listening()
            asyncio.run(server.serve(sockets=[sock]))
        else:
            asyncio.run(serve_beside(lambda: server.serve(sockets=[sock]), line_games, host, tcp_port, listening,
                                     read_timeout=read_timeout))
    except KeyboardInterrupt:
        # Ctrl-C: uvicorn has shut down (and the line server is closed); exit 0, as uvicorn.run does.
        # SIGTERM, SIGHUP: the same shut-down, and their exit code, 143 or 129, as when they killed it.
        code = interrupted_code()
        return 0 if code == ENDINGS[signal.SIGINT] else code
    return 0


def stopped_code(serve: Callable[[], None]) -> int:
    """Run ``serve`` until Ctrl-C, SIGTERM or SIGHUP; the exit code (0 after Ctrl-C, else the signal's)."""
    try:
        serve()
    except KeyboardInterrupt:
        code = interrupted_code()
        return 0 if code == ENDINGS[signal.SIGINT] else code
    return 0


def die_with_parent() -> None:
    """Ask Linux to send this (forked) process SIGTERM when the process that forked it dies, even by
    ``kill -9``: no worker is left serving alone. Elsewhere, nothing."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def run_workers(serve: Callable[[int], None], workers: int) -> int:
    """Fork ``workers`` processes each running ``serve(number)`` (0, 1, ...), and wait for them.

    Ctrl-C, SIGTERM or SIGHUP to this process is passed on to them; one ending ends the others.
    """
    pids = []
    for number in range(workers):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - a forked child, measured by the tests that run serve --workers
            code = 1
            try:
                die_with_parent()
                code = stopped_code(lambda: serve(number))  # noqa: B023 - called at once
            finally:
                os._exit(code)
        pids.append(pid)

    def wait_any() -> None:
        pid, _ = os.wait()
        pids.remove(pid)

    code = stopped_code(wait_any)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGINT)
    for pid in pids:
        os.waitpid(pid, 0)
    return code
