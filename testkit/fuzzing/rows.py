"""Order rows for the fuzzer: cells valid, malformed and plain strange, and the rows made
of them from a game's names (plus the rulesets' own scenarios, :data:`SCENARIOS`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from sheetmaster.engine.checking import CHECK_WORDS
from sheetmaster.engine.turn import _orders_tab, find_tab, prepare
from sheetmaster.kit import values
from sheetmaster.kit.model import GameState
from sheetmaster.kit.orders import FINAL_RESULTS, ORDER, PLAYER, REASON, RESULT, TURN, OrderKind
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import Kind
from sheetmaster.kit.tabs import ORDERS_TAB, all_tables
from testkit.fuzzing.choosers import Chooser
from testkit.fuzzing.games import SECRET

#: the final words a fuzzed row may already hold: every one the engine writes (a status, or
#: "private", a secret order's face), so a new one is drawn as soon as it exists.
RESOLVED_WORDS = sorted(FINAL_RESULTS)
#: what else a result cell may hold: the words ``check`` writes (not final: the row still
#: needs its result) and a player's scribble.
UNRESOLVED_WORDS = sorted(set(CHECK_WORDS.values())) + ["???"]

# -- cells: valid, malformed and plain strange ------------------------------------------------

#: amounts as players type them; a few are fine (" 3 ", 3.0), most are not.
JUNK_AMOUNTS: tuple[Any, ...] = (
    "1,2", "007", "ten", 2.5, -3, "-3", True, False, 10**12, "10**12", 10**30, 1e300, 0, "0",
    "+3", " 3 ", 3.0, "3.0", "2.5", float("nan"), float("inf"), -0.0, "1e3", "\uff13",
    "\u0663", "\u00bd", "", "   ", None, "=1+1", "@3", "-", "3 armies", "three", "2-3",
)
#: text a cell may hold instead of a name: formulas, unicode, long, blank, numbers...
JUNK_TEXT: tuple[Any, ...] = (
    "", "   ", None, "=SUM(A1:A3)", '=HYPERLINK("http://x","y")', "+cmd", "-cmd", "@import",
    "\t=1", " =1", "=", "-", "@", "+", "\u00fcn\u00efc\u00f6d\u00e9", "\u540d\u524d",
    "\U0001f642", "\u200b", "\u202eevil", "x" * 5000, "a\nb", "NULL", "None", "nan", "#REF!",
    "'quoted", 0, 7, -1, 3.5, True, float("nan"), "O'Brien", "Robert'); DROP TABLE x;--",
    "<script>alert(1)</script>", "\\", "%s%n", "{amount}", "{}", "Mordred", "Atlantis",
    datetime(2026, 1, 1, 12, 0), date(2026, 1, 1), time(12, 0), timedelta(days=1),
)
#: turn cells of rows meant for another turn, or unreadable ones (the current turn is added).
JUNK_TURNS: tuple[Any, ...] = ("three", -1, "-1", 2.5, "2,5", True, "next", 10**12, "=1+1")
JUNK_EMAILS: tuple[Any, ...] = ("mallory@example.org", "", None, "   ", "=HYPERLINK(1)", 5,
                                "not an address")


@dataclass(frozen=True)
class Formula:
    """A cell holding a formula: the store reads ``cached`` and records ``text``."""

    text: str
    cached: Any = None


def name_variant(ch: Chooser, name: str) -> Any:
    """The same name as a player might type it: case, spaces, or a near miss."""
    return ch.choice((
        name.upper(), name.lower(), f"  {name} ", name.swapcase(), f"{name}\t",
        name.replace(" ", "  "), name.replace(" ", "\u00a0"), name + "x", name[:-1] or "?",
        f"={name}", f"@{name}", Formula(f'=TRIM("{name}")', name),
    ))


# -- order rows ---------------------------------------------------------------------------


@dataclass
class Pools:
    """What a game's order rows are made of: its names, its players' addresses, its columns."""

    ruleset: Ruleset
    names: dict[str, list[str]]
    texts: list[str]
    emails: dict[str, str]
    columns: list[str]
    turn: int
    #: the ruleset's world (for the ruleset's own row scenarios).
    world: Any = None

    @property
    def players(self) -> list[str]:
        return self.names.get("player", [])


def pools_of(ruleset: Ruleset, raw: GameState, prepared: Any = None) -> Pools:
    """Names by category from the ruleset's world, free text from the game's name columns."""
    prepared = prepared or prepare(ruleset, raw, SECRET)
    names = {category: list(lookup) for category, lookup in prepared.world.names().items()}
    texts = ["deal-1", "deal-2", "Deal-3", "a-b", "x"]
    for table in ruleset.tables:
        df = prepared.state.tables[table.tab]
        for column in table.columns:
            if column.kind is Kind.NAME and column.name in df.columns:
                texts.extend(v for v in df[column.name].tolist()[:50] if v)
    raw_orders = raw.tables[find_tab(raw.tables, _orders_tab(raw)) or ORDERS_TAB]
    columns = [_canonical_column(ruleset, c) for c in raw_orders.columns]
    return Pools(ruleset, names, list(dict.fromkeys(texts)), dict(prepared.world.emails()), columns,
                 prepared.state.turn, prepared.world)


def _canonical_column(ruleset: Ruleset, header: Any) -> str:
    table = next(t for t in all_tables(ruleset) if t.tab == ORDERS_TAB)
    for column in table.columns:
        if values.fold(str(header)) in {values.fold(n) for n in (column.name, *column.aliases)}:
            return column.name
    return str(header)


def _field_cell(ch: Chooser, pools: Pools, f: Any, made: list[dict[str, Any]]) -> Any:
    """A cell for one field of an order kind, valid most of the time."""
    if f.count:
        return ch.integer(1, 6) if ch.chance(85) else ch.choice(JUNK_AMOUNTS)
    if f.decimal:
        fine = (ch.integer(1, 12), f"{ch.integer(0, 9)}.{ch.choice((25, 5, 75))}", 0.5)
        return ch.choice(fine) if ch.chance(85) else ch.choice(JUNK_AMOUNTS)
    if f.names:
        names = pools.names.get(f.names) or ["?"]
        if ch.chance(80):
            return ch.choice(names)
        return name_variant(ch, ch.choice(names)) if ch.chance(60) else ch.choice(JUNK_TEXT)
    # free text: often one an earlier row of the batch used (a deal and its acceptance)
    earlier = [r[f.column] for r in made[-40:] if isinstance(r.get(f.column), str)]
    if earlier and ch.chance(60):
        return ch.choice(earlier)
    return ch.choice(pools.texts) if ch.chance(85) else ch.choice(JUNK_TEXT)


def order_row(ch: Chooser, pools: Pools, made: list[dict[str, Any]]) -> dict[str, Any]:
    """One order row: valid, malformed, blank, duplicated, for another turn..."""
    kinds: Sequence[OrderKind] = pools.ruleset.order_kinds
    shape = ch.integer(0, 99)
    if shape < 4 and made:
        return dict(ch.choice(made))  # a duplicate row
    if shape < 8:
        return {c: ch.choice((None, "", "  ", float("nan"))) for c in ("player", "order")}
    kind = ch.choice(kinds) if kinds else None
    row: dict[str, Any] = {}
    players = pools.players or ["?"]
    player = ch.choice(players)
    row[PLAYER] = player if ch.chance(85) else (
        name_variant(ch, player) if ch.chance(50) else ch.choice(JUNK_TEXT))
    if kind is None or shape < 12:
        row[ORDER] = ch.choice(JUNK_TEXT + ("raise dragons",))
    else:
        spelling = ch.choice((kind.name, *kind.aliases))
        row[ORDER] = spelling if ch.chance(85) else name_variant(ch, spelling)
    for f in kind.fields if kind else ():
        if f.required or ch.chance(50):
            row[f.column] = _field_cell(ch, pools, f, made)
    if shape < 20:  # fields of another kind, or junk in a random input column
        other = ch.choice(kinds) if kinds else None
        for f in other.fields if other else ():
            row.setdefault(f.column, _field_cell(ch, pools, f, made))
        inputs = [c for c in pools.columns if c not in (RESULT, REASON, TURN)]
        if inputs:
            row[ch.choice(inputs)] = ch.choice(JUNK_TEXT + JUNK_AMOUNTS)
    turn = pools.turn
    if shape < 30:
        row[TURN] = ch.choice((turn - 1, turn + 1, turn + 5, 0, *JUNK_TURNS))
        if ch.chance(40):
            row[RESULT] = ch.choice(RESOLVED_WORDS)
    elif ch.chance(20):
        row[TURN] = ch.choice((turn, float(turn), str(turn), f" {turn} ", f"00{turn}"))
    if ch.chance(5):
        row[RESULT] = ch.choice(RESOLVED_WORDS + UNRESOLVED_WORDS)
    if "email" in pools.columns:
        address = pools.emails.get(player, "")
        row["email"] = (address if ch.chance(80) else address.upper()) if ch.chance(85) else \
            ch.choice(JUNK_EMAILS + tuple(pools.emails.values()))
    if "timestamp" in pools.columns and ch.chance(70):
        row["timestamp"] = ch.choice((
            "2026-01-01 10:00", "2026-12-31 23:59", "2099-01-01 00:00", "yesterday",
            datetime(2026, 1, 2, 3, 4), 46000.5, 40000, "", None, 1e12, -5, float("inf"),
            "2026-02-30 10:00", 99999999,
        ))
    if "comment" in pools.columns and ch.chance(10):
        row["comment"] = ch.choice(JUNK_TEXT)
    return row


#: ruleset name -> a generator of a few rows that make sense together (a deal and its
#: acceptances, a claim next to one's land...), so the phases see orders that go through.
SCENARIOS: dict[str, Callable[[Chooser, Pools], list[dict[str, Any]]]] = {}


def order_rows(ch: Chooser, pools: Pools, n: int) -> list[dict[str, Any]]:
    """``n`` order rows: most made cell by cell, some by the ruleset's scenarios."""
    made: list[dict[str, Any]] = []
    scenario = SCENARIOS.get(pools.ruleset.name)
    while len(made) < n:
        rows = scenario(ch, pools)[:n - len(made)] if scenario and ch.chance(25) else []
        if "email" in pools.columns:
            for row in rows:
                row["email"] = pools.emails.get(row.get(PLAYER), "")
        made.extend(rows or [order_row(ch, pools, made)])
    return made
