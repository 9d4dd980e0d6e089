"""Opening a gspread client for the Sheets store: real Google, or a stand-in endpoint.

``SHEETMASTER_SHEETS_ENDPOINT=http://127.0.0.1:PORT`` sends every Sheets API call to that
address with no credentials (a FakeSheetsServer, for trying sheetmaster out offline and in
tests), the way emulators of other Google services are reached;
``SHEETMASTER_SHEETS_TOKEN`` is the access token that ``sheetmaster fake-sheets serve`` prints
(sent in the ``X-Sheetmaster-Token`` header of every call; the served fake refuses a call
without it).

Two more settings are read when the CLI builds its store (both whole seconds, unset = the
defaults): ``SHEETMASTER_LOCK_TTL``, how long this run's lock holds before another run takes
it for one left by a crashed run (default 20 minutes, the nightly job's limit), and
``SHEETMASTER_RETRY_DEADLINE``, how long failing requests are retried before the run stops
(default 5 minutes). Tests that kill runs or inject faults that never clear set them low.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from sheetmaster.stores.base import StoreError
from sheetmaster.stores.google_auth import load_credentials

ENDPOINT_ENV = "SHEETMASTER_SHEETS_ENDPOINT"
TOKEN_ENV = "SHEETMASTER_SHEETS_TOKEN"
LOCK_TTL_ENV = "SHEETMASTER_LOCK_TTL"
RETRY_DEADLINE_ENV = "SHEETMASTER_RETRY_DEADLINE"
#: seconds before one HTTP request is given up (and retried).
REQUEST_TIMEOUT = 60.0


def open_client(credentials_path: str | None = None, env: Mapping[str, str] | None = None
                ) -> Any:
    """A gspread client with no back-off of its own (the store retries with tenacity);
    ``env``: where the Google key is read from (default: the process's environment)."""
    import gspread

    from sheetmaster.stores.sheets_endpoint import TOKEN_HEADER, endpoint_session

    endpoint = os.environ.get(ENDPOINT_ENV, "").strip()
    if endpoint:
        token = os.environ.get(TOKEN_ENV, "").strip()
        headers = {TOKEN_HEADER: token} if token else {}
        client = gspread.Client(auth=None, session=endpoint_session(endpoint, headers))
    else:
        client = gspread.Client(auth=load_credentials(credentials_path, env))
    client.set_timeout(REQUEST_TIMEOUT)
    return client


def store_options() -> dict[str, Any]:
    """SheetsStore keyword arguments from SHEETMASTER_LOCK_TTL and SHEETMASTER_RETRY_DEADLINE."""
    from sheetmaster.stores.gsheets import RetryPolicy

    options: dict[str, Any] = {}
    ttl = _seconds(LOCK_TTL_ENV)
    if ttl is not None:
        options["lock_ttl"] = ttl
    deadline = _seconds(RETRY_DEADLINE_ENV)
    if deadline is not None:
        options["retry"] = RetryPolicy(deadline=deadline)
    return options


def _seconds(name: str) -> int | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise StoreError(f"{name} must be a whole number of seconds, 1 or more (it is {raw!r})")
    return value
