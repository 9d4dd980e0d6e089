"""The tabs every game has, whatever its ruleset: Game settings, Orders and Log."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any, NoReturn
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np
import pandas as pd

from sheetmaster.kit import values
from sheetmaster.kit.lasting import lasting_tables
from sheetmaster.kit.model import PUBLIC, Event, GameState
from sheetmaster.kit.orders import ORDER, PLAYER, REASON, RESULT, TURN
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import (
    Column,
    Kind,
    Problem,
    Problems,
    StateError,
    Table,
    validate_table,
)
from sheetmaster.kit.settings import MissingSetting, read_settings
from sheetmaster.kit.values import BadValue

GAME_TAB, ORDERS_TAB, LOG_TAB = "Game", "Orders", "Log"
#: the GM's own orders (GM-only kinds among them), in a tab players cannot edit.
GM_ORDERS_TAB = "GM orders"

GAME = Table(
    GAME_TAB,
    (
        Column("setting", Kind.NAME, "what the value is"),
        Column("value", Kind.RAW, "the value; sheetmaster updates 'turn', the deadline and the "
               "dice settings", owned=True),
        Column("help", Kind.TEXT, "what the setting means", optional=True),
    ),
    key="setting",
    help="Game settings: one setting a row.",
)

#: Game settings: key -> (default, help). ``turn`` and the dice settings are sheetmaster's.
SETTINGS: dict[str, tuple[Any, str]] = {
    "ruleset": ("", "which rules this game plays by (do not change mid-game)"),
    "game": ("", "the game's name"),
    "turn": (1, "the turn being played now; sheetmaster adds 1 after each resolve"),
    "deadline": ("", "when the current turn's orders close, e.g. 2026-11-22 23:59 (optional)"),
    "timezone": ("UTC", "time zone of the deadline, e.g. America/New_York"),
    "turn length (hours)": ("", "hours between deadlines; the deadline moves on after a resolve"),
    "dice commitment": ("", "SHA-256 commitment to this turn's dice, published before the "
                            "deadline (filled in by sheetmaster; check it after the resolve "
                            "with `sheetmaster verify`)"),
    "last dice seed": ("", "the dice seed of the last resolved turn, revealed after it "
                           "(filled in by sheetmaster)"),
    "last dice salt": ("", "revealed with the seed: the commitment is SHA-256 of 'sheetmaster "
                           "dice TURN SEED SALT' (filled in by sheetmaster)"),
    "orders tab": ("", "the tab orders are read from, if not 'Orders' (e.g. a Google Form's "
                       "'Form Responses 1')"),
}
# A setting a new game does not list, read when the GM adds its row: ORDER_CAP (at most so
# many order rows from one player a turn; see sheetmaster.engine.order_cap).

#: at most so many order rows from one player a turn (see :mod:`sheetmaster.engine.order_cap`):
#: a Game tab setting, and its value when the tab leaves it blank.
ORDER_CAP = "order rows per player"
DEFAULT_CAP = 500


def read_cap(value: Any) -> int:
    """The setting's value as a whole number of at least 1 (blank: the default); raises
    BadValue saying what is wrong."""
    if values.is_blank(value):
        return DEFAULT_CAP
    cap = values.whole_number(value)
    if cap < 1:
        raise BadValue(f"must be 1 or more (the default is {DEFAULT_CAP})")
    return cap


#: the Game setting that names a second, GM-only spreadsheet holding the orders tab.
ORDERS_SHEET = "orders sheet"
ORDERS_SHEET_HELP = ("the id of a second spreadsheet, shared with the GM and sheetmaster "
                     "only, that holds the orders tab (keeps orders secret; set by `sheetmaster "
                     "init --orders-sheet`)")


def tab_clashes(titles: Iterable[str]) -> list[tuple[str, str]]:
    """Pairs of tabs whose names differ only in case or white space (a 'Players' and a
    'Players' followed by a no-break space), the first of each pair the earlier tab."""
    seen: dict[str, str] = {}
    out = []
    for title in titles:
        first = seen.setdefault(values.fold(title), title)
        if first != title:
            out.append((first, title))
    return out


def check_tab_names(titles: Iterable[str]) -> None:
    """Refuse a game where two tabs' names differ only in case or white space: a player who
    adds a look-alike of a protected tab must never pass it off as the game's."""
    clashes = tab_clashes(titles)
    if clashes:
        raise StateError([Problem(first, None, None, (
            f"tab {first!r} and tab {other!r} have the same name but for case or spaces, so "
            f"sheetmaster cannot tell which is the game's; delete or rename the one that is "
            f"not (anyone who may edit the sheet can add a tab)")) for first, other in clashes])


