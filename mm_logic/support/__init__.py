"""What every layer of mmlogic may use, apart from the game itself.

* :mod:`~mm_logic.support.errors`: the errors, each with its exit code, and their one-line messages;
* :mod:`~mm_logic.support.files`: the files a user names (read, written whole, locked, compared);
* :mod:`~mm_logic.support.interrupts`: Ctrl-C, SIGTERM and SIGHUP, and a process's quick end;
* :mod:`~mm_logic.support.processes`: worker processes that end with their parent;
* :mod:`~mm_logic.support.resources`: where the shipped encodings live;
* :mod:`~mm_logic.support.memory`: the memory available, a run's peak, sizes as people type them;
* :mod:`~mm_logic.support.scripting`: the shared parsing of the scripts of ``py/``.
"""
