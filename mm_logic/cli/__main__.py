"""``python -m mm_logic.cli``: the command line, as ``mmlogic``."""

from . import main

if __name__ == "__main__":
    main()
