"""``mmlogic serve``: games kept on a server (``store``) and its JSON API (``api``, Starlette).

``store`` needs nothing beyond mmlogic; ``api`` needs the ``serve`` extra
(Starlette and uvicorn: ``pip install '.[serve]'`` from a checkout, else
``pip install 'mmlogic[serve]'``).
"""
