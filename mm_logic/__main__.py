"""The ``mmlogic`` command (and ``python -m mm_logic``).

The command line is imported here, inside the entry point: Ctrl-C while numpy,
clingo and the strategies load (about a third of a second) is then the same one
line and exit 130 as Ctrl-C later, not a traceback.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Console-script entry point."""
    try:
        from .cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    from .support.interrupts import end_process
    try:
        run()
    except SystemExit as done:
        # click ends every command with SystemExit; a grounding left running must not reach
        # the interpreter's shutdown.
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        end_process(code)
        raise


if __name__ == "__main__":
    main()
