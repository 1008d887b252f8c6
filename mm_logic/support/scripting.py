"""What the reproduction scripts under ``py/`` share: arguments checked at parse time, one-line errors.

The project's rule holds for the scripts as for ``mmlogic``: bad input is one
line on stderr (``error: ...``) and a non-zero exit, never a traceback; 2 for
bad arguments or input, 1 for other failures, 130 for Ctrl-C. The scripts
use :mod:`argparse`, so

* the argument types here (:func:`count`, :func:`natural`, :func:`positive_seconds`,
  :func:`output_file`, :func:`output_folder`) refuse a bad value while the
  arguments are parsed, before any game is played (argparse prints its usage
  line and ``PROG: error: argument --X: ...``, exit 2);
* :func:`run` runs a script's ``main`` and turns the errors the package raises
  (:class:`~mm_logic.support.errors.MMLogicError`, with its ``exit_code``), a failed file
  or network operation (:class:`OSError`, exit 1) and Ctrl-C (``interrupted``,
  exit 130) into one line.

Typical use::

    parser.add_argument("--games", type=count, default=100)
    parser.add_argument("--json", type=output_file)
    ...
    if __name__ == "__main__":
        run(main)
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from ..notation import quoted
from .errors import MMLogicError
from .files import not_regular
from .interrupts import wrapped_interrupt

EXIT_FAILURE = 1
EXIT_INTERRUPTED = 130


def _integer(text: str) -> int:
    try:
        if not text.isascii() or "_" in text:
            raise ValueError  # int() reads other scripts' digits ('٤' as 4) and '1_0' as 10: numbers are 0-9
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not an integer") from None


def count(text: str) -> int:
    """An argparse type: an integer >= 1 (games, jobs, repeats, sample sizes).

    >>> count("3")
    3
    >>> count("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '0' is not a count (an integer >= 1)
    """
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a count (an integer >= 1)")
    return value


def natural(text: str) -> int:
    """An argparse type: an integer >= 0 (seeds, offsets, "0: none" options).

    >>> natural("0")
    0
    >>> natural("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '-1' is not a natural number (an integer >= 0)
    """
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a natural number (an integer >= 0)")
    return value


def positive_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds > 0 (time limits, caps).

    ``nan`` and ``inf`` are refused: a limit that never ends, or compares false
    with every time, is not a limit.

    >>> positive_seconds("0.5")
    0.5
    >>> positive_seconds("inf")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'inf' is not a number of seconds (finite, > 0)
    """
    try:
        # float() reads '٤' as 4 and '1_0' as 10: numbers are written with 0-9
        value = float(text) if text.isascii() and "_" not in text else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number of seconds (finite, > 0)")
    return value


def _writable_folder(folder: Path) -> bool:
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


def output_file(text: str) -> Path:
    """An argparse type: a file the script will write, checked before any work.

    Its folder must exist and be writable, and it must not be a folder: the
    scripts write their results after minutes of games, too late to find out.
    An existing file must be a regular file, or a link to one (written through):
    a FIFO or a device is refused (:func:`mm_logic.support.files.not_regular`).
    The file itself is neither created nor truncated here.
    """
    path = Path(text)
    if not text or path.is_dir():
        raise argparse.ArgumentTypeError(f"{quoted(text)} is a folder, not a file name" if text
                                         else "an empty file name")
    kind = not_regular(path)
    if kind is not None:  # written in place, a FIFO would be waited on for ever
        raise argparse.ArgumentTypeError(f"cannot write {text}: {kind}, not a regular file")
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: no folder {str(folder)!r}")
    if not _writable_folder(folder) or (path.exists() and not os.access(path, os.W_OK)):
        raise argparse.ArgumentTypeError(f"cannot write {text}: permission denied")
    return path


def output_folder(text: str) -> Path:
    """An argparse type: a folder the script will write into (made if missing), checked before any work.

    The folder, or the nearest of its parents that exists, must be a writable
    folder; nothing is created here.
    """
    path = Path(text)
    if not text:
        raise argparse.ArgumentTypeError("an empty folder name")
    existing = next(p for p in (path.absolute(), *path.absolute().parents) if p.exists())
    if not existing.is_dir():  # a FIFO or a device is said as what it is
        raise argparse.ArgumentTypeError(f"cannot write into {text}: {str(existing)!r} is "
                                         f"{not_regular(existing) or 'a file'}")
    if not _writable_folder(existing):
        raise argparse.ArgumentTypeError(f"cannot write into {text}: permission denied")
    return path


def fail(message: str, exit_code: int = EXIT_FAILURE) -> NoReturn:
    """Print ``error: message`` on stderr (one line) and exit with ``exit_code``."""
    print(f"error: {' '.join(message.split())}", file=sys.stderr)
    sys.exit(exit_code)


def _describe(error: OSError) -> str:
    """An OSError as one line: ``FILE: reason`` (``[Errno 2] ...`` says less to a reader)."""
    reason = (error.strerror or str(error) or type(error).__name__).lower()
    return f"{error.filename}: {reason}" if error.filename is not None else reason


def run(main: Callable[[], int | None]) -> NoReturn:
    """Run a script's ``main`` and exit with its return value (None is 0), errors as one line.

    * :class:`~mm_logic.support.errors.MMLogicError`: its message, its ``exit_code``;
    * :class:`OSError` (a file that cannot be read or written, a refused
      connection): ``FILE: reason``, exit 1;
    * Ctrl-C: ``interrupted``, exit 130;
    * a closed stdout (``script | head``): exit 1 quietly, as ``mmlogic`` does.

    Anything else is a bug in the script and keeps its traceback.
    """
    try:
        code = main()
    except MMLogicError as error:
        fail(str(error), error.exit_code)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(EXIT_INTERRUPTED)
    except SystemError as error:
        if not wrapped_interrupt(error):  # Ctrl-C in a numba kernel the script calls itself
            raise
        print("interrupted", file=sys.stderr)
        sys.exit(EXIT_INTERRUPTED)
    except BrokenPipeError:
        # Python flushes stdout again at exit, which would fail and print a warning.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - open for the rest of the process
        sys.exit(EXIT_FAILURE)
    except OSError as error:
        fail(_describe(error), EXIT_FAILURE)
    sys.exit(code or 0)
