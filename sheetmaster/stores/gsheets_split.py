"""A turn too big for one request, written in several so that a crash never leaves it mixed.

"To speed up requests, we recommend a 2 MB maximum payload" (developers.google.com/sheets/api/
limits), and Google refuses a body over 10,485,760 bytes. A write that fits ``max_payload``
goes in one atomic batchUpdate as always. A bigger one goes in several, in this order:

1. a mark (developer metadata ``sheetmaster-write``, signed with a key from the dice secret)
   saying this run is writing turn T, the undo tab cleared, then the new undo snapshot, whose
   digest line is its very last cell: a snapshot whose digest matches is a whole one;
2. the game's cells (every tab but the Game tab);
3. the Game tab's cells (which move the game on to turn T + 1), the mark's removal and the
   lock's release, in one request.

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
from dataclasses import dataclass
from typing import Any

from sheetmaster.kit.fairness import DiceSecretError, derived_key, sign
from sheetmaster.kit.model import GameState
from sheetmaster.kit.tabs import GAME_TAB, game_settings
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets_batches import (
    WRITE_KEY,
    batches,
    clear_write_markers,
    payload_size,
    write_marker,
)
from sheetmaster.stores.gsheets_cells import cell_requests
from sheetmaster.stores.gsheets_undo import UNDO_TAB, read_snapshot, snapshot_digest

Cells = dict[tuple[int, int], dict[int, Any]]
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
    def _write(self, requests_: list[dict[str, Any]], what: str, *, final: list[dict[str, Any]],
               mark: Mark | None, release: bool = True) -> int:
        """``requests_`` then ``final`` (and the lock's release): in one atomic batchUpdate
        when that fits ``max_payload``, else in several, the first carrying ``mark`` and the
        last carrying ``final`` and the mark's removal. Returns the requests sent."""
        tail = self._unlock_requests() if release else []
        if payload_size({"requests": requests_ + final + tail}) <= self.max_payload:
            self.apply(requests_ + final, what, release=release)
            return 1
        if mark is not None:
            if not self.secret:
                raise DiceSecretError(
                    f"this write is {payload_size({'requests': requests_}) / 1e6:.1f} MB, "
                    f"over the {self.max_payload / 1e6:.1f} MB one request may carry, so it "
                    f"goes in several requests; that needs the game's dice secret "
                    f"(SHEETMASTER_DICE_SECRET), which signs the mark that lets a later run "
                    f"put a half-written turn back. Nothing was written")
            requests_ = [write_marker(self._mark_value(mark)), *requests_]
            final = [*final, clear_write_markers()]
        parts = batches(requests_, self.max_payload, [*final, *tail])
        last = parts[-1][:len(parts[-1]) - len(tail)]
        for i, part in enumerate(parts[:-1]):
            self._send_part(part, f"{what} (request {i + 1} of {len(parts)})",
                            first=i == 0 and mark is not None)
        self.apply(last, f"{what} (request {len(parts)} of {len(parts)})", release=release)
        return len(parts)

    def _send_part(self, part: list[dict[str, Any]], what: str, *, first: bool) -> None:
        """One request of a split write. Every one but the first is idempotent; a refused
        retry of the first is fine when its mark is there (it was applied)."""
        attempts = self.retry.attempts
        try:
            self.retry.call(what, lambda: self.http.batch_update(
                self.spreadsheet_id, {"requests": part}))
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
            snapshot = None  # not a whole one: its digest line was never written
        pending = next((m for m in self.unfinished if m.turn == turn - (m.kind == UNDO)), None)
        restore: list[dict[str, Any]] = []
        final = [clear_write_markers()]
        if pending is not None and snapshot is not None and snapshot.turn == pending.turn and (
                pending.kind == RESOLVE or snapshot_digest(rows).startswith(pending.digest)):
            others, game = self._game_last(self._restore_cells(snapshot))
            restore, final = cell_requests(others), [*cell_requests(game),
                                                     self._clear_undo_tab(), *final]
            self.notes.append(
                f"an earlier run stopped while writing turn {pending.turn}; "
                + ("the game was put back as it was before it" if pending.kind == RESOLVE
                   else "its undo was finished"))
        elif pending is not None and pending.kind == RESOLVE:
            final = ([self._clear_undo_tab()] if UNDO_TAB in self.tabs else []) + final
            self.notes.append(f"an earlier run stopped while writing turn {pending.turn}, "
                              f"before it changed the game; its unfinished undo snapshot was "
                              f"dropped")
        self._write(restore, "putting back a turn an earlier run left half-written",
                    final=final, mark=None, release=False)
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
