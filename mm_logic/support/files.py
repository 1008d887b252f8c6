"""Files a user names: read and written as they are found.

One place decides, for every command and script, what a user's path may be,
and holds a file a command appends to while it runs (:class:`OutputLock`):

* a file read (a tree file, a sweep's ``--out`` read back, an encoding, a
  script's earlier rows) must be a regular file, or a link to one, and is read
  with a bound, :data:`MAX_READ_BYTES`: a device such as ``/dev/zero`` would
  be read until memory ran out, and a FIFO would be waited on for ever;
* a file written (``--out``, ``--csv``, ``--save-tree``, ``--png``, a
  script's ``--json``) must be a new path or a regular file. A symbolic link
  is written through: its target is what is written (and replaced, for files
  written whole), the link stays. A device node or a FIFO is refused: the
  rename that writes a file whole would have put a regular file in its place,
  and a FIFO would have blocked.

Neither check ever opens a FIFO in a way that waits (:data:`os.O_NONBLOCK`),
and a refusal changes nothing on disk.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .errors import BadInput

#: The most a file named by a user is read (1 GiB; docs/cli.md, "Files"): a tree file takes some
#: 32 bytes a code (5 pegs of 8 colours with ``first``: 32,768 codes, 1.0 MB), so the trees of the
#: largest ``bench --all --save-tree`` (20,000,000 codes) read back.
MAX_READ_BYTES = 1024 * 1024 * 1024


def _bytes(n: int) -> str:
    """A size as the messages and the docs say it: ``1 GiB``, ``64 MiB``, ``1,000 bytes``."""
    for unit, name in ((2**30, "GiB"), (2**20, "MiB")):
        if n % unit == 0:
            return f"{n // unit} {name}"
    return f"{n:,} bytes"


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in a user's words."""
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a special file"


def not_regular(path: Path) -> str | None:
    """What ``path`` (a link followed) is when it is no regular file (``"a FIFO"``, ``"a
    character device"``, ...); None for a regular file, or a path that does not exist or
    cannot be looked at (opening it says why).

    Nothing is opened: :func:`os.stat` only.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else _kind(mode)


def read_bytes(path: Path, what: str) -> bytes:
    """The bytes of the file a user named, as ``what`` (``"tree file"``, ``"--out"``).

    One :class:`BadInput` line when it is not a regular file or is larger than
    :data:`MAX_READ_BYTES`; a file that cannot be opened or read raises its
    :class:`OSError`, for the caller to word as it words a missing file.
    """
    kind = not_regular(path)
    if kind is not None:  # not even opened: opening a device may act (a tape rewinds)
        raise BadInput(f"{what} {path} is {kind}, not a regular file")
    # O_NONBLOCK: a FIFO made meanwhile opens at once (and is refused below) instead of waiting.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as file:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise BadInput(f"{what} {path} is {_kind(mode)}, not a regular file")
        data = file.read(MAX_READ_BYTES + 1)  # not st_size: /proc's files say 0
    if len(data) > MAX_READ_BYTES:
        raise BadInput(f"{what} {path} is larger than {_bytes(MAX_READ_BYTES)}, more than mmlogic reads")
    return data


def from_here(path) -> str:
    """``path`` as a command run in the current folder can name it (in advice: "give --feedback PATH"): relative
    where it is in that folder or below, else absolute."""
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute)
    return absolute if relative.split(os.sep)[0] == ".." else relative


def read_text(path: Path, what: str) -> str:
    """:func:`read_bytes` decoded as UTF-8 (:class:`UnicodeDecodeError` is the caller's to word)."""
    return read_bytes(path, what).decode("utf-8")


def read_named_text(path: Path, what: str) -> str:
    """:func:`read_text` of a file a user named as ``what`` (``"answers file"``), where a file that cannot be read
    or is not UTF-8 is one :class:`BadInput` line too (``answers file a.jsonl is not UTF-8 text``)."""
    try:
        return read_text(path, what)
    except OSError as error:
        raise BadInput(f"cannot read {what} {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise BadInput(f"{what} {path} is not UTF-8 text") from None


def check_output(path: Path) -> None:
    """Refuse (:class:`OSError`, with ``strerror`` a user reads) an output path that is not a new
    path or a regular file, and one that cannot be written; create nothing, change nothing.

    A link is followed: its target is checked (a dangling link names a new file). The probe
    opens for appending without waiting, so that a FIFO made meanwhile is refused too.
    """
    kind = not_regular(path)
    if kind is not None:
        raise OSError(errno.EINVAL, f"{kind}, not a regular file")
    target = target_of(path)
    existed = target.exists()
    fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0),
                 0o666)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, f"{_kind(os.fstat(fd).st_mode)}, not a regular file")
    finally:
        os.close(fd)
        if not existed:
            target.unlink(missing_ok=True)


