"""The embedded SWI-Prolog: finding a janus-capable one, and the one runtime object over it.

:func:`load_janus` finds SWI-Prolog and imports ``janus_swi``;
:class:`PrologRuntime` (one per process, :func:`runtime`) holds what the
adapter keeps across engines: the bridge module consulted once, the modules
of the encodings loaded so far, the lock that serialises loading, and the
thread that loads (:class:`Loader`: a load runs its directives with signals
blocked, so the thread that asked waits for it where Ctrl-C and the time
limit reach it).

The ``swipl`` engine runs SWI-Prolog in-process through the PyPI package
``janus-swi``, which needs SWI-Prolog >= 9.1.12. On Debian 12 that is not a
system package, so ``scripts/install-swipl.sh VENV`` unpacks one privately into
``VENV/opt/swipl`` and puts a ``VENV/bin/swipl`` wrapper next to the venv's
Python (see ``shared/notes/swi-prolog.md``). Elsewhere a ``swipl`` on ``PATH``
that is new enough is used as is.

Two things must be right *before* the first ``import janus_swi``, because the
embedded Prolog is initialised at import time and a wrong setup aborts the whole
process (``FATAL ERROR ... Could not find system resources``) instead of raising:

* ``SWI_HOME_DIR`` must name the Prolog home (``PLBASE``): inside Python the
  running executable is ``python``, so libswipl cannot find its home from it.
* ``libswipl.so.9`` must be loadable. The extension module records the folder it
  was built against as its RUNPATH, but ``LD_LIBRARY_PATH`` cannot be changed
  for a process that is already running, so the library reported by
  ``swipl --dump-runtime-variables`` (``PLLIBSWIPL``) is loaded first with
  ``RTLD_GLOBAL``; the dynamic linker then reuses it, by soname, for the
  extension. That also keeps working when the wheel's RUNPATH is stale.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import importlib
import importlib.util
import itertools
import os
import queue
import re
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import ModuleType

from ...support.errors import BackendUnavailable, EncodingError, SolverTimeout, one_line
from ...support.interrupts import ENDINGS, abandon, interrupts_held, wait_for
from ...support.resources import encoding_path, encodings_dir
from ...support.waiting import waiting

#: Oldest SWI-Prolog janus-swi accepts (its build refuses anything older).
MIN_VERSION: tuple[int, int, int] = (9, 1, 12)

#: Serialises starting the runtime (:func:`runtime`).
_lock = threading.Lock()


def _venv_hint() -> str:
    """The venv argument to suggest: the running one when we are in a venv."""
    if sys.prefix != getattr(sys, "base_prefix", sys.prefix):
        return sys.prefix
    return "<venv>"


def _unavailable(what: str) -> BackendUnavailable:
    """One-line error: what is missing, and the command that installs it."""
    message = (
        f"the swipl backend needs SWI-Prolog >= {'.'.join(map(str, MIN_VERSION))} "
        f"and janus-swi, but {what}: run `bash scripts/install-swipl.sh {_venv_hint()}` "
        "from the mmlogic checkout (see docs/install.md)"
    )
    # The CLI prints str(error) as one line: fold any newline from a cause.
    return BackendUnavailable(" ".join(message.split()))


@functools.cache
def _runtime_variables(swipl: str) -> dict[str, str]:
    """``swipl --dump-runtime-variables`` as a dict (empty if it fails).

    Cached per executable: it costs a Prolog start-up (~50 ms). The output is
    shell syntax, one ``NAME="value";`` per line.
    """
    try:
        proc = subprocess.run(
            [swipl, "--dump-runtime-variables"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return {}
    if proc.returncode != 0:
        return {}
    variables: dict[str, str] = {}
    for line in proc.stdout.splitlines():
        name, sep, value = line.partition("=")
        if sep:
            variables[name.strip()] = value.strip().rstrip(";").strip('"')
    return variables


def _version(swipl: str) -> tuple[int, int, int] | None:
    """The (major, minor, patch) of ``swipl``, from PLVERSION (e.g. 90209)."""
    raw = _runtime_variables(swipl).get("PLVERSION", "")
    if not raw.isdigit():
        return None
    number = int(raw)
    return (number // 10000, number // 100 % 100, number % 100)


def _candidates() -> list[str]:
    """Where to look, best first: the venv's own wrapper, then ``PATH``."""
    found: list[str] = []
    # Not resolved: in a venv sys.executable is VENV/bin/python (a symlink to
    # the base interpreter), and the wrapper sits next to it.
    wrapper = Path(sys.executable).parent / "swipl"
    if wrapper.is_file() and os.access(wrapper, os.X_OK):
        found.append(str(wrapper))
    on_path = shutil.which("swipl")
    if on_path and on_path not in found:
        found.append(on_path)
    return found


