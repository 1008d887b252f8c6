"""Errors that the command line turns into one clear line and an exit code.

Every error a user can cause derives from :class:`MMLogicError`; the CLI prints
``str(error)`` on one line and exits with ``error.exit_code`` (the contract in
``docs/cli.md``: 2 bad usage or input, 3 no consistent code, 1 other).
"""

from __future__ import annotations

import os
import socket


def one_line(text) -> str:
    """A message on one line: a solver's message (clingo indents its continuation lines,
    Prolog breaks long terms) joined with single spaces."""
    return " ".join(part.strip() for part in str(text).strip().splitlines() if part.strip())


class MMLogicError(Exception):
    """Base class: a failure the user should read as one line."""

    exit_code = 1


class BadInput(MMLogicError):
    """A code, feedback, rule or option that cannot be used (exit 2)."""

    exit_code = 2


class BackendUnavailable(MMLogicError):
    """The selected engine cannot run here; the message says how to install it (exit 2)."""

    exit_code = 2


class SpaceTooLarge(BadInput):
    """The code space is too large for the engine asked for (exit 2)."""


class NoConsistentCode(MMLogicError):
    """No code satisfies the history (exit 3).

    ``conflict`` holds the indices (0-based) of a smallest set of history
    entries that already contradict each other, when it was computed.
    """

    exit_code = 3

    def __init__(self, message: str, conflict: tuple[int, ...] | None = None):
        super().__init__(message)
        self.conflict = conflict


class SolverTimeout(MMLogicError):
    """One solver call exceeded ``--time-limit`` (exit 1)."""

    exit_code = 1


class WrongAnswer(BadInput):
    """An engine returned a code the history or the rules exclude: its encoding is wrong (exit 2).

    The message names the encoding file, the code and the entry it breaks.
    """


class EncodingError(BadInput):
    """A user or shipped encoding failed to load: syntax or grounding error (exit 2).

    The message is one line that starts with ``file:line``.
    """


def host_port(host: str, port: int) -> str:
    """``host:port``, an IPv6 address in brackets (without them the port is not told from the address).

    >>> host_port("::1", 8000), host_port("127.0.0.1", 8000)
    ('[::1]:8000', '127.0.0.1:8000')
    """
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def cannot_listen(host: str, port: int, error: OSError, what: str = "") -> MMLogicError:
    """The one line for a server that cannot listen on ``host:port`` (a port in use, an address
    that is not this machine's, a name that does not resolve)."""
    if isinstance(error, socket.gaierror) or (error.errno or 0) < 0:
        # Name resolution's codes are negative (socket.create_server re-raises them as OSError).
        reason = f"{host!r} is neither an IP address nor a host name that resolves"
    elif error.errno:
        reason = os.strerror(error.errno).lower()
    else:
        reason = str(error)
    return MMLogicError(f"cannot listen on {host_port(host, port)}{what}: {reason}")
