"""A turn's write cut into ``batchUpdate`` requests that Google accepts.

"While Sheets API has no hard size limits for an API request, users might experience limits
from different processing components not controlled by Google Sheets. To speed up requests,
we recommend a 2 MB maximum payload." (developers.google.com/sheets/api/limits). Google's front
end refuses a body over 10,485,760 bytes outright ("Request payload size exceeds the limit:
10485760 bytes.").

A turn of a 10^4-territory game writes about 7 MB of JSON, a 10^5 one about 70 MB, so a big
turn goes out in several requests. Each request stays atomic; the whole turn is made safe by
the order the requests go in (see :mod:`sheetmaster.stores.gsheets_split`): a signed mark and
the undo snapshot first, its digest line last of all its cells, then the game's cells, and the
Game tab, the mark's removal and the lock's release all in the very last one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

#: the payload Google recommends at most, in bytes ("we recommend a 2 MB maximum payload").
MAX_PAYLOAD = 2_000_000
#: Google's hard limit on a request's body, in bytes.
GOOGLE_MAX_PAYLOAD = 10_485_760
#: developer metadata that says a run is writing a turn in several requests; the request that
#: finishes the turn removes it.
WRITE_KEY = "sheetmaster-write"
#: '{"requests": []}' and a little room for the fields gspread adds.
_ENVELOPE = 64


def payload_size(value: Any) -> int:
    """Bytes of ``value`` as the client sends it (``requests``' ``json=``: json.dumps)."""
    return len(json.dumps(value, allow_nan=False))


def batches(requests: list[dict[str, Any]], limit: int = MAX_PAYLOAD,
            last: list[dict[str, Any]] | None = None) -> list[list[dict[str, Any]]]:
    """``requests`` packed in order into batches of at most ``limit`` bytes each; ``last``
    (the lock's release) goes with the final batch. A single request too big for a batch is
    cut into several when it is an ``updateCells`` of rows; anything else goes alone."""
    room = limit - _ENVELOPE
    tail = list(last or [])
    out: list[list[dict[str, Any]]] = [[]]
    size = 0
    for request in requests:
        for piece in _pieces(request, room):
            n = payload_size(piece) + 2  # ", " between requests
            if out[-1] and size + n > room:
                out.append([])
                size = 0
            out[-1].append(piece)
            size += n
    if tail and out[-1] and size + sum(payload_size(r) + 2 for r in tail) > room:
        out.append([])
    out[-1].extend(tail)
    return out


def _pieces(request: dict[str, Any], room: int) -> Iterator[dict[str, Any]]:
    """``request`` itself, or an ``updateCells`` cut into runs of rows that fit ``room``."""
    update = request.get("updateCells")
    if update is None or "rows" not in update or "start" not in update or \
            payload_size(request) <= room:
        yield request
        return
    start = update["start"]
    overhead = payload_size({"updateCells": {**update, "rows": []}})
    rows: list[dict[str, Any]] = []
    first = start.get("rowIndex", 0)
    size = overhead
    for i, row in enumerate(update["rows"]):
        n = payload_size(row) + 2
        if rows and size + n > room:
            yield _update_rows(update, first, rows)
            first, rows, size = start.get("rowIndex", 0) + i, [], overhead
        rows.append(row)
        size += n
    if rows:
        yield _update_rows(update, first, rows)


def _update_rows(update: dict[str, Any], row_index: int,
                 rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {"updateCells": {**update, "start": {**update["start"], "rowIndex": row_index},
                            "rows": rows}}


def write_marker(value: str) -> dict[str, Any]:
    """The request that marks a turn as being written in several requests (``value``:
    "RUN KIND TURN DIGEST SIGNATURE", see :mod:`~sheetmaster.stores.gsheets_split`)."""
    return {"createDeveloperMetadata": {"developerMetadata": {
        "metadataKey": WRITE_KEY, "metadataValue": value,
        "location": {"spreadsheet": True}, "visibility": "DOCUMENT"}}}


def clear_write_markers() -> dict[str, Any]:
    """The request that removes every write marker (a retried first batch may add two)."""
    return {"deleteDeveloperMetadata": {"dataFilter": {"developerMetadataLookup": {
        "metadataKey": WRITE_KEY}}}}


__all__ = ["GOOGLE_MAX_PAYLOAD", "MAX_PAYLOAD", "WRITE_KEY", "batches",
           "clear_write_markers", "payload_size", "write_marker"]
