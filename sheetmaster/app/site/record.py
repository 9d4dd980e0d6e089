"""A game's public record, read from a workbook or a Google Sheet: the site is built from it.

The record is what every player can already see: the game as it stood after each resolved
turn (a workbook's ``FILE.backups/before-turn-N.xlsx`` and the workbook itself; a Google
Sheet's current tabs and, for its last turn, the undo snapshot), and each turn's public report
(the ``NAME-turn-N-report.md`` a resolve wrote beside the workbook, else the report rebuilt
from the sheet's own Log and order rows: :mod:`sheetmaster.app.site.logged`).

This module is the site's one door into the engine: it reads stores and validates states;
the rest of :mod:`sheetmaster.app.site` works on what it returns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sheetmaster.app.runs import ruleset_of
from sheetmaster.app.site.logged import Logbook
from sheetmaster.engine.turn import find_tab
from sheetmaster.kit import values
from sheetmaster.kit.model import GameState
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import Problem, Problems, StateError, match_columns, validate_table
from sheetmaster.kit.settings import Settings, read_settings, setting_rows
from sheetmaster.kit.tabs import GAME, GAME_TAB, ORDERS_TAB, all_tables, read_meta
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets_undo import UNDO_TAB, parse_snapshot, tables_before
from sheetmaster.stores.xlsx import XlsxStore
from sheetmaster.stores.xlsx_files import backups_folder

_BACKUP = re.compile(r"^before-turn-(\d+)\.xls[xm]$")


@dataclass
class Moment:
    """The game as it stood after ``turn`` (``ruleset.first_turn - 1``: as set up)."""

    turn: int
    #: every tab validated (see :func:`checked`).
    state: GameState
    #: the turn's place in the game's calendar ('Spring 1862'), '' for a bare turn number.
    date: str = ""


@dataclass
class Record:
    """What the site shows: moments, public reports, and what the source could not give."""

    ruleset: Ruleset
    #: the Game tab's name of the game.
    game: str
    #: the game as it stands now (its latest moment).
    latest: Moment
    #: every moment the source gives, by turn.
    moments: dict[int, Moment]
    #: resolved turn -> its public report (markdown, every player-typed text escaped).
    reports: dict[int, str]
    #: where each report came from ('the turn's report', 'the sheet's Log...'), by turn.
    report_sources: dict[int, str] = field(default_factory=dict)
    #: turn -> whether its report is whole: written by the resolve, or rebuilt with the game
    #: before and after the turn at hand (else it lacks holdings and balances).
    complete: dict[int, bool] = field(default_factory=dict)
    #: what the source cannot give, said on the site.
    notes: list[str] = field(default_factory=list)
    #: the Log and order rows of every turn, read once when a report is rebuilt.
    logbook: Logbook | None = field(default=None, repr=False)


class RecordError(StoreError):
    """A part of the record cannot be read; the message names the file or tab."""


def workbook_record(path: Path) -> Record:
    """The record of a workbook game: the workbook, its backups and the reports beside it."""
    store = XlsxStore(path, backup=False)
    with store.locked():
        raw = store.load()
    ruleset = ruleset_of(raw)
    latest = _moment(ruleset, raw, None, str(path))
    moments = {latest.turn: latest}
    for turn, kept in sorted(_backups(path).items()):
        if turn - 1 < latest.turn:
            moments[turn - 1] = _moment(ruleset, XlsxStore(kept, backup=False).load(),
                                        turn - 1, f"the backup {kept.name}")
    record = Record(ruleset, _game_name(latest), latest, moments, {})
    for turn in range(ruleset.first_turn, latest.turn + 1):
        written = store.report_path(turn)
        if written.is_file():
            record.reports[turn] = written.read_text(encoding="utf-8")
            record.report_sources[turn] = "the public report the turn's resolve wrote"
        else:
            _rebuild(record, turn, "the workbook's Log and order rows (the turn's report file "
                                   "is not beside it)")
    missing = [t for t in range(min(moments), latest.turn) if t not in moments]
    if missing:
        many = len(missing) > 1
        record.notes.append(f"No backup of the game after turn{'s' if many else ''} "
                            f"{_turns(missing)} is kept beside the workbook, so there is no "
                            f"map of {'them' if many else 'it'} and the charts skip "
                            f"{'them' if many else 'it'}.")
    return record


def sheet_record(store: Any) -> Record:
    """The record of a Google Sheet game: its tabs now and, for the last turn, its undo
    snapshot. A Sheet keeps no older states and no report files: older turns' reports are
    rebuilt from its Log and order rows, and their maps and numbers come only from a site
    built earlier (see :mod:`sheetmaster.app.site.build`)."""
    raw = store.look()
    ruleset = ruleset_of(raw)
    latest = _moment(ruleset, raw, None, "the sheet")
    moments = {latest.turn: latest}
    undo = store.raw.get(UNDO_TAB)
    if undo and len(undo) > 1:
        snapshot = parse_snapshot(undo)
        if snapshot.turn == latest.turn:
            tables = {n: df for n, df in raw.tables.items() if values.fold(n) != values.fold(
                UNDO_TAB)}
            before = GameState(tables_before(tables, snapshot), dict(raw.meta))
            moments[latest.turn - 1] = _moment(ruleset, before, latest.turn - 1,
                                               f"the '{UNDO_TAB}' tab")
    record = Record(ruleset, _game_name(latest), latest, moments, {}, notes=[SHEET_NOTE])
    for turn in range(ruleset.first_turn, latest.turn + 1):
        _rebuild(record, turn, "the sheet's Log and order rows")
    return record


#: what the site of a Google Sheet game says of its older turns.
SHEET_NOTE = ("A Google Sheet keeps the game as it stands and, in its undo snapshot, as it was "
              "before the last turn: the maps and numbers of older turns are those this site "
              "kept when it was built after each of them; a turn it never saw has its report, "
              "from the sheet's Log, and no map.")


def _rebuild(record: Record, turn: int, source: str) -> None:
    """Turn ``turn``'s report rebuilt from the record's Log and order rows, if it has any."""
    if record.logbook is None:
        record.logbook = Logbook(record.ruleset, record.latest.state)
    before, after = record.moments.get(turn - 1), record.moments.get(turn)
    rebuilt = record.logbook.report(turn, after and after.state, before and before.state)
    if rebuilt is not None:
        record.reports[turn], record.report_sources[turn] = rebuilt, source
        record.complete[turn] = before is not None and after is not None


def _moment(ruleset: Ruleset, raw: GameState, turn: int | None, source: str) -> Moment:
    """The game after ``turn`` (None: the turn before the one the Game tab says is played)."""
    try:
        state, settings = checked(ruleset, raw)
    except StateError as exc:
        raise RecordError(f"{source} cannot be read: {exc}") from None
    played = state.turn
    if turn is not None and played != turn + 1:
        raise RecordError(f"{source} is of turn {played}, not of turn {turn + 1}")
    return Moment(played - 1, state, _date(ruleset, settings, played - 1))


def checked(ruleset: Ruleset, raw: GameState) -> tuple[GameState, Settings]:
    """Every tab of the game validated as a resolve validates it (a broken one raises
    StateError naming tab, row and column), and the Game tab's settings. Unlike a resolve's
    :func:`~sheetmaster.engine.turn.prepare`, no world is built: nothing sealed is opened, and no
    dice secret is needed."""
    problems = Problems()
    game = find_tab(raw.tables, GAME_TAB)
    if game is None:
        raise StateError([Problem(GAME_TAB, None, None, "the game has no Game tab")])
    meta = read_meta(validate_table(GAME, raw.tables[game], problems), problems, raw.meta,
                     setting_rows(ruleset.all_settings()), first_turn=ruleset.first_turn)
    orders_tab = values.text(meta.get("orders tab")) or ORDERS_TAB
    tables: dict[str, pd.DataFrame] = {}
    for table in all_tables(ruleset):
        name = find_tab(raw.tables, orders_tab if table.tab == ORDERS_TAB else table.tab)
        if name is None:
            problems.add(table.tab, None, None, f"the game has no tab named '{table.tab}'")
        elif table.player_input or table.append_only:
            tables[table.tab] = match_columns(table, raw.tables[name], problems)
        else:
            tables[table.tab] = validate_table(table, raw.tables[name], problems)
    settings = read_settings(ruleset.all_settings(), meta, problems)
    problems.raise_if_any()
    return GameState(tables, meta), settings


def _date(ruleset: Ruleset, settings: Settings, turn: int) -> str:
    """'Spring 1862', '1850', 'era 2, round 3' for the calendar's turn ('' if it has none)."""
    if turn < ruleset.first_turn:
        return ""
    try:
        date = ruleset.calendar.date(turn, settings)
    except Exception:  # noqa: BLE001 - a label only: a setting the calendar lacks drops it
        return ""
    if date.setup and ruleset.calendar.setup_turn:
        return "setup"
    words = [w for w in (date.season, "" if date.year is None else str(date.year)) if w]
    if date.era is not None:
        words.append(f"era {date.era}" + (f", round {date.round}" if date.round else "")
                     + (f", {date.stage}" if date.stage else ""))
    return " ".join(words)


def _backups(path: Path) -> dict[int, Path]:
    """before-turn-N -> its file, of the backups kept beside the workbook."""
    folder = backups_folder(path)
    if not folder.is_dir():
        return {}
    found = {}
    for kept in folder.iterdir():
        match = _BACKUP.match(kept.name)
        if match and kept.suffix == (path.suffix or ".xlsx"):
            found[int(match[1])] = kept
    return found


def _game_name(moment: Moment) -> str:
    return values.text(moment.state.meta.get("game")) or "the game"


def _turns(turns: list[int]) -> str:
    shown = [str(t) for t in turns]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"
