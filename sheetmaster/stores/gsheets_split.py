"""A turn too big for one request, written in several so that a crash never leaves it mixed.

"To speed up requests, we recommend a 2 MB maximum payload" (developers.google.com/sheets/api/
limits), and Google refuses a body over 10,485,760 bytes. A write that fits ``max_payload``
goes in one atomic batchUpdate as always. A bigger one goes in several, in this order
(:func:`~.gsheets_batches.plan_write` lays it out):

1. a batchUpdate with a mark (developer metadata ``sheetmaster-write``, signed with a key
   from the dice secret) saying this run is writing turn T, the undo tab cleared, and the
   new undo snapshot if it fits (and as many of the game's cells as fit after it);
2. what is left of the snapshot, if anything, in ``values:batchUpdateByDataFilter``
   requests; its digest line covers every line, so a snapshot whose digest matches is a
   whole one, and no game cell is sent before the snapshot is whole;
3. the rest of the game's cells (every tab but the Game tab), in values requests;
4. the Game tab's cells (which move the game on to turn T + 1), the mark's removal and the
   lock's release, in one batchUpdate (with the last of the game's cells if they fit).

A later run that holds the lock and finds a trusted mark (the run that wrote it is no longer
live, or it would not have the lock) looks at the game's turn: still T, so the write stopped
part way; it puts the game back from the snapshot if its digest matches (every game cell the
dead run wrote is in it), or else knows no game cell was written and only drops the partial
snapshot. An undo is written the same way (mark "undo", Game tab last) and finished from the
same snapshot. A mark whose turn the game has left (the write finished, or a player copied an
old mark) is only removed.
"""

from __future__ import annotations

import hmac
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gspread.urls import SPREADSHEET_BATCH_UPDATE_URL, SPREADSHEETS_API_V4_BASE_URL

from sheetmaster.kit.fairness import DiceSecretError, derived_key, sign
from sheetmaster.kit.model import GameState
from sheetmaster.kit.tabs import GAME_TAB, game_settings
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets_batches import (
    BATCH,
    WRITE_KEY,
    Part,
    clear_write_markers,
    plan_write,
    write_marker,
)
from sheetmaster.stores.gsheets_encode import Cells
from sheetmaster.stores.gsheets_undo import UNDO_TAB, read_snapshot, snapshot_digest

RESOLVE, UNDO = "resolve", "undo"


@dataclass(frozen=True)
class Mark:
    """A split write under way: ``run`` writes ``kind`` of ``turn``; for an undo, ``digest``
    begins the digest of the snapshot it restores ('-' for a resolve)."""

    run: str
    kind: str
    turn: int
    digest: str = "-"


