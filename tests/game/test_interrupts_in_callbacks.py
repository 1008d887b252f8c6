"""Ctrl-C, SIGTERM and SIGHUP are never lost in a callback that drops exceptions (issue 56): llvmlite's object
cache, which C calls back through ctypes while numba compiles a kernel, printed the KeyboardInterrupt as
"Exception ignored", and a first run that was told to stop compiled on and played to its end (exit 0)."""

from __future__ import annotations

import ctypes
import os
import signal
import time

import pytest

from mm_logic.support import interrupts

#: A function of llvmlite's callback's name and file; what it is given to call, it calls, then goes on a moment.
CALLBACK = "def _raw_object_cache_notify(call):\n    call()\n    for _ in range(100_000):\n        pass\n"


def called_back(call) -> None:
    """``call()`` inside a Python function that C calls back through ctypes, as LLVM calls llvmlite's."""
    namespace: dict = {}
    exec(compile(CALLBACK, "/site-packages/llvmlite/binding/executionengine.py", "exec"), namespace)  # noqa: S102
    ctypes.CFUNCTYPE(None, ctypes.py_object)(namespace["_raw_object_cache_notify"])(call)


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["int", "term", "hup"])
def test_a_signal_that_lands_in_a_callback_is_raised_once_it_returns(number, capsys):
    with interrupts.endings_as_interrupts(), pytest.raises(KeyboardInterrupt):
        called_back(lambda: os.kill(os.getpid(), number))
        time.sleep(5)  # where it lands, sent again
    assert interrupts.interrupted_code() == interrupts.ENDINGS[number]
    assert "Exception ignored" not in capsys.readouterr().err


def test_a_signal_elsewhere_is_raised_at_once():
    with interrupts.endings_as_interrupts(), pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
    assert interrupts.interrupted_code() == 143
