"""A real ``mmlogic serve`` in a child process, on free ports of 127.0.0.1, for scripts and tests.

``py/tools/serve_load.py``, ``py/tools/seed003_vs_swipl.py --client`` and the tests that
need a live server (the client, the web page, seed 003's client) start it the
same way: the console script beside this Python, ``--port`` (and
``--tcp-port`` when asked) on free ports, ready once both accept
connections, stopped as Ctrl-C stops it.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


def free_port() -> int:
    """A TCP port nobody listens on at the moment, on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerProcess:
    """``mmlogic serve OPTIONS`` on 127.0.0.1; a context manager that stops it on exit.

    ``url`` is its HTTP address (on ``port``, else a free one); with ``tcp=True`` it also serves seed 003's
    line protocol on ``tcp_port``. Raises RuntimeError, with the server's
    error, if it does not accept connections within ``wait`` seconds.
    """

    def __init__(self, *options: str, tcp: bool = False, wait: float = 30.0, port: int | None = None):
        self.port = free_port() if port is None else port  # a given port: the same server started again
        self.tcp_port = free_port() if tcp else None
        self.url = f"http://127.0.0.1:{self.port}"
        command = [str(Path(sys.executable).parent / "mmlogic"), "serve", "--port", str(self.port), *options]
        if tcp:
            command += ["--tcp-port", str(self.tcp_port)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + wait
        for port in filter(None, (self.port, self.tcp_port)):
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()  # no request: no game
                    break
                except OSError:
                    if self.process.poll() is not None or time.monotonic() > deadline:
                        self.stop()
                        raise RuntimeError(f"mmlogic serve did not start: {self.output[1].strip()}") from None
                    time.sleep(0.1)

    def stop(self) -> int:
        """Stop the server as Ctrl-C does (killed if it lingers); its exit status.

        What it printed is then in :attr:`output` (stdout, stderr).
        """
        if hasattr(self, "output"):
            return self.process.returncode
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            self.output = self.process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.output = self.process.communicate()
        return self.process.returncode

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