def find_swipl() -> str | None:
    """The ``swipl`` executable to use, or None if none is >= 9.1.12."""
    for candidate in _candidates():
        version = _version(candidate)
        if version is not None and version >= MIN_VERSION:
            return candidate
    return None


def _describe_missing_swipl() -> str:
    """Why find_swipl() found nothing, for the error message."""
    for candidate in _candidates():
        version = _version(candidate)
        if version is None:
            return f"{candidate} does not run (`swipl --dump-runtime-variables` failed)"
        return f"{candidate} is SWI-Prolog {'.'.join(map(str, version))}"
    return "no swipl was found next to the Python interpreter or on PATH"


def _prepare(swipl: str) -> None:
    """Set SWI_HOME_DIR and preload libswipl, before janus_swi is imported."""
    variables = _runtime_variables(swipl)
    plbase = variables.get("PLBASE")
    if not plbase or not Path(plbase).is_dir():
        raise _unavailable(f"{swipl} reports no usable home (PLBASE)")
    # An explicit setting wins: the user may point at another home on purpose.
    os.environ.setdefault("SWI_HOME_DIR", plbase)

    libswipl = variables.get("PLLIBSWIPL")  # printed by 9.x; absent before
    if not libswipl:
        libdir = variables.get("PLLIBDIR", "")
        libswipl = os.path.join(libdir, "libswipl.so.9") if libdir else ""
    if libswipl and os.path.exists(libswipl):
        try:
            # RTLD_GLOBAL: the extension module and any Prolog foreign library
            # loaded later resolve their PL_* symbols against this copy.
            ctypes.CDLL(libswipl, mode=ctypes.RTLD_GLOBAL)
        except OSError as exc:
            raise _unavailable(f"{libswipl} cannot be loaded ({exc})") from exc
    # Otherwise (e.g. macOS frameworks) rely on the extension's own RUNPATH.


def load_janus() -> ModuleType:
    """Return the imported ``janus_swi`` module, ready to run queries.

    Raises :class:`~mm_logic.support.errors.BackendUnavailable` (one line, with the
    install command) when SWI-Prolog or janus-swi is missing or unusable.
    :func:`runtime` calls it once per process.
    """
    swipl = find_swipl()
    if swipl is None:
        raise _unavailable(_describe_missing_swipl())
    # Check it is installed before touching the process: find_spec does not
    # run the extension (which would initialise Prolog).
    if importlib.util.find_spec("janus_swi") is None:
        raise _unavailable(f"janus-swi is not installed in {sys.prefix}")
    _prepare(swipl)
    try:
        with interrupts_held():  # Ctrl-C while Prolog starts would be a SystemError
            return importlib.import_module("janus_swi")
    except Exception as exc:  # ImportError, or janus's own RuntimeError
        raise _unavailable(f"janus-swi failed to load ({type(exc).__name__}: {exc})") from exc