def find_tab(tables: Iterable[str], tab: str) -> str | None:
    """``tab`` if the game has a tab of exactly that name, else None; a game with two tabs
    whose names fold alike is refused (:func:`check_tab_names`)."""
    check_tab_names(tables)
    return tab if tab in tables else None


def near_tab(tables: Iterable[str], tab: str) -> str | None:
    """A tab whose name is ``tab``'s but for case or spaces (for a helpful message)."""
    folded = values.fold(tab)
    return next((t for t in tables if values.fold(t) == folded and t != tab), None)


LOG = Table(
    LOG_TAB,
    (
        Column("turn", Kind.RAW, owned=True),
        Column("#", Kind.RAW, "event number within the turn", owned=True),
        Column("phase", Kind.RAW, owned=True),
        Column("player", Kind.RAW, owned=True),
        Column("event", Kind.RAW, owned=True),
        Column("details", Kind.RAW, owned=True),
        Column("die", Kind.RAW, "the die rolled, e.g. d6", owned=True),
        Column("roll", Kind.RAW, "the value rolled", owned=True),
    ),
    help="Every change and every die roll of every turn, written by sheetmaster.",
    append_only=True,
)


def orders_table(ruleset_columns: tuple[Column, ...], tab: str = ORDERS_TAB) -> Table:
    return Table(
        tab,
        (
            Column(TURN, Kind.RAW, "turn number; blank means the current turn", owned=True),
            Column(PLAYER, Kind.RAW, "who gives the order"),
            Column(ORDER, Kind.RAW, "the kind of order (pick from the list)"),
            *ruleset_columns,
            Column("email", Kind.RAW, "verified sender address (form intake only)",
                   optional=True, aliases=("email address",)),
            Column("timestamp", Kind.RAW, "when the order was posted (form intake); orders "
                   "posted after the deadline wait for the next turn", optional=True),
            Column(RESULT, Kind.RAW, "filled in by sheetmaster", owned=True),
            Column(REASON, Kind.RAW, "filled in by sheetmaster", owned=True),
        ),
        help="Players' orders, one a row, earliest first." if tab == ORDERS_TAB else
        "The GM's orders, one a row: 'player' names who an order concerns.",
        player_input=True,
    )


