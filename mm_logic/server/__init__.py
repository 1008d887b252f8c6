"""``mmlogic serve``: games and races hosted on a server, its JSON API and web page, seed 003's line protocol.

* ``store``: the games and races kept in memory (roles, a cap, idle expiry, one lock per game);
  ``db_store``, the same kept in an SQLite file (``serve --db FILE``), whose rows ``kept_rows`` reads
  back and checks before they are played again;
* ``variant``: an edited encoding and feedback rule served beside the built-in rules (``serve --encoding``);
* ``race``: entrants playing one secret move by move; ``batch_race``: entrants racing over a batch of
  secrets, each in its own worker process;
* ``api``: the Starlette JSON API over the store, and the web page of ``static/``; ``openapi``, the API's
  OpenAPI document;
* ``line_protocol``: seed 003's socket protocol, on asyncio beside uvicorn;
* ``serving``: the sockets and uvicorn of ``mmlogic serve`` (``connections``: its HTTP connections, with a
  read timeout and a limit);
* ``process``: a live ``mmlogic serve`` in a child process, for scripts and tests.

``api``, ``serving`` and ``connections`` need the ``serve`` extra (Starlette and uvicorn:
``pip install '.[serve]'`` from a checkout, else ``pip install 'mmlogic[serve]'``); the rest needs
nothing beyond mmlogic.
"""
