"""Errors that the command line turns into one clear line and an exit code.

Every error a user can cause derives from :class:`MMLogicError`; the CLI prints
``str(error)`` on one line (its line breaks escaped: :func:`line_breaks_escaped`) and exits
with ``error.exit_code`` (the contract in ``docs/cli.md``: 2 bad usage or input, 3 no
consistent code, 1 other).
"""

from __future__ import annotations

import json
import os
import re
import socket
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

#: How many characters of a long input an error message repeats.
SHOWN = 40
#: In repr()'s text: an escaped backslash, or a byte that was not UTF-8 (Python reads it as a
#: surrogate, U+DC80..U+DCFF, which repr() writes \udcff).
_NOT_UTF8 = re.compile(r"\\\\|\\udc([89a-f][0-9a-f])")
#: Such a byte itself, as Python reads it (``os.fsdecode``, ``surrogateescape``).
_SURROGATE = re.compile("[\udc80-\udcff]")


def quoted(text: str) -> str:
    r"""``repr(text)``, with a byte that was not UTF-8 (typed, or in an argument) written as the
    byte it was, ``\xff``, not as the surrogate Python reads it as (``\udcff``).

    >>> print(quoted("ab" + b"\xff".decode("utf-8", "surrogateescape")), quoted("a\\udcff"))
    'ab\xff' 'a\\udcff'
    """
    return bytes_as_typed(repr(text))


def bytes_as_typed(message: str) -> str:
    r"""``message`` with each byte that was not UTF-8 written ``\xff``, as :func:`quoted` writes
    it: where ``repr()`` quoted it (click's own messages quote so), not ``\udcff``; where it
    stands as it came (a file name), not as the surrogate stderr would print as ``\udcff``.

    >>> print(bytes_as_typed("cannot read " + b"/a\xff".decode("utf-8", "surrogateescape")))
    cannot read /a\xff
    """
    message = _NOT_UTF8.sub(lambda m: m[0] if m[1] is None else f"\\x{m[1]}", message)
    return _SURROGATE.sub(lambda m: f"\\x{ord(m[0]) - 0xDC00:02x}", message)


def shown(text: str) -> str:
    """``text`` as an error message quotes it (:func:`quoted`): whole when short, else its start
    and its length (a pasted megabyte comes back as one readable line)."""
    if len(text) <= SHOWN:
        return quoted(text)
    return f"{quoted(text[:SHOWN])}... ({len(text):,} characters)"


def shown_number(number: int) -> str:
    """A whole number as an error message quotes it: as written when short, else as :func:`shown` quotes a long
    text (a request's 4,000-digit ``pegs`` made an answer of 4,053 bytes).

    >>> shown_number(65), shown_number(10**45), shown_number(10**5000)
    ('65', "'1000000000000000000000000000000000000000'... (46 characters)", 'a number of about 5,001 digits')
    """
    try:
        text = str(number)
    except ValueError:  # more digits than Python writes (4,300): the library's callers pass such ints
        return f"a number of about {int(abs(number).bit_length() * 0.30103) + 1:,} digits"
    return text if len(text) <= SHOWN else shown(text)


#: What ends a line (``str.splitlines``' separators), which an error message writes escaped.
_LINE_BREAK = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def line_breaks_escaped(message: str) -> str:
    r"""``message`` on one line: each character that would end a line written as Python escapes it.

    Every error the command line prints is one line (a file name, or the text of an exception of a user's
    rule module, may hold a line break).

    >>> print(line_breaks_escaped("rule.py: ValueError: one\ntwo"))
    rule.py: ValueError: one\ntwo
    """
    return _LINE_BREAK.sub(lambda m: repr(m[0])[1:-1], message)


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


class RuleFault(BadInput):
    """A rule of one's own failed while it was asked for a feedback (``--feedback FILE.py``: its ``score``
    raised, returned what is no feedback of the rule, ran past its limit or forked): the rule's fault, exit 2 on
    the command line as any bad input; in a server, a question the variant's rule could not answer (HTTP 422,
    whatever the request), not the request's fault nor the game's state."""


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


class StrategyGaveUp(SolverTimeout):
    """A strategy found no guess within its own limit (a genetic strategy's ``--time-limit``).

    Not an engine's failure nor a bug: ``bench`` and ``compare`` count the game as failed and go
    on (seed 001 reports such failure rates); a single game (``solve``) exits 1 as any timeout.
    """


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


def installed_from() -> tuple[Path, bool] | None:
    """The folder mmlogic was installed from (a checkout: it holds pyproject.toml) and whether
    the install is editable, as pip recorded it (``direct_url.json``); None when it came from an
    index, a wheel file, or its folder is gone."""
    from importlib import metadata  # here: it takes a tenth of every command's start-up to import

    try:
        text = metadata.distribution("mmlogic").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    try:
        record = json.loads(text or "{}")
    except ValueError:
        return None
    url = urlparse(record.get("url", ""))
    folder = Path(unquote(url.path))
    if url.scheme != "file" or not (folder / "pyproject.toml").is_file():
        return None
    return folder, bool(record.get("dir_info", {}).get("editable", False))


def _as_typed(path: Path) -> str:
    """``path`` as the user would type it here: relative below the current folder, else absolute."""
    try:
        relative = path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return str(path)
    return relative.as_posix()


def install_hint(extra: str) -> str:
    """The command that adds mmlogic's extra ``extra`` (serve, plot, dask...) to this Python, where
    the user is: this environment's pip (``.venv/bin/pip`` in a virtual environment), and from a
    checkout the checkout (``'.[serve]'``, ``-e`` for an editable install) where
    ``'mmlogic[serve]'`` would ask an index for a package it may not hold.
    """
    in_venv = sys.prefix != sys.base_prefix
    pip = _as_typed(Path(sys.executable).parent / "pip") if in_venv else "pip"
    if "/" not in pip and pip != "pip":  # a program in the current folder is not found without ./
        pip = f"./{pip}"
    source = installed_from()
    if source is None:
        return f"{pip} install 'mmlogic[{extra}]'"
    folder, editable = source
    return f"{pip} install {'-e ' if editable else ''}'{_as_typed(folder)}[{extra}]'"


def clock(seconds: float) -> str:
    """``seconds`` as m:ss, or h:mm:ss from an hour on, as progress lines and bars say how long.

    >>> clock(5.4), clock(65), clock(3725)
    ('0:05', '1:05', '1:02:05')
    """
    seconds = int(seconds)
    hours, minutes = divmod(seconds // 60, 60)
    return f"{hours}:{minutes:02d}:{seconds % 60:02d}" if hours else f"{minutes}:{seconds % 60:02d}"
