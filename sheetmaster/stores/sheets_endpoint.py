"""Sending the Sheets and Drive API calls of gspread to another address than Google's.

``SHEETMASTER_SHEETS_ENDPOINT`` points the store at a stand-in for Google (the fake Sheets API
of ``sheetmaster fake-sheets serve``), the way emulators of other Google services are reached:
the client still builds Google's URLs, and a requests adapter rewrites their origin.
``SHEETMASTER_SHEETS_TOKEN``, when set, goes with every call in the :data:`TOKEN_HEADER`
header: the served fake answers only a request that carries the token it printed.
"""

from __future__ import annotations

from typing import Any

import requests
from requests.adapters import HTTPAdapter

SHEETS_ORIGIN = "https://sheets.googleapis.com"
DRIVE_ORIGIN = "https://www.googleapis.com"
#: the header that carries a stand-in's access token (not ``Authorization``, which names the
#: Google account a call is made as).
TOKEN_HEADER = "X-Sheetmaster-Token"


class RewritingAdapter(HTTPAdapter):
    """Sends requests for a Google origin to ``target`` instead, never through a proxy."""

    def __init__(self, origin: str, target: str):
        super().__init__()
        self.origin = origin
        self.target = target

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        url = request.url or ""
        if url.startswith(self.origin):
            request.url = self.target + url[len(self.origin):]
        kwargs["proxies"] = {}
        return super().send(request, **kwargs)


def endpoint_session(url: str, headers: dict[str, str] | None = None) -> requests.Session:
    """A requests.Session whose Sheets and Drive API calls go to ``url`` (proxies and the
    environment's settings ignored), with ``headers`` on every call."""
    session = redirect(requests.Session(), url)
    session.headers.update(headers or {})
    return session


def redirect(session: requests.Session, url: str) -> requests.Session:
    """``session`` (a requests or google-auth session), its Sheets and Drive API calls sent
    to ``url`` and the environment's proxy settings ignored."""
    session.trust_env = False
    session.mount(SHEETS_ORIGIN, RewritingAdapter(SHEETS_ORIGIN, url))
    session.mount(DRIVE_ORIGIN, RewritingAdapter(DRIVE_ORIGIN, url))
    return session
