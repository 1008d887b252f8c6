"""The swipl engine: the CLP(FD) encoding ``mm_logic/encodings/mastermind.pl`` answers the questions.

This package is only an adapter. SWI-Prolog runs in-process through janus
(:mod:`.runtime`); the history goes to
Prolog as a list of ``Guess-Black-White`` terms and codes come back as lists
of integers. What a consistent code is lives in the encoding alone: its
``secret/2`` posts the code space of the rules, ``feedback/2`` the constraint
of one history entry, and ``first/2``, ``any/2``, ``all/3``, ``count/2``
label the pegs (the shipped ones in ``questions.pl``, which ``mastermind.pl``
reexports; see the two modules' documentation). By concern:

* ``bridge.pl``: the Prolog half, module ``mmlogic_swipl`` (loading
  encodings with their messages captured, asking questions within a time
  limit, the template secret and kept prefixes), with PlDoc and plunit tests;
* :mod:`.runtime`: finding SWI-Prolog, and the one
  :class:`~.runtime.PrologRuntime` of the process;
* :mod:`.session`: :class:`SwiplSession`, the history and its answer cache;
* :mod:`.engine`: :class:`SwiplEngine`, one encoding and rules;
* :mod:`.told_table`: a feedback rule stated in a Prolog encoding, its table
  derived by SWI-Prolog (``--feedback FILE.pl``).

Design, measured with ``py/tools/seed003_vs_swipl.py`` and the acceptance benches
(``tests/strategies/test_swipl_acceptance.py``; numbers in :data:`.session.DESIGN`):

* **push/pop only keep the Python-side history; every question sends the
  whole history.** The bridge rebuilds the constraint store from what it
  kept: the code space (peg domains, colour indicators and counts) does not
  depend on the history, so the encoding's ``secret/2`` runs once per
  process and rules and questions start from a ``copy_term/2`` of it
  (copying is about 40 times cheaper than posting it); and the propagated
  store after each prefix of the previous question's history is kept, so
  the next guess of a game, or a child in a strategy tree, only posts its
  new entry. A question that shares no prefix (another session) posts its
  history on a fresh copy: always correct, only slower.
* **Answers are cached per history depth**: a strategy usually asks
  ``count`` and then ``enumerate`` of the same history, and ``bench_all``
  asks ``count`` at every node. Where the code space has at most
  :data:`.session.COUNT_BY_ENUMERATION` codes, ``count`` enumerates (labeling costs the
  same whether the codes are counted or collected) and keeps the codes, so
  the following ``enumerate``, ``first`` and ``random`` are free.
* **One constant query text** (:data:`.runtime.QUERY`); all data goes through janus'
  ``inputs``, so janus' per-query-text cache never grows.
* **Encodings are consulted once per process** and file (a later engine on
  the same file only has Prolog check that it did not change). The shipped one is
  module ``mastermind``; a user's file (``--encoding``) is loaded under a
  module name of its own (``mmlogic_encoding_N``), whatever its
  ``:- module`` line says, so an edited copy of ``mastermind.pl`` loads
  beside the shipped one. Every error or warning Prolog reports while loading
  becomes an :class:`EncodingError` whose one line starts with ``file:line``;
  nothing is printed.
* **time_limit** bounds each question (:class:`SolverTimeout`); Ctrl-C stops
  a running question and re-raises :class:`KeyboardInterrupt`. Both go
  through Prolog's heartbeat hook (see ``bridge.pl``), and for loops that
  make no inference the heartbeat counts (``spin :- spin.`` in a user's
  encoding), through an alarm (``call_with_time_limit/2``) and a watcher
  thread that signals the question's thread (``runtime.CtrlCWatch``).
  Loading an encoding is bounded and stopped alike, though Prolog runs a
  file's directives with signals blocked: the load runs in a thread of its
  own (``runtime.Loader``), stopped by the heartbeat where it can be, and
  left running, the command ending, where it cannot (``spin :- spin.`` in a
  directive).
* **random** keeps the base class's rule: a uniform index into the
  lexicographic enumeration, the same draw as every other engine.
"""

from .engine import SwiplEngine
from .session import SwiplSession

__all__ = ["SwiplEngine", "SwiplSession"]