class SplitWrites:
    """The split write of :class:`~sheetmaster.stores.gsheets.SheetsStore` (a mixin: it
    uses the store's ``apply``, ``_unlock_requests``, ``_developer_metadata``,
    ``_restore_cells`` and ``_tab``)."""

    spreadsheet_id: str
    secret: str | None
    run_id: str
    http: Any
    retry: Any
    max_payload: int
    lock_ids: list[int]
    raw: dict[str, list[list[Any]]]
    tabs: dict[str, Any]
    #: trusted marks of other runs, found when the lock was taken.
    unfinished: list[Mark]
    #: what the store did besides the turn (a half-written turn put back), for the GM.
    notes: list[str]

    # -- the mark --------------------------------------------------------------------------
    def _mark_value(self, mark: Mark) -> str:
        value = f"{mark.run} {mark.kind} {mark.turn} {mark.digest}"
        return f"{value} {self._mark_signature(value)}"

    def _mark_signature(self, value: str) -> str:
        key = derived_key(self.secret or "", "split write mark")
        return sign(key, f"{self.spreadsheet_id} {value}")[:32]

    def _read_mark(self, value: str) -> Mark | None:
        """The mark in a metadata value, or None if it is not one this game's secret signed."""
        parts = value.split()
        if not self.secret or len(parts) != 5 or parts[1] not in (RESOLVE, UNDO):
            return None
        if not hmac.compare_digest(parts[4], self._mark_signature(" ".join(parts[:4]))):
            return None
        try:
            return Mark(parts[0], parts[1], int(parts[2]), parts[3])
        except ValueError:
            return None

    def _note_marks(self, metadata: list[dict[str, Any]]) -> None:
        """Remember the trusted marks of other runs (called with the lock's reply)."""
        marks = (self._read_mark(m.get("metadataValue") or "") for m in metadata
                 if m.get("metadataKey") == WRITE_KEY)
        self.unfinished = [m for m in marks if m is not None and m.run != self.run_id]

    # -- writing ---------------------------------------------------------------------------
    def _write(self, what: str, stages: Sequence[Cells] = (), *,
               first: Sequence[dict[str, Any]] = (), last_cells: Cells | None = None,
               last: Sequence[dict[str, Any]] = (), mark: Mark | None,
               release: bool = True, blank_from: dict[int, int] | None = None) -> int:
        """``first``, the cells of ``stages`` in turn, then ``last_cells`` and ``last`` (and
        the lock's release): in one atomic batchUpdate when that fits ``max_payload``, else
        in several (:func:`~.gsheets_batches.plan_write`), the first carrying ``mark`` and
        the last the mark's removal. Returns the requests sent."""
        # without the secret no mark can be signed, and a write that needs one is refused
        marker = [write_marker(self._mark_value(mark) if self.secret else "-")] if mark else []
        parts = plan_write(stages, limit=self.max_payload, first=first, last_cells=last_cells,
                           last=last, tail=self._unlock_requests() if release else [],
                           split_first=marker, split_last=[clear_write_markers()] if mark else [],
                           blank_from=blank_from)
        if len(parts) > 1 and mark is not None and not self.secret:
            size = sum(len(p.body()) for p in parts)
            raise DiceSecretError(
                f"this write is {size / 1e6:.1f} MB, over the {self.max_payload / 1e6:.1f} "
                f"MB one request may carry, so it goes in several requests; that needs the "
                f"game's dice secret (SHEETMASTER_DICE_SECRET), which signs the mark that "
                f"lets a later run put a half-written turn back. Nothing was written")
        for i, part in enumerate(parts):
            label = what if len(parts) == 1 else f"{what} (request {i + 1} of {len(parts)})"
            if i == len(parts) - 1:
                self._finish(part, label, release=release)
            else:
                self._send_part(part, label, first=i == 0 and mark is not None)
        return len(parts)

    def _send(self, part: Part) -> Any:
        """Post one request of a write, as the JSON text it was built as."""
        url = (SPREADSHEET_BATCH_UPDATE_URL % self.spreadsheet_id if part.kind == BATCH else
               f"{SPREADSHEETS_API_V4_BASE_URL}/{self.spreadsheet_id}"
               f"/values:batchUpdateByDataFilter")
        return self.http.request("post", url, data=part.body().encode(),
                                 headers={"Content-Type": "application/json"}).json()

    def _send_part(self, part: Part, what: str, *, first: bool) -> None:
        """One request of a split write. Every one but the first is idempotent; a refused
        retry of the first is fine when its mark is there (it was applied)."""
        attempts = self.retry.attempts
        try:
            self.retry.call(what, lambda: self._send(part))
        except StoreError as exc:
            if first and self.retry.attempts - attempts > 1 and self._marked():
                return
            raise StoreError(f"{exc}; the turn is half written: the next run puts the game "
                             f"back as it was before this one") from None

    def _marked(self) -> bool:
        """Whether this run's mark is on the spreadsheet (False if unknown)."""
        metadata = self._developer_metadata("checking whether the write began")
        marks = (self._read_mark(m.get("metadataValue") or "") for m in metadata or []
                 if m.get("metadataKey") == WRITE_KEY)
        return any(m is not None and m.run == self.run_id for m in marks)

    # -- putting a half-written turn right ---------------------------------------------------
    def _recover(self, state: GameState) -> None:
        """Finish what a run that stopped in a split write left (see the module's text)."""
        turn = int(game_settings(state)["turn"])
        rows = self.raw.get(UNDO_TAB, [])
        try:
            snapshot = read_snapshot(self.spreadsheet_id, rows, self.secret)
        except StoreError:
            snapshot = None  # not a whole one: a line or its digest was never written
        pending = next((m for m in self.unfinished if m.turn == turn - (m.kind == UNDO)), None)
        restore: Cells = {}
        game: Cells = {}
        final = [clear_write_markers()]
        if pending is not None and snapshot is not None and snapshot.turn == pending.turn and (
                pending.kind == RESOLVE or snapshot_digest(rows).startswith(pending.digest)):
            restore, game = self._game_last(self._restore_cells(snapshot))
            final = [self._clear_undo_tab(), *final]
            self.notes.append(
                f"an earlier run stopped while writing turn {pending.turn}; "
                + ("the game was put back as it was before it" if pending.kind == RESOLVE
                   else "its undo was finished"))
        elif pending is not None and pending.kind == RESOLVE:
            final = ([self._clear_undo_tab()] if UNDO_TAB in self.tabs else []) + final
            self.notes.append(f"an earlier run stopped while writing turn {pending.turn}, "
                              f"before it changed the game; its unfinished undo snapshot was "
                              f"dropped")
        self._write("putting back a turn an earlier run left half-written", [restore],
                    last_cells=game, last=final, mark=None, release=False)
        self.unfinished = []

    def _game_last(self, cells: Cells, game_tab: str | None = None) -> tuple[Cells, Cells]:
        """``cells`` split into every tab's but the Game tab's, and the Game tab's."""
        try:
            game_id = self._tab(game_tab or GAME_TAB).sheet_id
        except StoreError:
            return cells, {}
        others: Cells = defaultdict(dict)
        game: Cells = defaultdict(dict)
        for (sheet_id, column), by_row in cells.items():
            (game if sheet_id == game_id else others)[(sheet_id, column)] = by_row
        return others, game

    def _clear_undo_tab(self) -> dict[str, Any]:
        return {"updateCells": {"range": {"sheetId": self.tabs[UNDO_TAB].sheet_id},
                                "fields": "userEnteredValue"}}