def read_meta(game: pd.DataFrame, problems: Problems,
              store_meta: dict[str, Any] | None = None,
              ruleset_settings: Mapping[str, tuple[Any, str]] | None = None, *,
              first_turn: int = 1) -> dict[str, Any]:
    """Game settings from the validated Game tab; checks turn, deadline and time zone.

    ``store_meta`` is what the store knows (e.g. the spreadsheet's own time zone, in which a
    Form's timestamps are written); ``ruleset_settings`` are the ruleset's own settings and
    their defaults (the ruleset checks their values).
    """
    meta: dict[str, Any] = {key: default for key, (default, _) in SETTINGS.items()}
    meta.update({values.fold(key): default
                 for key, (default, _) in (ruleset_settings or {}).items()})
    meta["setting_rows"] = rows = {}
    meta.update(store_meta or {})
    if "setting" not in game.columns or "value" not in game.columns:
        problems.raise_if_any()  # the missing column is reported; no setting can be read
    for row, key, value in zip(game.index, game["setting"].tolist(), game["value"].tolist()):
        name = values.fold(key)
        meta[name] = "" if values.is_blank(value) else value
        rows[name] = int(row)
    try:
        meta["turn"] = values.whole_number(meta["turn"])
        if meta["turn"] < first_turn:
            raise BadValue(f"must be {first_turn} or more")
    except BadValue as exc:
        problems.add(GAME_TAB, rows.get("turn"), "value", f"setting 'turn': {exc}")
    try:
        meta["zone"] = ZoneInfo(values.text(meta["timezone"]) or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        problems.add(GAME_TAB, rows.get("timezone"), "value",
                     f"{values.show(meta['timezone'])} is not a time zone (e.g. Europe/Paris)")
        meta["zone"] = ZoneInfo("UTC")
    try:
        meta["sheet_zone"] = ZoneInfo(meta.get("sheet_timezone") or values.text(
            meta["timezone"]) or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        meta["sheet_zone"] = meta["zone"]
    try:
        # A deadline is typed in the game's time zone, and a typed date becomes a serial
        # number of that same wall-clock time.
        meta["deadline_at"] = parse_deadline(meta["deadline"], meta["zone"], meta["zone"])
    except BadValue as exc:
        problems.add(GAME_TAB, rows.get("deadline"), "value", f"setting 'deadline': {exc}")
    try:
        meta[ORDER_CAP] = read_cap(meta.get(ORDER_CAP))
    except BadValue as exc:
        problems.add(GAME_TAB, rows.get(ORDER_CAP), "value", f"setting '{ORDER_CAP}': {exc}")
        meta[ORDER_CAP] = DEFAULT_CAP
    if values.text(meta["turn length (hours)"]):
        try:
            meta["turn length (hours)"] = hours = values.whole_number(meta["turn length (hours)"])
            if meta.get("deadline_at") is not None and hours > 0:
                meta["deadline_at"] + timedelta(hours=hours)  # the next deadline must exist
        except BadValue as exc:
            problems.add(GAME_TAB, rows.get("turn length (hours)"), "value", str(exc))
        except OverflowError:
            problems.add(GAME_TAB, rows.get("turn length (hours)"), "value",
                         f"{hours} hours after the deadline is past the year 9999")
    return meta


#: day 0 of spreadsheet date serial numbers (Google Sheets and Excel since 1900-03-01).
_SERIAL_EPOCH = datetime(1899, 12, 30)


def parse_deadline(value: Any, zone: ZoneInfo, sheet_zone: ZoneInfo | None = None
                   ) -> datetime | None:
    """A date and time: typed text, a datetime cell, or a date serial number.

    Serial numbers are wall-clock time in ``sheet_zone`` (the spreadsheet's zone for a Form's
    timestamps); text and datetime cells without a zone are in the game's ``zone``.
    """
    if values.is_blank(value):
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            moment = _SERIAL_EPOCH + timedelta(days=float(value))
        except (OverflowError, ValueError):  # a number no date is: 1e12, -1e6, inf
            raise BadValue(f"{values.show(value)} is not a date and time like "
                           "2026-11-22 23:59") from None
        return moment.replace(microsecond=0, tzinfo=sheet_zone or zone)
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(values.text(value).replace("T", " "))
        except ValueError:
            raise BadValue(f"{values.show(value)} is not a date and time like "
                           "2026-11-22 23:59") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=zone)


def advance_game(game: pd.DataFrame, meta: dict[str, Any], seed: int,
                 extra: Mapping[str, Any] | None = None,
                 ruleset_settings: Mapping[str, tuple[Any, str]] | None = None,
                 now: datetime | None = None) -> pd.DataFrame:
    """The Game tab after a resolve: turn + 1, the seed used, the deadline moved on, and
    ``extra`` settings for the next turn (e.g. its season; a setting the tab lacks gets a row,
    with its help from ``ruleset_settings``, unless its value is blank)."""
    helps = {**SETTINGS, **(ruleset_settings or {})}
    updates: dict[str, Any] = {"turn": meta["turn"] + 1, "last dice seed": str(seed)}
    updates.update(extra or {})
    hours = meta.get("turn length (hours)")
    if meta.get("deadline_at") is not None and isinstance(hours, int) and hours > 0:
        nxt = next_deadline(meta["deadline_at"], hours, now)
        updates["deadline"] = nxt.replace(tzinfo=None).isoformat(sep=" ", timespec="minutes")
    elif meta.get("deadline_at") is not None:
        # The deadline was this turn's; without a turn length the next turn has none until
        # the GM sets it (kept, it would be long past, and every nightly run would resolve).
        updates["deadline"] = ""
    out = game.copy()
    keys = [values.fold(k) for k in out["setting"].tolist()]
    for key, value in updates.items():
        if key in keys:
            out.at[out.index[keys.index(key)], "value"] = value
        elif values.is_blank(value):
            continue
        else:
            row = (max(out.index) + 1) if len(out) else 2
            out.loc[row] = {"setting": key, "value": value,
                            **({"help": helps.get(key, ("", ""))[1]}
                               if "help" in out.columns else {})}
    return out


def next_deadline(deadline: datetime, hours: int, now: datetime | None = None) -> datetime:
    """The deadline after ``deadline``: a turn length later, or as many turn lengths as it
    takes to be after ``now`` (a game resolved long after its deadline gets its next turn in
    the future, not one that is already due)."""
    step = timedelta(hours=hours)
    nxt = deadline + step
    if now is not None and nxt <= now:
        nxt = deadline + step * ((now - deadline) // step + 1)
    return nxt


def log_rows(log: pd.DataFrame, turn: int, events: list[Event]) -> pd.DataFrame:
    """The Log tab with this turn's public events appended below the existing rows.

    Anyone who can open the sheet reads the Log, so private and GM-only events stay out of
    it (they go to the players' own reports and the GM's), and the public ones are numbered
    without gaps that would tell something happened."""
    audience = list(map(_AUDIENCE, events))
    if audience.count(PUBLIC) != len(events):
        events = [e for e, who in zip(events, audience) if who == PUBLIC]
    n = len(events)
    start = (int(max(log.index)) + 1) if len(log) else 2
    sides, rolls = list(map(_SIDES, events)), list(map(_VALUE, events))
    cells = np.empty((len(LOG_COLUMNS), n), dtype=object)  # one block: one frame of columns
    cells[0] = turn
    cells[1] = np.arange(1, n + 1)
    cells[2:6] = [list(map(get, events)) for get in _TEXTS]
    if sides.count(None) == n and rolls.count(None) == n:  # no die rolled: most turns' lines
        cells[6:8] = ""
    else:
        cells[6] = [f"d{s}" if s else "" for s in sides]
        cells[7] = ["" if v is None else v for v in rolls]
    new = pd.DataFrame(cells.T, index=range(start, start + n), columns=list(LOG_COLUMNS),
                       dtype=object, copy=False)
    if not len(log):
        return new
    return pd.concat([log, new.reindex(columns=log.columns)])


#: the Log tab's columns, as log_rows writes them.
LOG_COLUMNS = ("turn", "#", "phase", "player", "event", "details", "die", "roll")
_AUDIENCE, _SIDES, _VALUE = map(operator.attrgetter, ("audience", "sides", "value"))
_TEXTS = tuple(map(operator.attrgetter, ("phase", "player", "kind", "text")))


def all_tables(ruleset: Ruleset) -> tuple[Table, ...]:
    """Every tab of a game of this ruleset, in workbook order."""
    gm = (orders_table(ruleset.order_columns, GM_ORDERS_TAB),) if ruleset.gm_orders else ()
    return (GAME, orders_table(ruleset.order_columns), *gm, *ruleset.tables,
            *lasting_tables(ruleset.lasting, ruleset.timer_layout), LOG)


def raw_setting(raw: GameState, key: str) -> str:
    """A Game setting's value as text, read before the tabs are checked ('' if none)."""
    game = raw.tables.get(find_tab(raw.tables, GAME_TAB) or "")
    if game is not None and len(game.columns) >= 2:
        for name, value in zip(game.iloc[:, 0].tolist(), game.iloc[:, 1].tolist()):
            if values.fold(values.text(name)) == key and values.text(value):
                return values.text(value)
    return ""


DICE_COMMITMENT = "dice commitment"


def calendar_settings(ruleset: Ruleset, turn: int, meta: dict[str, Any]) -> dict[str, Any]:
    """The settings sheetmaster writes for ``turn`` besides the turn number (e.g. a season),
    for a new game's Game tab (where the settings are not read yet)."""
    problems = Problems()
    settings = read_settings(ruleset.all_settings(), {values.fold(k): v
                                                      for k, v in meta.items()}, problems)
    try:
        return ruleset.calendar.written(ruleset.calendar.date(turn, settings))
    except MissingSetting:
        return {}


def game_settings(state: GameState) -> dict[str, Any]:
    """The Game tab's settings alone (turn, deadline...), without reading the other tabs."""
    tab = find_tab(state.tables, GAME_TAB)
    if tab is None:
        refuse_game_tab(f"the game has no '{GAME_TAB}' tab")
    problems = Problems()
    meta = read_meta(validate_table(GAME, state.tables[tab], problems), problems, state.meta,
                     first_turn=0)
    problems.raise_if_any()
    return meta


def refuse_game_tab(message: str) -> NoReturn:
    """The Game tab cannot be used: a broken sheet, like any state tab's problem."""
    raise StateError([Problem(GAME_TAB, None, None, message)])