# -- the runtime object -------------------------------------------------------------------
#: The Prolog half of the adapter, consulted once per process.
BRIDGE = Path(__file__).resolve().parent / "bridge.pl"
#: Prolog inferences between two heartbeats (time-limit checks and Python
#: signal handling): about a millisecond; measured to cost about 2 % (within
#: noise) of 5x8 games and of Shapiro's bench.
HEARTBEAT = 10_000
#: The shipped encoding, used unless the engine is given ``encoding``.
ENTRY = "mastermind.pl"
#: Module name of the shipped encoding (its ``:- module`` line).
SHIPPED_MODULE = "mastermind"
#: The one query every question runs; data goes through janus' inputs, so
#: janus' per-query-text cache never grows.
QUERY = "mmlogic_swipl:asking(N, M, rules(P, K, R), Y, H, Q, L, T, A)"
#: The question of a rule stated in Prolog (:meth:`PrologRuntime.told`), its data through janus' inputs too.
TOLD_QUERY = "mmlogic_swipl:told_table(N, M, rules(P, K, R), G, S, A, T, Answer)"
_LOCATION = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?:\d+:)?\s*")
#: How long a load may go on past its time limit, or after Ctrl-C, before it is left running (seconds): a
#: directive the heartbeat reaches stops within milliseconds, and the rest of the file then loads.
LOAD_GRACE = 1.0


class CtrlCWatch:
    """Ctrl-C, and the time limit, for a question whose loop never reaches the heartbeat (a user's
    ``spin :- spin.``) or that waits in C (``sleep/1``).

    Python runs its SIGINT handler between bytecodes only; the heartbeat gives
    it that chance every :data:`HEARTBEAT` inferences, but a loop of last-call
    jumps makes none and never returns to Python. So while a question runs in
    the main thread, Python's C-level handler also writes the signal's number
    to a socket (:func:`signal.set_wakeup_fd`), and a watcher thread that
    reads it asks Prolog (``thread_signal/2``) to stop that question. janus
    releases the GIL while Prolog runs, so the watcher runs meanwhile. The
    questions of other threads (the server's) are stopped by the heartbeat
    alone: only the main thread may set the wakeup descriptor.

    A question that waits in C takes a thread signal only when its wait is
    interrupted (embedded, SWI-Prolog installs no signal handler to do it):
    the watcher then sends the main thread :data:`WAKE`, whose handler
    (Prolog's, ``take_wake_signal/1``) does nothing. The alarm of the time limit does not interrupt such a wait
    either: a question still running :data:`EXPIRY_GRACE` s past its time
    limit is stopped by the watcher as by the alarm (``expire_question/1``).

    The watcher may read its byte late (it waits for the GIL), when the
    heartbeat has already stopped that question and the next one runs. So
    the questions take turns over :data:`SLOTS` sockets, and a byte is read
    as meant for the question that held its socket when it was written.
    """

    #: Sockets the questions take in turn: a byte read after this many more questions would be misread.
    SLOTS = 8
    #: The signal that interrupts the main thread's wait in C, so that Prolog takes the stop sent to it.
    WAKE = signal.SIGUSR1
    #: Seconds past its time limit after which the watcher stops a question that the alarm did not stop.
    EXPIRY_GRACE = 0.5

    def __init__(self, janus: ModuleType):
        self.janus = janus
        self._readers: list[socket.socket] = []  # made, and the watcher started, by the first question
        self._writers: list[socket.socket] = []
        self._holders = [0] * self.SLOTS  # the question each socket was last lent to
        self._forward = -1  # the wakeup descriptor ours replaced while a question runs
        self._active = False
        #: The question running in the main thread (0: none), and when the watcher stops it (None: never).
        self._running, self._expires = 0, None
        self._wakes = False  # whether WAKE is ours to send
        #: The expiry the watcher waits for (None: only for a byte); a question's earlier one wakes it up.
        self._armed: float | None = None

    def _start(self) -> None:
        """The sockets and the watcher, at the first question of the main thread: a process whose
        questions all run in other threads (the server's) holds none of them."""
        pairs = [socket.socketpair() for _ in range(self.SLOTS)]
        self._readers = [reader for reader, _ in pairs]
        self._writers = [writer for _, writer in pairs]
        for writer in self._writers:
            writer.setblocking(False)  # set_wakeup_fd needs it
        if signal.getsignal(self.WAKE) == signal.SIG_DFL:  # someone else's handler stays as it is
            # Prolog's own handler (Python's would write the signal to the wakeup descriptor: an asyncio
            # loop's, or a question's, where it is no Ctrl-C).
            wake = {"S": self.WAKE.name.removeprefix("SIG").lower()}  # usr1
            self._wakes = self.janus.query_once("mmlogic_swipl:take_wake_signal(S)", wake)["truth"]
        threading.Thread(target=self._watch, name="mmlogic-swipl-ctrl-c", daemon=True).start()

    @contextlib.contextmanager
    def watching(self, number: int, seconds: float | None = None):
        """While question ``number`` runs: Ctrl-C reaches the watcher too, and the watcher stops it
        :data:`EXPIRY_GRACE` s past ``seconds`` (None: no limit), in the main thread only."""
        if self._active or threading.current_thread() is not threading.main_thread():
            yield
            return
        if not self._writers:
            self._start()
        slot = number % self.SLOTS
        self._holders[slot] = number
        previous = None
        try:
            previous = signal.set_wakeup_fd(self._writers[slot].fileno(), warn_on_full_buffer=False)
            self._forward, self._active = previous, True
            self._running = number
            self._expires = None if not seconds else time.monotonic() + seconds + self.EXPIRY_GRACE
            armed = self._armed
            if self._expires is not None and (armed is None or armed > self._expires):
                with contextlib.suppress(OSError):
                    self._writers[slot].send(b"\0")  # the watcher takes the new expiry (0 is no signal)
            yield
        finally:
            self._running, self._expires = 0, None
            self._forward, self._active = -1, False
            if previous is not None:
                signal.set_wakeup_fd(previous)

    def _watch(self) -> None:
        selector = selectors.DefaultSelector()
        for slot, reader in enumerate(self._readers):
            selector.register(reader, selectors.EVENT_READ, slot)
        stopped = 0
        while True:
            # Unarmed before the expiry is read: a question that begins meanwhile sees None and wakes us.
            self._armed = None
            running, expires = self._running, self._expires
            self._armed = expires
            ready = selector.select(None if expires is None else max(0.0, expires - time.monotonic()))
            if not ready and running and running != stopped and running == self._running \
                    and time.monotonic() >= expires:
                stopped = running  # past its expiry: stopped once, as the alarm would
                self._stop("expire_question", running)
            for key, _ in ready:
                try:
                    received = key.fileobj.recv(64)
                except OSError:
                    return
                forward, number = self._forward, self._holders[key.data]
                if forward != -1 and received.strip(b"\0"):
                    # The descriptor set before ours (an asyncio loop's) learns of the signal too.
                    with contextlib.suppress(OSError):
                        os.write(forward, received.replace(b"\0", b""))
                # Once per question: a second Ctrl-C (or one sent to a process group twice) finds it stopping.
                # SIGTERM and SIGHUP, where the command takes them as Ctrl-C (interrupts.ENDINGS), stop it too.
                if number != stopped and any(ending in received for ending in ENDINGS):
                    stopped = number
                    self._stop("stop_question", number)

    def _stop(self, predicate: str, number: int) -> None:
        """Ask Prolog to stop question ``number`` (``stop_question/1``: Ctrl-C; ``expire_question/1``: the
        time limit), then interrupt a wait in C of the main thread, where the stop is taken."""
        # Run by the question's thread at its next call port; a no-op once the question ended.
        with contextlib.suppress(Exception):
            self.janus.query_once(f"mmlogic_swipl:{predicate}(N)", {"N": number})
        if self._wakes and self._running == number:
            with contextlib.suppress(OSError, ValueError):
                signal.pthread_kill(threading.main_thread().ident, self.WAKE)


