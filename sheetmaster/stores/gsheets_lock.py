"""The run's lock on a Google Sheet (request 1 of a turn, see :mod:`.gsheets`).

The lock is spreadsheet developer metadata, DOCUMENT-visible so that runs with other
credentials (the GM's, the nightly job's) see it too, and signed with a key from the dice
secret so that a lock a player forges is ignored. Taking it returns the spreadsheet's
properties, so a run that finds another live lock backs off, and learns the tabs at once.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

from sheetmaster.kit.fairness import derived_key, sign
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets_cells import delete_metadata
from sheetmaster.stores.gsheets_retry import RetryPolicy

LOCK_KEY = "sheetmaster-lock"
#: how long a run may hold the lock; past that it was left by a run that died (the nightly
#: job's own time limit is 20 minutes).
LOCK_TTL_SECONDS = 20 * 60


class RunLock:
    """Taking and releasing the lock (a mixin of
    :class:`~sheetmaster.stores.gsheets.SheetsStore`)."""

    spreadsheet_id: str
    run_id: str
    lock_ttl: float
    secret: str | None
    http: Any
    retry: RetryPolicy
    lock_ids: list[int]
    stale_lock_ids: list[int]
    unfinished: list[Any]

    def lock(self: Any) -> None:
        """Take the game's lock and learn its tabs; raises if another run holds it."""
        now = int(time.time())
        body = {
            "requests": [{"createDeveloperMetadata": {"developerMetadata": {
                "metadataKey": LOCK_KEY, "metadataValue": self._lock_value(now),
                "location": {"spreadsheet": True}, "visibility": "DOCUMENT"}}}],
            "includeSpreadsheetInResponse": True,
            "responseIncludeGridData": False,
        }
        reply = self.retry.call("taking the game's lock", lambda: self.http.batch_update(
            self.spreadsheet_id, body))
        book = reply.get("updatedSpreadsheet") or {}
        self._learn(book)
        self._note_marks(book.get("developerMetadata") or [])
        mine, others = [], []
        for meta in book.get("developerMetadata") or []:
            if meta.get("metadataKey") != LOCK_KEY:
                continue
            run, since, until, signed = self._lock_fields(meta.get("metadataValue") or "")
            entry = (int(meta["metadataId"]), run, since, until, signed)
            (mine if run == self.run_id else others).append(entry)
        self.lock_ids = [m[0] for m in mine]
        live = [o for o in others if o[4] and now < o[3]]
        self.stale_lock_ids = [o[0] for o in others if not (o[4] and now < o[3])]
        if live:
            self.unlock()
            since = datetime.fromtimestamp(min(o[2] for o in live), timezone.utc)
            self.unfinished = []
            raise StoreError(f"another sheetmaster run has been resolving this game since "
                             f"{since:%Y-%m-%d %H:%M} UTC; this run stops without changes")
        try:
            self._bind(book.get("developerMetadata") or [])
        except Exception:
            self.unfinished = []
            self.unlock()
            raise

    def _lock_value(self, now: int) -> str:
        """'RUN TAKEN EXPIRES SIGNATURE': the signature (from the dice secret) shows the lock
        was taken by a sheetmaster run of this game, not typed in by a player."""
        value = f"{self.run_id} {now} {now + int(self.lock_ttl)}"
        return f"{value} {self._lock_signature(value)}" if self.secret else value

    def _lock_signature(self, value: str) -> str:
        key = derived_key(self.secret or "", "run lock")
        return sign(key, f"{self.spreadsheet_id} {value}")[:32]

    def _lock_fields(self, value: str) -> tuple[str, int, int, bool]:
        """(run id, taken at, expires at, trusted) of a lock's value. Without the secret a
        lock cannot be checked and is trusted; with it, only a correctly signed one is."""
        parts = value.split()
        run = parts[0] if parts else ""
        try:
            since = int(parts[1]) if len(parts) > 1 else 0
            until = int(parts[2]) if len(parts) > 2 else since + LOCK_TTL_SECONDS
        except ValueError:
            return run, 0, 0, False  # unreadable: stale
        trusted = not self.secret or (
            len(parts) > 3 and parts[3] == self._lock_signature(" ".join(parts[:3])))
        return run, since, until, trusted

    def unlock(self) -> None:
        """Remove this run's lock without writing anything else, then stale locks."""
        requests_ = self._unlock_requests()
        if requests_:
            self.retry.call("releasing the game's lock", lambda: self.http.batch_update(
                self.spreadsheet_id, {"requests": requests_}))
        self.lock_ids = []
        self._drop_stale_locks()

    def _unlock_requests(self) -> list[dict[str, Any]]:
        return [delete_metadata(mid) for mid in self.lock_ids]

    def _drop_stale_locks(self) -> None:
        """Remove locks left by crashed runs (or forged), each on its own: another run may
        have removed one already, which Google refuses, and that is no failure."""
        for mid in self.stale_lock_ids:
            with contextlib.suppress(StoreError):
                RetryPolicy(deadline=min(self.retry.deadline, 10.0)).call(
                    "removing a stale lock", lambda mid=mid: self.http.batch_update(
                        self.spreadsheet_id, {"requests": [delete_metadata(mid)]}))
        self.stale_lock_ids = []

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the lock for the block; a block that fails still releases it."""
        self.lock()
        try:
            yield
        finally:
            if self.lock_ids:
                with contextlib.suppress(StoreError):
                    self.unlock()

    def _lock_released(self) -> bool:
        """Whether none of this run's locks is left on the spreadsheet (False if unknown)."""
        metadata = self._developer_metadata("checking whether the write went through")
        if metadata is None:
            return False
        present = {int(m.get("metadataId", 0)) for m in metadata
                   if m.get("metadataKey") == LOCK_KEY}
        return not present & set(self.lock_ids)