def same_file(one: Path, other: Path) -> bool:
    """Whether ``one`` and ``other`` name the same file: the same path once links are followed, or, both
    existing, the same file on disk (a hard link: another name of the same inode, which no path shows)."""
    if Path(one).resolve() == Path(other).resolve():
        return True
    try:
        return os.path.samefile(one, other)
    except OSError:  # one of them does not exist (yet): not the same file
        return False


def target_of(path: Path) -> Path:
    """The file writing ``path`` writes: ``path`` itself, or the target of the link it is (the
    link is kept; a rename over ``path`` would have replaced the link by a file)."""
    path = Path(path)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


class OutputLock:
    """A file one command at a time appends to (a sweep's ``--out``, an optimal search's ``--journal``): an
    advisory lock (``flock``) on the file.

    Two sweeps on one ``--out`` each read it before the other wrote a row, and both ran every case: 12 rows
    for 6; two searches on one journal both searched every part, their lines interleaved. The second now
    refuses at once (:meth:`take`). The lock follows the file when it is replaced (:meth:`replace`), and
    goes with the process, however it ends. Where there is no ``flock`` (Windows) nothing is held.
    """

    def __init__(self, path: Path, fd: int | None):
        self.path = path
        self.fd = fd

    @classmethod
    def take(cls, path: Path, option: str = "--out", writer: str = "sweep") -> OutputLock:
        """Hold ``path`` (made if missing), or refuse in one line (exit 2) where another process holds it:
        ``--out FILE is being written by another sweep`` (``option``, ``writer``)."""
        try:
            import fcntl
        except ImportError:
            return cls(path, None)
        while True:
            try:
                fd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o666)
            except OSError:
                return cls(path, None)  # not even readable: reading it says so in its own line
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise BadInput(f"{option} {path} is being written by another {writer}, still running; wait for "
                               "it to end (the same command then runs what it left), or name another file") from None
            except OSError:  # a file system without locks (ENOLCK): written as before, unguarded
                os.close(fd)
                return cls(path, None)
            # The holder may have replaced the file (a sweep's load_rows) between our open and our lock: the
            # file we hold must be the one the name gives.
            try:
                held, named = os.fstat(fd), os.stat(path)
                if (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino):
                    return cls(path, fd)
            except OSError:
                pass
            os.close(fd)

    def replace(self, source: str) -> None:
        """``os.replace(source, path)``, the lock moved to the new file before its name is."""
        if self.fd is None:
            os.replace(source, self.path)
            return
        import fcntl
        fd = os.open(source, os.O_RDONLY)
        fcntl.flock(fd, fcntl.LOCK_EX)  # a file nobody else knows yet: taken at once
        os.replace(source, self.path)
        os.close(self.fd)
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def same_json(read, expected) -> bool:
    """Whether ``read`` (parsed from a file) is the JSON value ``expected``: of the same JSON types all through.

    Python's ``==`` takes ``true`` for ``1`` and ``1.0`` for ``1``: a journal whose header said ``"version":
    true`` was read as version 1."""
    if type(read) is not type(expected):
        return False
    if isinstance(expected, dict):
        return read.keys() == expected.keys() and all(same_json(read[key], expected[key]) for key in expected)
    if isinstance(expected, list):
        return len(read) == len(expected) and all(map(same_json, read, expected))
    return read == expected