class _Load:
    """One load the :class:`Loader`'s thread runs: its inputs, and its outcome once :attr:`done`."""

    def __init__(self, inputs: dict):
        self.inputs = inputs
        self.done = threading.Event()
        #: ``("loaded", module, messages)``, ``("timeout",)``, ``("interrupted",)`` or ``("error", text)``.
        self.outcome: tuple = ("error", "the load did not run")


class Loader:
    """Loads encodings in a thread of its own, while the thread that asked waits for the load, Ctrl-C and
    the time limit.

    SWI-Prolog runs a file's directives with signals blocked (``load_files/2`` runs in ``sig_atomic/1``):
    the alarm of ``call_with_time_limit/2`` and the watcher's ``thread_signal/2`` (:class:`CtrlCWatch`)
    wait for the load to end, and the heartbeat sees neither a loop of last calls (``spin :- spin.``) nor
    a wait in C (``sleep/1``). Such a directive, loaded in the thread that asked, could only be killed
    (SIGKILL). Here the thread that asked waits in slices, where Ctrl-C (SIGTERM, SIGHUP) and the time
    limit reach it; the load is then stopped by its heartbeat where it can be (the deadline, and
    ``stop_load/1`` for Ctrl-C), and a load that has not ended :data:`LOAD_GRACE` s later is left running:
    its thread is abandoned (:func:`mm_logic.support.interrupts.abandon`: the command's process then ends without
    waiting for it), its file refused from then on (loading it again would wait for that load), and the
    next load gets a thread of its own.

    A directive runs in the loader's thread: the Prolog flags it sets (most are a thread's own) are set
    in the thread that asked too (``adopt_flags/1``), but a global variable it sets (``nb_setval/2``) is
    not seen by questions, which run in the caller's thread (or the server's).
    """

    def __init__(self, runtime: PrologRuntime):
        self.runtime = runtime
        self._numbers = itertools.count(1)
        self._jobs: queue.SimpleQueue | None = None
        self._thread: threading.Thread | None = None
        #: The files whose load was left running.
        self.left_running: set[Path] = set()

    def load(self, file: Path, wanted: str, seconds: float | None) -> tuple:
        """``mmlogic_swipl:load_encoding/6`` of ``file`` as module ``wanted`` within ``seconds`` (None: no
        limit), in the loader's thread; its outcome (:attr:`_Load.outcome`). Ctrl-C while it runs stops it
        and is raised here."""
        number = next(self._numbers)
        job = _Load({"N": number, "F": str(file), "W": wanted, "S": float(seconds or 0)})
        if self._thread is None:
            self._jobs = queue.SimpleQueue()
            self._thread = threading.Thread(target=self._serve, args=(self._jobs,), name="mmlogic-swipl-load",
                                            daemon=True)
            self._thread.start()
        self._jobs.put(job)
        deadline = None if not seconds else time.monotonic() + seconds + LOAD_GRACE
        try:
            ended = wait_for(job.done, deadline)
        except KeyboardInterrupt:
            try:
                self._stop(number)
                wait_for(job.done, time.monotonic() + LOAD_GRACE)
            finally:
                if not job.done.is_set():
                    self._leave(file)
            raise
        if not ended:  # past the deadline, and the heartbeat did not end it: a directive it does not reach
            self._stop(number)
            self._leave(file)
            return ("timeout",)
        return job.outcome

    def _stop(self, number: int) -> None:
        """Ask load ``number`` to stop at its next heartbeat (``stop_load/1``)."""
        with contextlib.suppress(Exception):  # a janus error here changes nothing: the load is left then
            self.runtime.janus.query_once("mmlogic_swipl:stop_load(N)", {"N": number})

    def _leave(self, file: Path) -> None:
        """Leave the load of ``file`` running in its thread, and take a new thread for the next load."""
        abandon(self._thread)
        self.left_running.add(file)
        self._thread = self._jobs = None

    def _serve(self, jobs: queue.SimpleQueue) -> None:
        """The loader's thread: the loads, one by one (a thread left running serves no other)."""
        runtime = self.runtime
        while True:
            job = jobs.get()
            try:
                answer = runtime.janus.query_once(LOAD_QUERY, job.inputs)
                job.outcome = ("loaded", answer["M"], answer["Msgs"])
            except runtime.janus.PrologError as error:
                if runtime.interrupted(error):
                    job.outcome = ("interrupted",)
                elif runtime.janus.query_once("E == time_limit_exceeded", {"E": error.term})["truth"]:
                    job.outcome = ("timeout",)
                else:
                    job.outcome = ("error", one_line(error))
            except Exception as error:  # noqa: BLE001 - said by the thread that asked, as its one line
                job.outcome = ("error", one_line(error))
            finally:
                job.done.set()


