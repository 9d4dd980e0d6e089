"""Opening a gspread client for the Sheets store: real Google, or a stand-in endpoint.

``SHEETMASTER_SHEETS_ENDPOINT=http://127.0.0.1:PORT`` sends every Sheets API call to that
address with no credentials (a FakeSheetsServer, for trying sheetmaster out offline and in
tests), the way emulators of other Google services are reached.
"""

from __future__ import annotations

import os
from typing import Any

from sheetmaster.stores.google_auth import load_credentials

ENDPOINT_ENV = "SHEETMASTER_SHEETS_ENDPOINT"
#: seconds before one HTTP request is given up (and retried).
REQUEST_TIMEOUT = 60.0


def open_client(credentials_path: str | None = None) -> Any:
    """A gspread client with no back-off of its own (the store retries with tenacity)."""
    import gspread

    endpoint = os.environ.get(ENDPOINT_ENV, "").strip()
    if endpoint:
        from sheetmaster.testing.fakesheets import session_for

        client = gspread.Client(auth=None, session=session_for(endpoint))
    else:
        client = gspread.Client(auth=load_credentials(credentials_path))
    client.set_timeout(REQUEST_TIMEOUT)
    return client
