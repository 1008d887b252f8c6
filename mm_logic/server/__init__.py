"""``mmlogic serve``: games kept on a server (``store``) and its JSON API (``api``, Starlette).

``store`` needs nothing beyond mmlogic; ``api`` needs the ``serve`` extra
(``pip install 'mmlogic[serve]'``: Starlette and uvicorn).
"""