#: The load the :class:`Loader`'s thread runs; data goes through janus' inputs.
LOAD_QUERY = "mmlogic_swipl:load_encoding(N, F, W, S, M, Msgs)"


class PrologRuntime:
    """SWI-Prolog in this process, with the bridge consulted and the encodings loaded so far.

    Use :func:`runtime` to get the process's one instance.
    """

    def __init__(self, janus: ModuleType):
        self.janus = janus
        self._lock = threading.RLock()
        #: Encoding file (resolved) -> module that holds it.
        self._modules: dict[Path, str] = {}
        self._numbers = itertools.count(1)
        self._questions = itertools.count(1)
        self._ctrl_c = CtrlCWatch(janus)
        self._loader = Loader(self)
        janus.consult(str(BRIDGE))
        # What an encoding prints (a directive's writeln/1, a trace) goes to stderr: stdout
        # carries mmlogic's answers, and one JSON object with --json.
        janus.query_once(
            "( user:file_search_path(mmlogic, D) -> true"
            " ; assertz(user:file_search_path(mmlogic, D)) ),"
            " set_prolog_flag(heartbeat, N),"
            " set_stream(user_error, alias(user_output)), set_output(user_error)",
            {"D": str(encodings_dir()), "N": HEARTBEAT},
        )

    def interrupted(self, error) -> bool:
        """Whether a janus error is Ctrl-C, raised in Python during a Prolog call."""
        term = getattr(error, "term", None)
        if term is None:
            return False
        return self.janus.query_once(
            "E = error(python_error('KeyboardInterrupt', _), _)", {"E": term}
        )["truth"]

    def load_encoding(self, path: Path | None, seconds: float | None = None) -> tuple[Path, str]:
        """Consult an encoding (the shipped one if ``path`` is None); its file and module.

        Raises :class:`EncodingError` (one line, ``file:line: ...``) when Prolog
        reports any error or warning while loading it, or when it lacks a
        predicate the engine calls; :class:`SolverTimeout` when loading takes
        more than ``seconds`` (a directive that loops); KeyboardInterrupt on
        Ctrl-C meanwhile. The load runs in the :class:`Loader`'s thread; an edited encoding's that goes on is
        said on stderr while it lasts (:func:`~mm_logic.support.waiting.waiting`).
        """
        janus = self.janus
        shipped = encoding_path(ENTRY).resolve()
        file = Path(path).resolve() if path is not None else shipped
        shown = Path(path) if path is not None else file  # how messages name the file
        if not file.is_file():
            raise EncodingError(f"{shown}:1: no such encoding file")
        with self._lock:
            if file in self._loader.left_running:
                raise SolverTimeout(f"swipl cannot load {shown} again in this process: its earlier load did not "
                                    "end and still runs; look for a directive that does not end")
            wanted = self._modules.get(file)
            if wanted is None:
                wanted = SHIPPED_MODULE if file == shipped else f"mmlogic_encoding_{next(self._numbers)}"
                self._modules[file] = wanted
            # An edited file's directive may never end (``:- repeat, fail.``): said on stderr while it lasts,
            # whatever command loads it (the shipped files end: loading them is start-up).
            with waiting(f"loading {shown} by swipl", seconds) if path is not None else contextlib.nullcontext():
                outcome = self._loader.load(file, wanted, seconds)
            if outcome[0] == "interrupted":
                raise KeyboardInterrupt
            if outcome[0] == "timeout" and seconds:
                raise SolverTimeout(f"swipl did not load {shown} within the time limit of {seconds:g} s; "
                                    "raise --time-limit, or look for a directive that does not end")
            if outcome[0] == "timeout":  # thrown by the encoding itself, with no limit set
                raise EncodingError(f"{shown}:1: a directive threw time_limit_exceeded")
            if outcome[0] == "error":
                raise EncodingError(f"{shown}:1: {outcome[1]}")
            _, module, messages = outcome
            if messages:
                raise _load_error(file, shown, messages[0])
            # The load ran in another thread: this one forgets the templates of the module's previous
            # version, and takes the Prolog flags the encoding's directives set (most are a thread's own).
            janus.query_once("mmlogic_swipl:forget_templates(M), mmlogic_swipl:adopt_flags(F)",
                             {"M": module, "F": str(file)})
            missing = janus.query_once("mmlogic_swipl:undefined(M, Missing)", {"M": module})["Missing"]
            if missing:
                raise EncodingError(
                    f"{shown}:1: the encoding does not define {', '.join(missing)}; a swipl encoding "
                    "defines secret/2, feedback/2, first/2, any/2, all/3 and count/2 "
                    "(see the shipped mm_logic/encodings/mastermind.pl, which reexports its questions.pl)"
                )
            self._modules[file] = module
            return file, module

    def require(self, module: str, predicate: str, shown: Path, option: str) -> None:
        """Refuse (:class:`EncodingError`) an encoding whose ``module`` lacks ``predicate`` (``name/arity``),
        which ``option`` needs: said when it loads, not at the first question."""
        name, arity = predicate.split("/")
        if self.janus.query_once("mmlogic_swipl:undefined(M, [N/A], Missing)",
                                 {"M": module, "N": name, "A": int(arity)})["Missing"]:
            raise EncodingError(f"{shown}:1: {option} needs {predicate}, which the encoding does not define "
                                "(see the shipped mm_logic/encodings/questions.pl)")

    def ask(self, module: str, rules, entries: list, question: str, limit: int | str | None,
            seconds: float | None):
        """One question (first, any, all, count) about ``entries`` with the encoding in ``module``.

        The answer as the bridge gives it: a code, ``none``, a list of codes
        or a number; ``timeout``, ``interrupted`` or ``("error", text)``
        when the question did not finish.
        """
        inputs = {
            "N": next(self._questions), "M": module, "P": rules.pegs, "K": rules.colors, "R": rules.repeat_limit,
            "Y": rules.lies, "H": entries, "Q": question, "L": "inf" if limit is None else limit,
            "T": float(seconds or 0),
        }
        return self._question(QUERY, inputs, "A")

    def told(self, module: str, rules, guesses: list, secrets: list, arity: int, seconds: float | None):
        """What the encoding in ``module`` tells of each of ``guesses`` against each of ``secrets`` with
        ``arity`` numbers (``told_table/8``, a rule stated in Prolog), as a question: bounded by ``seconds``,
        stopped by Ctrl-C (SIGTERM, SIGHUP) as :meth:`ask` is, a halt refused.

        The answer as the bridge gives it: a list of columns, one per secret; ``timeout``, ``interrupted``,
        ``halted`` or ``("error", text)`` when it did not finish.
        """
        inputs = {"N": next(self._questions), "M": module, "P": rules.pegs, "K": rules.colors,
                  "R": rules.repeat_limit, "G": guesses, "S": secrets, "A": arity, "T": float(seconds or 0)}
        return self._question(TOLD_QUERY, inputs, "Answer")

    def _question(self, query: str, inputs: dict, answer: str):
        """Run question ``inputs["N"]`` while Ctrl-C reaches the watcher too (:class:`CtrlCWatch`); the
        variable ``answer`` of ``query``, or ``("error", text)``. Ctrl-C meanwhile is raised here."""
        try:
            with self._ctrl_c.watching(inputs["N"], inputs["T"]):
                return self.janus.query_once(query, inputs)[answer]
        except self.janus.PrologError as error:  # e.g. an answer janus cannot convert
            if self.interrupted(error):
                raise KeyboardInterrupt from None
            return ("error", one_line(error))


def _load_error(file: Path, given: Path, message: list) -> EncodingError:
    """The first message Prolog reported while loading, as one ``file:line:`` line.

    The encoding's own file is named as the user gave it (``given``).
    """
    source, line, kind, text = message
    text = one_line(text)
    located = _LOCATION.match(text)
    if located:  # syntax errors carry their own file:line:column
        source, line = located["file"], located["line"]
        text = text[located.end():]
    if not source:
        source, line = file, 1
    if Path(source) == file:
        source = given
    return EncodingError(f"{source}:{line}: {kind}: {text}")


_runtime: PrologRuntime | None = None


def runtime() -> PrologRuntime:
    """The process's Prolog runtime, started on first use (raises :class:`BackendUnavailable`)."""
    global _runtime
    with _lock:
        if _runtime is None:
            _runtime = PrologRuntime(load_janus())
    return _runtime
