"""HTTP plumbing: the request record, the threaded HTTP server with its request handler, and
who may be answered at all.

A server on 127.0.0.1 is reachable by every web page the user opens: a page may send it
requests (a form's POST needs no permission), and by DNS rebinding (its own name made to
point at 127.0.0.1) read the answers too. So the fake answers only a request addressed to
it by name (``Host: 127.0.0.1:PORT`` or ``localhost:PORT``; a rebound page sends its own
name), and, when it has a token (``sheetmaster fake-sheets serve`` makes a random one and
prints it), only a request carrying that token in the ``X-Sheetmaster-Token`` header, which no
page can send to another origin without the fake's consent, nor know.
"""

from __future__ import annotations

import contextlib
import hmac
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple, Protocol

from sheetmaster.stores.sheets_endpoint import DRIVE_ORIGIN as DRIVE_ORIGIN
from sheetmaster.stores.sheets_endpoint import SHEETS_ORIGIN as SHEETS_ORIGIN
from sheetmaster.stores.sheets_endpoint import TOKEN_HEADER


class RecordedRequest(NamedTuple):
    """One request the server received: method, percent-decoded path, parsed query, and
    the size of its body in bytes."""

    method: str
    path: str
    query: dict[str, list[str]]
    size: int = 0


def refusal(headers: Mapping[str, str], port: int, token: str | None
            ) -> tuple[int, str] | None:
    """(status, message) when a request may not be answered: addressed to another host
    than this server, or without this server's ``token`` (None: no token needed)."""
    host = (headers.get("Host") or "").strip().lower()
    names = ("127.0.0.1", "localhost")
    allowed = {f"{name}:{port}" for name in names} | (set(names) if port == 80 else set())
    if host not in allowed:
        return 403, (f"this fake Sheets API answers requests to 127.0.0.1:{port} or "
                     f"localhost:{port} only, not to host {host[:100]!r}")
    given = headers.get(TOKEN_HEADER) or ""
    if token is not None and not hmac.compare_digest(given.encode(), token.encode()):
        return 401, (f"{'a wrong' if given else 'no'} token: this fake Sheets API answers "
                     f"only requests with the token 'sheetmaster fake-sheets serve' printed "
                     f"(set SHEETMASTER_SHEETS_TOKEN to it)")
    return None


class _Answers(Protocol):
    """What the HTTP server hands each request to (a ``server.FakeSheetsServer``)."""

    def _handle(self, handler: _Handler) -> None: ...


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    fake: _Answers

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that timed out or a dropped connection is part of the game, not an error.
        import sys

        if isinstance(sys.exc_info()[1], OSError):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FakeSheets/1.0"
    disable_nagle_algorithm = True  # avoid 40 ms delayed-ACK stalls per request
    wbufsize = -1  # buffer the response so headers and body leave in one write
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        return

    def finish(self) -> None:
        with contextlib.suppress(OSError):
            super().finish()

    def _go(self) -> None:
        self.server.fake._handle(self)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _go
