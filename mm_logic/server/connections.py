"""How ``mmlogic serve`` holds its HTTP connections: a bounded wait for each request, a bounded number.

uvicorn's h11 protocol waits for ever for a request that is half sent (its
``timeout_keep_alive`` runs only between requests), so a client that sends a
header line, or a body, a byte at a time (a slow loris) holds a connection
as long as it likes; and its ``limit_concurrency`` answers a plain-text 503
only once a whole request has come, leaving such connections open.
:func:`bounded_protocol` makes a subclass of that protocol which

* gives each request :data:`READ_TIMEOUT` seconds from its first byte (from
  the connection's start for the first) to come in whole, headers and body,
  then answers 408 (one JSON line) and closes, as the line protocol does;
* closes a connection beyond :data:`MAX_CONNECTIONS` open at once at its
  start, with a 503 (one JSON line);
* logs one line, not a traceback, when a client closes before the end of its
  request body;
* answers a request whose line and headers are over :data:`MAX_HEAD` bytes
  with a one-line JSON 400: h11 bounds only a head that has not ended yet (its
  ``max_incomplete_event_size``), so a 64 KB header that came in one piece was
  read and answered 200;
* answers a request that is not HTTP/1.1 with a one-line JSON 400, as the
  API's other errors, where uvicorn wrote a plain-text one.
"""

from __future__ import annotations

import asyncio
import json
import re
from http import HTTPStatus

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a request may take to come in whole (``serve --read-timeout``).
READ_TIMEOUT = 10.0
#: HTTP connections open at once at the most (``serve --max-connections``).
MAX_CONNECTIONS = 500
#: The most bytes a request's line and headers may take, the blank line that ends them included (16 KiB,
#: h11's default bound on a head still coming in; ``serve`` gives h11 this one, and keeps it for a head
#: that came whole too).
MAX_HEAD = 16 * 1024
#: The blank line that ends a request's head, as h11 finds it (a line end, then an empty line).
HEAD_END = re.compile(rb"\n\r?\n")


def raw_error(status: int, message: str) -> bytes:
    """A whole HTTP/1.1 response ``{"error": message}`` that closes the connection, written
    outside h11's request cycle (there is no request, or its body never came)."""
    body = json.dumps({"error": message}).encode()
    head = (f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n")
    return head.encode("ascii") + body


def bounded_protocol(read_timeout: float = READ_TIMEOUT, max_connections: int = MAX_CONNECTIONS) -> type:
    """uvicorn's h11 protocol with a read timeout and a connection limit (``Config(http=...)``)."""

    class BoundedH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _cut = False

        def connection_made(self, transport) -> None:  # noqa: ANN001 - uvicorn's signature
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                transport.write(raw_error(503, f"the server has its maximum of {max_connections} connections "
                                               "open; try again later"))
                transport.close()
                return
            self._watch()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._watch()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            # The next request has begun (pipelined, read already): its clock starts. An idle
            # connection is left to uvicorn's keep-alive timeout.
            if self.conn.trailing_data[0] or self.conn.their_state is h11.SEND_BODY:
                self._watch()

        def _watch(self) -> None:
            """Start the clock when a request is awaited or under way; stop it once it has come whole."""
            if self.transport.is_closing():
                self._stop_clock()
            elif self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
                if self._deadline is None:  # from the request's first byte, not its last: a slow loris
                    self._deadline = self.loop.call_later(read_timeout, self._time_out)
            else:
                self._stop_clock()

        def _stop_clock(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _time_out(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            self._cut = True
            # The answer is written unless the application has begun its own (a 413 before the body).
            if self.cycle is None or self.conn.their_state is h11.IDLE or not self.cycle.response_started:
                self.transport.write(raw_error(408, f"no complete request within {read_timeout:g} s"))
            self.transport.close()

        def handle_events(self) -> None:
            # A head over the bound is refused before h11 reads it, whole or not (data_received, and a
            # pipelined request once the one before it is answered, come here).
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                buffered = self.conn.trailing_data[0]
                # Blank lines before a request line are no head's end (h11 passes over them).
                end = HEAD_END.search(buffered, len(buffered) - len(buffered.lstrip(b"\r\n")))
                if (len(buffered) if end is None else end.end()) > MAX_HEAD:
                    self._stop_clock()
                    self.transport.write(raw_error(400, f"the request's headers are over the limit of "
                                                        f"{MAX_HEAD:,} bytes"))
                    self.transport.close()
                    return
            super().handle_events()

        def send_400_response(self, msg: str) -> None:
            # uvicorn's own is text/plain; the log keeps its line ("Invalid HTTP request received.").
            self._stop_clock()
            self.transport.write(raw_error(400, "the request is not valid HTTP/1.1"))
            self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_clock()
            cycle = self.cycle
            if (cycle is not None and not self._cut and self.conn.their_state is h11.SEND_BODY
                    and not cycle.response_complete):
                self.logger.warning("%s %s: the client closed its connection before the end of its request body",
                                    cycle.scope["method"], cycle.scope["path"][:80])
            super().connection_lost(exc)

    return BoundedH11Protocol
