"""Running ``mmlogic serve``: the API's socket bound, uvicorn on it, the line protocol beside.

:func:`require_serve_extra` says at once when Starlette or uvicorn is
missing; :func:`run_server` binds the ports itself (so a port in use is one line and
exit 1, where uvicorn would exit 3), says where it listens (:func:`listening_lines`: a
usable address, and a notice when other machines can reach it), runs until Ctrl-C,
SIGTERM or SIGHUP, and returns the command's exit code. With ``workers`` > 1 it forks
that many processes after binding: each runs the application on a socket of the one
port (the kernel hands each connection to one of them), over a store they share
(:class:`~mm_logic.server.db_store.SqliteStore`), and the first process waits for them.

Stopping is the server's own (:func:`stop_signals`), not uvicorn's: uvicorn took a second
Ctrl-C for "force quit", and a terminal's Ctrl-C reaches every process of its group, each
worker then getting it twice (from the terminal and from the first process): its
lifespan was cut short with a 37-line traceback; and a signal that came while a worker
was being forked, before it had a handler, left a traceback or a hanging worker. Now a
signal before the server says it listens is the command interrupted (``interrupted``,
130 or 143, as everywhere); once it listens, the first stops it as uvicorn does (no new
connection, the requests under way answered, then exit 0 after Ctrl-C, 143 after
SIGTERM, 129 after SIGHUP), and another one while it stops ends it at once. The workers
are forked with these signals blocked, leave Ctrl-C and SIGHUP to the first process
(which passes each signal it gets on to them as SIGTERM), and end with it even when it
is killed outright.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import signal
import socket
import sys
from collections.abc import Callable, Iterator

from ..feedback.watch import stop_rule_modules
from ..rules import Rules
from ..support.errors import BackendUnavailable, MMLogicError, cannot_listen, host_port, install_hint
from ..support.interrupts import ENDINGS
from ..support.processes import die_with_parent
from .line_protocol import LineGames, doubles, serve_beside
from .store import GameStore

#: The signals that stop the server: Ctrl-C, SIGTERM and (where there is one) SIGHUP.
STOPS = tuple(ENDINGS)


def require_serve_extra() -> None:
    """Refuse, before anything else, when the ``serve`` extra (Starlette, uvicorn) is not installed."""
    try:
        import uvicorn  # noqa: F401

        from .api import create_app  # noqa: F401
    except ImportError:
        raise BackendUnavailable(f"mmlogic serve needs Starlette and uvicorn: {install_hint('serve')}") from None


def listen(host: str, port: int, reuse_port: bool = False, what: str = "") -> socket.socket:
    """A socket bound to ``(host, port)`` and listening (port 0 chooses one); a failure is one line
    (``what`` says for what: ``" for the line protocol"``). With ``reuse_port``, other sockets may bind
    the port too (``SO_REUSEPORT``), and the kernel spreads the connections over them."""
    try:
        # An IPv6 address (::1) needs its family: create_server's default, IPv4, cannot resolve it.
        sock = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET,
                                    reuse_port=reuse_port)
    except OSError as error:
        raise cannot_listen(host, port, error, what) from None
    # Accepted connections inherit it. uvicorn sets it only on sockets it creates: without it, a
    # response's headers and body wait on the client's delayed ACK, 40 ms a request.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def listening_lines(host: str, bound: str, port: int, line_port: int | None = None,
                    line_rules: Rules | None = None) -> list[str]:
    """What ``serve`` says once it listens on ``port`` (and ``line_port``) of ``host``, bound to the address
    ``bound``: where to open it, and a notice when other machines can reach it.

    A server on every address (``--host ''``, ``0.0.0.0``, ``::``) is opened on this machine's loopback
    address (``http://:8000/`` is no address, and browsers refuse ``0.0.0.0``).
    """
    try:
        address = ipaddress.ip_address(bound.split("%")[0])
    except ValueError:  # not an address (it is what the socket was bound to): said as exposed
        address = None
    shown = host
    notice = (f"note: --host {host} is an address other machines can reach the server at, and play, without a "
              "password; --host 127.0.0.1 keeps it to this machine")
    if address is not None and address.is_loopback:
        notice = None
    elif address is not None and address.is_unspecified:
        shown = "::1" if address.version == 6 else "127.0.0.1"
        notice = (f"note: --host {host or repr('')} listens on every address of this machine: other machines can "
                  "reach the server, and play, without a password; --host 127.0.0.1 keeps it to this machine")
    lines = [f"mmlogic serve: http://{host_port(shown, port)}/ (the web page; the API under /api) (Ctrl-C stops)"]
    if line_port is not None:
        r = line_rules
        lines.append(f"mmlogic serve: line protocol on {host_port(shown, line_port)} ({r.pegs} letters from a to "
                     f"{chr(ord('a') + r.colors - 1)}, doubles {doubles(r)})")
    return lines + ([notice] if notice else [])


def exit_code(received: list[int]) -> int:
    """The exit code of a server stopped by the signals ``received`` (the first counts): 0 after Ctrl-C, as
    ``uvicorn.run`` does, or none; 143 or 129 after SIGTERM or SIGHUP, as when they killed it."""
    return 0 if not received or received[0] == signal.SIGINT else ENDINGS[received[0]]


@contextlib.contextmanager
def stop_signals(stop: Callable[[int], None]) -> Iterator[list[int]]:
    """While the block runs, Ctrl-C, SIGTERM and SIGHUP call ``stop(number)`` (in the main thread, between
    two bytecodes) instead of raising KeyboardInterrupt wherever they land; yields the list of the signals
    received. A signal ignored when the block begins (``nohup``; Ctrl-C in a job started with ``&``) stays
    ignored."""
    received: list[int] = []

    def handler(number: int, frame) -> None:
        received.append(number)
        stop(number)

    previous = {number: signal.getsignal(number) for number in STOPS}
    taken = [number for number, was in previous.items() if was != signal.SIG_IGN]
    for number in taken:
        signal.signal(number, handler)
    try:
        yield received
    finally:
        for number in taken:
            signal.signal(number, previous[number])


def end_now(code: int) -> None:
    """End this process at once with ``code`` (a second signal while it stops): what it printed flushed.
    The store is safe so (a ``kill -9`` inside a request is, ``--db``), and the workers end with it."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def stoppable(server) -> Callable[[int], None]:
    """The ``stop`` of :func:`stop_signals` for a uvicorn ``server``: the first signal stops it as uvicorn
    does (no new connection, the requests under way answered, those waiting for a rule module's call given
    up), another one ends the process at once."""
    received: list[int] = []

    def stop(number: int) -> None:
        received.append(number)
        if len(received) > 1:
            end_now(exit_code(received))
        server.should_exit = True
        stop_rule_modules()  # a request waiting for a rule module's call (one that never returns) is answered

    return stop


def run_server(store: GameStore, host: str, port: int, line_games: LineGames | None = None, tcp_port: int | None = None,
          *, read_timeout: float, max_connections: int, say: Callable[[str], None] = print, workers: int = 1) -> int:
    """Serve the web page and the API of ``store`` on ``host:port`` (and ``line_games`` on ``tcp_port``)
    until Ctrl-C, SIGTERM or SIGHUP; ``say`` gets the lines that say where it listens.

    Returns the exit code: 0 after Ctrl-C, as ``uvicorn.run`` does; 143 or 129
    after SIGTERM or SIGHUP, as when they killed it.
    """
    import uvicorn

    from .api import create_app, served_hosts
    from .connections import MAX_HEAD, bounded_protocol  # uvicorn's h11: imported once the extra is there

    class Server(uvicorn.Server):
        """uvicorn's server, leaving the signals to :func:`stop_signals`."""

        def capture_signals(self):
            return contextlib.nullcontext()

    # Every socket bound before anything is said: a port in use is one line, and each worker has its own
    # socket on the port (the kernel spreads the new connections evenly over them; on one shared socket, the
    # worker awake first would take most).
    sockets = [listen(host, port, reuse_port=workers > 1)]
    port = sockets[0].getsockname()[1]
    sockets += [listen(host, port, reuse_port=True) for _ in range(workers - 1)]
    line_socket = None if line_games is None else listen(host, tcp_port, what=" for the line protocol")
    # The Host headers are those of the port bound (port 0 chooses one).
    server = Server(uvicorn.Config(create_app(store, served_hosts(host, port)), host=host, port=port,
                                   log_level="warning", http=bounded_protocol(read_timeout, max_connections),
                                   h11_max_incomplete_event_size=MAX_HEAD))
    lines = listening_lines(host, sockets[0].getsockname()[0], port,
                            None if line_socket is None else line_socket.getsockname()[1],
                            None if line_games is None else line_games.rules)
    if workers > 1:
        lines.insert(1, f"mmlogic serve: {workers} worker processes")
        return run_workers(server, sockets, lines, say)
    with stop_signals(stoppable(server)) as received:
        for line in lines:
            say(line)
        if line_games is None:
            asyncio.run(server.serve(sockets=sockets))
        else:
            asyncio.run(serve_beside(lambda: server.serve(sockets=sockets), line_games, host, tcp_port,
                                     read_timeout=read_timeout, sock=line_socket))
    return exit_code(received)


def run_workers(server, sockets: list[socket.socket], lines: list[str], say: Callable[[str], None]) -> int:
    """Fork a process per socket, each serving ``server`` on its socket, and wait for them (after ``lines``
    said); the exit code, as :func:`run_server`'s.

    The first process passes each signal it gets on to the workers as SIGTERM. The stop signals are blocked
    in the thread that forks: a worker (a copy of that thread alone) holds one that comes before it has its
    handlers (a terminal's Ctrl-C reaches it too) until it has them. This process's other threads (numpy's)
    still take them, so its handler runs meanwhile all the same: what it gets while the workers are forked
    is passed on once the last one is. A worker that ends by itself stops the others, and the command fails
    in one line.
    """
    pids: list[int] = []
    forked = False
    forwarded = 0

    def forward() -> None:
        """Pass each signal received and not passed on yet to the workers (once they are all forked)."""
        nonlocal forwarded
        while forked and forwarded < len(received):
            forwarded += 1
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGTERM)

    ended = None
    with stop_signals(lambda number: forward()) as received:
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
        for line in lines:
            say(line)
        parent = os.getpid()
        try:
            for own in sockets:
                pid = os.fork()
                if pid == 0:  # pragma: no cover - a forked child, measured by the tests that run serve --workers
                    serve_worker(server, own, sockets, parent, blocked)
                pids.append(pid)
        finally:
            for sock in sockets:  # the workers' now
                sock.close()
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        forked = True
        forward()  # what came while they were forked
        while pids:
            # Seen without being reaped (WNOWAIT), then forgotten, then reaped: a pid is never signalled
            # once the system may give it to another process.
            pid = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT).si_pid
            if pid in pids:
                pids.remove(pid)
            _, status = os.waitpid(pid, 0)
            if not received and ended is None:  # a worker ended by itself: the others with it
                ended = os.waitstatus_to_exitcode(status)
                for other in pids:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(other, signal.SIGTERM)
    if ended is not None and not received:
        how = f"killed by {signal.Signals(-ended).name}" if ended < 0 else f"exit status {ended}"
        raise MMLogicError(f"a worker process ended by itself ({how}); the server stopped")
    return exit_code(received)


def serve_worker(server, own: socket.socket, sockets: list[socket.socket], parent: int,
                 blocked: set[int]) -> None:  # pragma: no cover - a forked child
    """A worker's life, in the forked child: serve ``server`` on the socket ``own`` until SIGTERM (from the
    first process, or the system's), then end the process (never returns)."""
    code = 1
    try:
        die_with_parent(parent)  # ends at once if the first process has gone already
        for sock in sockets:
            if sock is not own:
                sock.close()
        # A terminal's Ctrl-C (and SIGHUP) reaches every process of its group: the first process passes it on.
        for number in STOPS:
            if number != signal.SIGTERM:
                signal.signal(number, signal.SIG_IGN)
        with stop_signals(stoppable(server)) as received:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            asyncio.run(server.serve(sockets=[own]))
        code = exit_code(received)
    finally:
        end_now(code)
