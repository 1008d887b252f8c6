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
    run()


if __name__ == "__main__":
    main()
