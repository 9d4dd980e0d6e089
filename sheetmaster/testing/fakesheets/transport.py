"""HTTP plumbing: the request record, the requests transport adapter that redirects Google
origins to the fake, and the threaded HTTP server with its request handler."""

from __future__ import annotations

import contextlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any, NamedTuple

from sheetmaster.stores.sheets_endpoint import DRIVE_ORIGIN as DRIVE_ORIGIN
from sheetmaster.stores.sheets_endpoint import SHEETS_ORIGIN as SHEETS_ORIGIN

if TYPE_CHECKING:
    from .server import FakeSheetsServer


class RecordedRequest(NamedTuple):
    """One request the server received: method, percent-decoded path, parsed query."""

    method: str
    path: str
    query: dict[str, list[str]]


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    fake: FakeSheetsServer

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
