"""A game's orders in a second, GM-only spreadsheet (the Game tab's ``orders sheet``).

Every player can read every tab of the shared spreadsheet, so orders that must stay secret
until they are resolved (a Ninja's target, a card to play) cannot be typed or collected
there. A game whose Game tab names an ``orders sheet`` (set by ``sheetmaster init
--orders-sheet ID``) reads its orders (or a Google Form's responses) from that tab of the
second spreadsheet, which only the GM and sheetmaster's account may open, and writes each
order's result back there; nothing of the orders is in the shared spreadsheet, its undo tab
neither.

The two spreadsheets cannot be written in one atomic request, so a resolve writes them in this
order (a check writes result cells alone, and moves nothing on):

1. in the orders spreadsheet: a mark signed with a key from the dice secret ("run R writes
   turn T"), the undo snapshot of the cells it overwrites, then the result cells;
2. the shared spreadsheet's turn, atomic as ever (:mod:`.gsheets_split`), Game tab last;
3. the mark's removal.

A run that finds a mark another run left compares its turn with the game's: still on turn T,
the shared spreadsheet was never moved on, so the orders spreadsheet is put back from its
snapshot (or, if the snapshot is not whole, no result cell was written yet) and the turn is
resolved again from the same state; on turn T + 1, the turn was written whole and the mark is
only removed. ``undo`` goes the other way round: a mark, the shared spreadsheet put back, then
the orders spreadsheet put back from its snapshot and the mark removed in one request; a run
that finds such a mark finishes it if the game is back on turn T, and only removes it if not.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from sheetmaster.kit.model import GameState, TurnResult
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.tabs import ORDERS_SHEET, ORDERS_TAB
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets_batches import (
    BATCH,
    Part,
    clear_write_markers,
    plan_write,
    request_json,
    write_marker,
)
from sheetmaster.stores.gsheets_binding import TAB_FIELDS, is_tab_protection
from sheetmaster.stores.gsheets_split import RESOLVE, UNDO, Mark
from sheetmaster.stores.gsheets_undo import UNDO_TAB, read_snapshot

if TYPE_CHECKING:
    from typing import Self  # Python 3.11; annotations only, so 3.10 runs this module

#: the folded headers of a verified sender's address (a Google Form's "Email Address").
EMAIL_HEADERS = ("email", "email address")


class OrdersSheet:
    """The orders spreadsheet of a :class:`~sheetmaster.stores.gsheets.SheetsStore` (a
    mixin): ``orders`` is the store of that spreadsheet when the Game tab names one, and the
    methods below are what the shared spreadsheet's store asks of it."""

    orders: Self | None = None

    # -- reading ---------------------------------------------------------------------------
    def with_orders_sheet(self: Any, state: GameState) -> GameState:
        """The game with its orders tab read from the orders spreadsheet, if the Game tab
        names one; a tab of verified e-mails players may edit stops the run."""
        from sheetmaster.kit.tabs import game_settings, raw_setting

        wanted = raw_setting(state, "orders tab") or ORDERS_TAB
        sheet = raw_setting(state, ORDERS_SHEET)
        if not sheet:
            self.orders = None
            self.check_intake(wanted)
            return state
        if sheet == self.spreadsheet_id:
            raise StoreError(f"the Game tab's '{ORDERS_SHEET}' names this very spreadsheet; "
                             f"it must be a second one that only the GM can open")
        if self.orders is None or self.orders.spreadsheet_id != sheet:
            self.orders = type(self)(sheet, self.client, retry=self.retry, run_id=self.run_id,
                                     secret=self.secret, account=self.account,
                                     max_payload=self.max_payload, game=self.spreadsheet_id)
        tables = self.orders.open_orders(wanted, game_settings(state)["turn"])
        self.notes += self.orders.notes
        self.orders.notes = []
        kept = {name: df for name, df in state.tables.items() if name != wanted}
        return GameState({**kept, wanted: tables[wanted]},
                         {**state.meta, "sheet_timezone": self.orders.time_zone})

    def open_orders(self: Any, wanted: str, turn: int) -> dict[str, Any]:
        """(On the orders spreadsheet's store) its tabs, checked and read; what a run that
        stopped part way left is put right first (``turn``: the game's)."""

        try:
            book = self.retry.call("reading the orders spreadsheet", lambda:
                                   self.http.fetch_sheet_metadata(
                                       self.spreadsheet_id, params={"fields": TAB_FIELDS}))
        except StoreError as exc:
            raise StoreError(f"the game's orders spreadsheet (the Game tab's "
                             f"'{ORDERS_SHEET}', {self.spreadsheet_id}) could not be read: "
                             f"{exc}. Share it with the account sheetmaster runs as, as "
                             f"Editor") from None
        self._learn(book)
        metadata = book.get("developerMetadata") or []
        self._note_marks(metadata)
        self._bind(metadata)
        if wanted not in self.read_titles():
            raise StoreError(f"the game's orders spreadsheet ({self.spreadsheet_id}) has no "
                             f"tab {wanted!r}" + (" that init bound to the game" if self.bound
                                                  else "") +
                             "; run `sheetmaster init` again with --orders-sheet")
        state = self.load(orders_sheet=False)
        if self.unfinished:
            self.recover_orders(turn)
            state = self.load(orders_sheet=False)
        self.check_intake(wanted)
        return state.tables

    def check_intake(self: Any, title: str) -> None:
        """An orders tab that carries verified e-mail addresses (a Google Form's responses)
        must be protected: anyone who may edit it could post as another player."""
        tab = self.tabs.get(title)
        if tab is None or not set(EMAIL_HEADERS) & set(tab.header):
            return
        if not any(is_tab_protection(p) for p in tab.protections):
            raise StoreError(
                f"the orders tab {title!r} takes verified e-mail addresses (a Google Form's "
                f"responses), but anyone who may edit the spreadsheet can edit it: a player "
                f"could post an order as another player, with any timestamp. Run `sheetmaster "
                f"init --sheet {self.game} --rules RULESET --form-tab {title!r}` again (with "
                f"--orders-sheet if the orders live in a second spreadsheet): it protects the "
                f"tab, and the Form still writes to it. Nothing was written")

    # -- writing (on the orders spreadsheet's store) ------------------------------------------
    def write_orders(self: Any, ruleset: Ruleset, result: TurnResult, changes: list[Any],
                     names: dict[str, str], *, marked: bool) -> None:
        """The turn's cells of the orders tab; ``marked`` (a resolve): with the signed mark
        and the undo snapshot, before the shared spreadsheet is written."""
        cells, undo = self.collect(changes, names, result.turn)
        tab = self._tab(names.get(ORDERS_TAB, ORDERS_TAB))
        for (row, column), text in self.formulas.get(tab.title, {}).items():
            cells[(tab.sheet_id, column)].setdefault(row, text)  # a formula is kept as text
        if not marked:
            if cells:
                self._write("writing the orders' results", [cells], mark=None, release=False)
            return
        mark = write_marker(self._mark_value(Mark(self.run_id, RESOLVE, result.turn)))
        prepare, snapshot = self._undo_requests(result.turn, undo)
        self._send_marked(plan_write([snapshot, cells], limit=self.max_payload,
                                     first=[mark, *prepare]), "writing the orders' results")

    def _send_marked(self: Any, parts: list[Part], what: str) -> None:
        """``parts`` (a mark first), in turn."""
        for i, part in enumerate(parts):
            label = what if len(parts) == 1 else f"{what} (request {i + 1} of {len(parts)})"
            self._send_part(part, label, first=i == 0)

    def finish_write(self: Any) -> None:
        """The turn is written whole: remove the mark (if that fails, the next run does)."""
        with contextlib.suppress(StoreError):
            self.retry.call("finishing the orders spreadsheet's write", lambda:
                            self.http.batch_update(self.spreadsheet_id,
                                                   {"requests": [clear_write_markers()]}))

    def begin_undo(self: Any, turn: int) -> None:
        """Mark the undo of ``turn`` before the shared spreadsheet is put back."""
        mark = write_marker(self._mark_value(Mark(self.run_id, UNDO, turn)))
        self._send_marked([Part(BATCH, [request_json(mark)])],
                          "marking the orders spreadsheet's undo")

    def finish_undo(self: Any, turn: int) -> None:
        """The shared spreadsheet is back on ``turn``: put the orders tab back too."""
        self._put_back(turn, "undoing the orders' results")

    def recover_orders(self: Any, turn: int) -> None:
        """Put right what a run that stopped left (see the module's text): the orders tab is
        put back when the game's ``turn`` is the mark's, and the mark removed either way."""
        if any(m.turn == turn for m in self.unfinished):
            self._put_back(turn, "putting back the orders of a turn an earlier run left "
                                 "half-written")
            self.notes.append(f"an earlier run stopped while writing turn {turn} to the "
                              f"orders spreadsheet; its orders were put back as they were")
        else:
            self._write("removing an earlier run's mark", last=[clear_write_markers()],
                        mark=None, release=False)
        self.unfinished = []

    def _put_back(self: Any, turn: int, what: str) -> None:
        """Restore the orders tab from the snapshot of ``turn`` (if there is a whole one),
        clear the snapshot and remove the marks; the last request does the last two."""
        try:
            snapshot = read_snapshot(self.spreadsheet_id, self.raw.get(UNDO_TAB, []),
                                     self.secret)
        except StoreError:
            snapshot = None  # not a whole one: no result cell was written after it
        restore = self._restore_cells(snapshot) \
            if snapshot is not None and snapshot.turn == turn else {}
        final = ([self._clear_undo_tab()] if UNDO_TAB in self.tabs else []) + \
            [clear_write_markers()]
        self._write(what, [restore], last=final, mark=None, release=False)
