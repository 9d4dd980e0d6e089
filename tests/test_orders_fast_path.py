"""The short way of reading orders (column by column) gives what the long way (row by row)
gives: the same orders with the same seq numbers and field values (types included), the same
rejections and reasons, the same blank-turn rows and rejected rows, in the same order."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetmaster.engine import order_rows
from sheetmaster.engine.builder import build_state
from sheetmaster.engine.order_reading import OrderReader, ParsedOrders
from sheetmaster.engine.turn import resolve
from sheetmaster.kit import values
from sheetmaster.kit.orders import Field, OrderKind
from sheetmaster.rules.claims import RULESET as CLAIMS
from sheetmaster.rules.decades import RULESET as DECADES

KINDS = (
    OrderKind("claim", (Field("territory", names="territory"),), aliases=("grab land",)),
    OrderKind("build", (Field("amount", count=True),)),
    OrderKind("pay", (Field("to", names="player"), Field("sum", decimal=True),
                      Field("note", required=False))),
    OrderKind("deal", (Field("deal"), Field("to", names="player"),
                       Field("amount", count=True, required=False),
                       Field("territory", names="territory", required=False))),
    OrderKind("farm", (Field("territory", names="territory"),), repeatable=True),
    OrderKind("rest"),
    OrderKind("decree", (Field("note"),), gm_only=True),
)
PLAYERS = ["Avalon", "Bretagne", "Cornwall"]
TERRITORIES = ["Camelot", "Sarum", "Ys", "T1", "-5"]
EMAILS = {"Avalon": "a@example.org", "Bretagne": "b@example.org"}
COLUMNS = ["turn", "player", "order", "territory", "amount", "to", "sum", "note", "deal",
           "result", "reason"]


class LongWayOnly(OrderReader):
    """Every row the long way: the reference."""

    quick_reading = False


def names() -> dict[str, values.Names]:
    return {"player": values.Names(PLAYERS, {"Av": "Avalon"}),
            "territory": values.Names(TERRITORIES, {"Cam": "Camelot"})}


def frame(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] = COLUMNS,
          index: Sequence[int] | None = None) -> pd.DataFrame:
    """An Orders tab as a store gives it: object cells, blank cells None, index = sheet row."""
    df = pd.DataFrame({c: [r.get(c) for r in rows] for c in columns}, dtype=object)
    df.index = list(index) if index is not None else list(range(2, 2 + len(rows)))
    return df


def typed(value: Any) -> Any:
    """A value with its type, NaN made comparable."""
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


def outcome(parsed: ParsedOrders) -> tuple:
    return ([(o.row, o.seq, o.player, o.kind, [(k, typed(v)) for k, v in o.fields.items()],
              o.from_gm) for o in parsed.orders],
            [(r.row, r.player, r.kind, r.status, r.reason) for r in parsed.rejected],
            parsed.blank_turn_rows,
            [(r.row, r.player, r.kind, [(k, typed(v)) for k, v in r.record.items()])
             for r in parsed.rejected_rows])


def both(df: pd.DataFrame, turn: int = 3, posted_by: Callable[[Any], bool] | None = None,
         emails: Mapping[str, str] | None = None) -> ParsedOrders:
    """Reads ``df`` both ways, checks they agree, and gives the short way's result."""
    calls: dict[str, list] = {"short": [], "long": []}

    def recording(way: str) -> Callable[[Any], bool] | None:
        if posted_by is None:
            return None
        return lambda stamp: calls[way].append(stamp) or posted_by(stamp)

    short = OrderReader(KINDS, names(), emails).read(df, turn, recording("short"))
    long = LongWayOnly(KINDS, names(), emails).read(df, turn, recording("long"))
    assert outcome(short) == outcome(long)
    assert calls["short"] == calls["long"]  # the deadline is asked about the same rows
    return short


def quick_rows(df: pd.DataFrame, posted_by: Callable[[Any], bool] | None = None) -> list[int]:
    """The sheet rows the short way reads (to check a test goes through it)."""
    reader = OrderReader(KINDS, names())
    reader.read(df, 3)  # sets up the reader for this table
    data = {c: df[c].tolist() for c in df.columns if c not in df.attrs.get("absent", ())}
    return [df.index[i] for i in reader._quick_rows(data, len(df), posted_by).positions]


def reasons_by_row(parsed: ParsedOrders) -> dict[int, str]:
    return {r.row: r.reason for r in parsed.rejected}


def test_common_rows_are_read_the_short_way():
    rows = [{"player": "Avalon", "order": "claim", "territory": "Sarum"},
            {"player": "Bretagne", "order": "build", "amount": 2},
            {"player": "Cornwall", "order": "pay", "to": "Avalon", "sum": "9.75"},
            {"player": "Avalon", "order": "deal", "deal": "d1", "to": "Bretagne"},
            {"player": "Avalon", "order": "rest"}]
    df = frame(rows)
    assert quick_rows(df) == [2, 3, 4, 5, 6]
    parsed = both(df)
    assert [(o.row, o.seq) for o in parsed.orders] == [(2, 0), (3, 1), (4, 2), (5, 3), (6, 4)]
    assert parsed.orders[2].fields == {"to": "Avalon", "sum": Decimal("9.75"), "note": None}
    assert parsed.orders[3].fields == {"deal": "d1", "to": "Bretagne", "amount": None,
                                       "territory": None}
    assert parsed.blank_turn_rows == [2, 3, 4, 5, 6]


@pytest.mark.parametrize("amounts", [
    [1, True, 1.0, "1", " 1 ", "01", 2, 2.0, "2"],
    [True, 1, False, 0, "0", -1, "-1", "+1", 2.5, "2.5"],
    ["ten", None, "", "  ", float("nan"), float("inf"), "#N/A", "=1+1", "@1", 10**16],
    [Decimal("3"), 3, "3", 3.0, "1,2", "1e3", 1],
])
def test_counts_of_every_type_read_as_the_long_way_reads_them(amounts):
    """``True == 1 == 1.0`` and their hashes are equal, yet True is refused and 1.0 is 1: a
    cell is remembered with its type, never by value alone."""
    df = frame([{"player": "Avalon", "order": "build", "amount": a} for a in amounts])
    parsed = both(df)
    read = {o.row: o.fields["amount"] for o in parsed.orders}
    for row, amount in zip(df.index, amounts):
        if amount is True or amount is False:
            assert row not in read
        elif type(amount) is int and 1 <= amount <= values.MAX_WHOLE:
            assert read.get(row) == amount or "same as order row" in reasons_by_row(parsed)[row]


@pytest.mark.parametrize("amounts", [[1, True, 1.0], [True, 1, 1.0], [1.0, True, 1],
                                     [0, False, 0.0], [False, 0, "0"]])
def test_bool_int_and_float_cells_in_one_column_are_not_taken_for_each_other(amounts):
    df = frame([{"player": player, "order": "build", "amount": amount}
                for player, amount in zip(PLAYERS, amounts)])
    parsed = both(df)
    assert {o.row: o.fields["amount"] for o in parsed.orders} == {
        row: 1 for row, amount in zip(df.index, amounts) if amount == 1 and amount is not True}
    assert all("not a whole number" in reasons_by_row(parsed)[row]
               for row, amount in zip(df.index, amounts) if type(amount) is bool)


def test_names_in_other_cases_and_spacing_and_aliases():
    rows = [{"player": p, "order": o, "territory": t}
            for p, o, t in [("avalon", "claim", "Sarum"), (" Avalon", "claim", "Ys"),
                            ("Avalon", "Claim", "T1"), ("Avalon", "claim", "camelot"),
                            ("Av", "claim", " Sarum "), ("Bretagne", "grab land", "SARUM"),
                            ("Bretagne", "grab_land", "Cam"), ("Cornwall", "claim", "cam"),
                            ("Cornwall", "claim", "t1 "), ("Cornwall", "claim", "Atlantis"),
                            ("Cornwall", "farm", "-5"), ("Cornwall", "farm", " -5")]]
    parsed = both(frame(rows))
    assert "no territory named 'Atlantis'" in reasons_by_row(parsed)[11]
    assert {o.row: o.player for o in parsed.orders}[2] == "Avalon"


@pytest.mark.parametrize("cell", ['=HYPERLINK("x","Sarum")', "@Sarum", "+Sarum", "-Sarum",
                                  " =Sarum", "-5", "+5", "=", "@"])
def test_formula_looking_cells(cell):
    rows = [{"player": "Avalon", "order": "claim", "territory": cell},
            {"player": "Avalon", "order": "deal", "deal": cell, "to": "Bretagne"},
            {"player": "Avalon", "order": "pay", "to": "Bretagne", "sum": 1, "note": cell},
            {"player": "Avalon", "order": "build", "amount": cell},
            {"player": cell, "order": "rest"}, {"player": "Avalon", "order": cell}]
    parsed = both(frame(rows))
    if cell.strip().startswith(("=", "@")):
        assert len(parsed.rejected) == 6


def test_blank_and_missing_required_fields():
    rows = [{"player": "Avalon", "order": "claim"},
            {"player": "Avalon", "order": "claim", "territory": ""},
            {"player": "Avalon", "order": "claim", "territory": "   "},
            {"player": "Avalon", "order": "deal", "to": "Bretagne"},
            {"player": "Avalon", "order": "deal", "deal": " ", "to": "Bretagne"},
            {"player": "Avalon", "order": "pay", "to": "Bretagne"},
            {"player": "Avalon", "order": "decree"},
            {"player": "", "order": "rest"}, {"player": "Avalon"}, {}]
    parsed = both(frame(rows))
    assert len(parsed.rejected) == 9  # the last row is empty: not an order
    assert "needs the 'territory' column" in reasons_by_row(parsed)[2]


def test_repeats_of_quick_and_slow_rows_interleaved():
    """A row read the long way (a lower-case name) that gives an order a later common row
    gives too is the first of the two, and the common row is the duplicate."""
    rows = [{"player": "Avalon", "order": "claim", "territory": "Sarum"},     # 2: first
            {"player": "avalon", "order": "claim", "territory": "Sarum"},     # 3: repeats 2
            {"player": "bretagne", "order": "claim", "territory": "Ys"},      # 4: slow, first
            {"player": "Bretagne", "order": "claim", "territory": "Ys"},      # 5: repeats 4
            {"player": "Bretagne", "order": "claim", "territory": "ys"},      # 6: repeats 4
            {"player": "Cornwall", "order": "build", "amount": 2.0},          # 7: slow-ish
            {"player": "Cornwall", "order": "build", "amount": 2},            # 8: repeats 7
            {"player": "Cornwall", "order": "build", "amount": "2"},          # 9: repeats 7
            {"player": "Avalon", "order": "claim", "territory": "Sarum"},     # 10: repeats 2
            {"player": "Cornwall", "order": "rest"},                          # 11
            {"player": "cornwall", "order": "rest"},                          # 12: repeats 11
            {"player": "Cornwall", "order": "rest"}]                          # 13: repeats 11
    parsed = both(frame(rows))
    assert [o.row for o in parsed.orders] == [2, 4, 7, 11]
    assert [o.seq for o in parsed.orders] == [0, 1, 2, 3]
    firsts = {row: reason.split("row ")[1].split(" ")[0]
              for row, reason in reasons_by_row(parsed).items()}
    assert firsts == {3: "2", 5: "4", 6: "4", 8: "7", 9: "7", 10: "2", 12: "11", 13: "11"}
    assert [r.row for r in parsed.rejected_rows] == [3, 5, 6, 8, 9, 10, 12, 13]


def test_repeatable_kinds_are_never_duplicates():
    rows = [{"player": "Avalon", "order": "farm", "territory": t}
            for t in ["Sarum", "Sarum", "sarum", "Sarum", "Ys", "Ys"]]
    parsed = both(frame(rows))
    assert [o.seq for o in parsed.orders] == [0, 1, 2, 3, 4, 5]


def test_rows_with_a_result_or_a_turn():
    rows = [{"player": "Avalon", "order": "build", "amount": 1, "result": "applied", "turn": 2},
            {"player": "Avalon", "order": "build", "amount": 1, "result": " rejected "},
            {"player": "Avalon", "order": "build", "amount": 1, "result": "check: fine"},
            {"player": "Avalon", "order": "build", "amount": 1, "result": ""},
            {"player": "Avalon", "order": "build", "amount": 2, "turn": 3},
            {"player": "Avalon", "order": "build", "amount": 3, "turn": "3"},
            {"player": "Avalon", "order": "build", "amount": 4, "turn": 4},
            {"player": "Avalon", "order": "build", "amount": 5, "turn": "three"},
            {"player": "Avalon", "order": "build", "amount": 6, "turn": ""},
            {"player": "Avalon", "order": "build", "amount": 7}]
    parsed = both(frame(rows))
    assert [o.row for o in parsed.orders] == [4, 6, 7, 10, 11]
    assert parsed.blank_turn_rows == [4, 5, 10, 11]


def test_timestamps_after_the_deadline_wait():
    deadline = datetime(2024, 1, 1, 12)

    def posted_by(stamp: Any) -> bool:
        return not isinstance(stamp, datetime) or stamp <= deadline

    early, late = datetime(2024, 1, 1, 9), datetime(2024, 1, 1, 13)
    rows = [{"player": "Avalon", "order": "build", "amount": 1, "timestamp": early},
            {"player": "Avalon", "order": "build", "amount": 2, "timestamp": late},
            {"player": "Avalon", "order": "build", "amount": 3, "timestamp": late, "turn": 3},
            {"player": "Avalon", "order": "build", "amount": 4},
            {"player": "Avalon", "order": "build", "amount": 5, "timestamp": "soon"},
            {"player": "Avalon", "order": "build", "amount": 1, "timestamp": ""}]
    df = frame(rows, COLUMNS + ["timestamp"])
    assert quick_rows(df, posted_by) == [5, 7]  # no timestamp, or a blank one ("")
    parsed = both(df, posted_by=posted_by)
    assert [o.row for o in parsed.orders] == [2, 4, 5, 6]
    assert "same as order row 2" in reasons_by_row(parsed)[7]
    both(df)  # without a deadline, timestamps do not matter


def test_authenticated_intake_reads_every_row_the_long_way():
    rows = [{"player": "Avalon", "order": "build", "amount": 1, "email": "a@example.org"},
            {"player": "Avalon", "order": "build", "amount": 2, "email": "m@example.org"},
            {"player": "Bretagne", "order": "build", "amount": 1, "email": "B@Example.org"},
            {"player": "Cornwall", "order": "build", "amount": 1}]
    parsed = both(frame(rows, COLUMNS + ["email"]), emails=EMAILS)
    assert [o.row for o in parsed.orders] == [2, 4]
    absent = frame(rows, COLUMNS + ["email"])
    absent.attrs["absent"] = ("email",)
    assert len(both(absent, emails=EMAILS).orders) == 4


def test_absent_columns_unsorted_rows_and_an_empty_tab():
    rows = [{"player": "Avalon", "order": "pay", "to": "Bretagne", "sum": 2, "note": "x"},
            {"player": "Bretagne", "order": "claim", "territory": "Ys"},
            {"player": "Avalon", "order": "claim", "territory": "Ys"},
            {"player": "Bretagne", "order": "claim", "territory": "Ys"}]
    df = frame(rows, index=[9, 4, 30, 2])
    df.attrs["absent"] = ("note",)
    parsed = both(df)
    assert "same as order row 4" in reasons_by_row(parsed)[2]
    assert both(frame([])).orders == []
    assert both(frame(rows, ["player", "order"])).orders == []


def test_gm_orders_and_every_result_of_a_turn_are_the_same_both_ways(monkeypatch):
    """A whole decades turn, with its GM orders tab, resolved both ways."""
    tables, orders, game_settings = DECADES.example()
    state = build_state(DECADES, tables, orders, settings=game_settings)
    short = resolve(DECADES, state.copy(), seed=7)
    monkeypatch.setattr(OrderReader, "quick_reading", False)
    long = resolve(DECADES, state.copy(), seed=7)
    assert any(r.row < 0 for r in short.results)  # GM orders were read
    assert [(r.row, r.player, r.kind, r.status, r.reason) for r in short.results] == \
        [(r.row, r.player, r.kind, r.status, r.reason) for r in long.results]
    assert [e.text for e in short.events] == [e.text for e in long.events]
    for tab, table in short.after.tables.items():
        pd.testing.assert_frame_equal(table, long.after.tables[tab])


def test_a_claims_turn_is_the_same_both_ways(monkeypatch):
    tables, orders, game_settings = CLAIMS.example()
    state = build_state(CLAIMS, tables, orders * 3, turn=2, settings=game_settings)
    short = resolve(CLAIMS, state.copy(), seed=3)
    monkeypatch.setattr(OrderReader, "quick_reading", False)
    long = resolve(CLAIMS, state.copy(), seed=3)
    assert [(r.row, r.status, r.reason) for r in short.results] == \
        [(r.row, r.status, r.reason) for r in long.results]
    for tab, table in short.after.tables.items():
        pd.testing.assert_frame_equal(table, long.after.tables[tab])


# -- random tables --------------------------------------------------------------------------

CELLS = {
    "player": st.sampled_from(PLAYERS + ["avalon", " Bretagne", "Av", "Mordred", "", None,
                                         "@Avalon", 1, True]),
    "order": st.sampled_from([k.name for k in KINDS] + ["grab land", "Claim", " build",
                                                        "grab_land", "raise", "", None, 3]),
    "territory": st.sampled_from(TERRITORIES + ["camelot", "Cam", "Atlantis", "", None, " ",
                                                "=x", "+x", 1, 1.0, "-5 "]),
    "amount": st.sampled_from([1, 2, 1.0, 2.5, True, False, "1", " 2", "007", "ten", 0, -3,
                               None, "", float("nan"), "#N/A", Decimal(2), 10**16]),
    "to": st.sampled_from(PLAYERS + ["bretagne", "Nobody", None, 5]),
    "sum": st.sampled_from([1, "9.75", 9.75, "0", True, None, "1.50", "abc"]),
    "note": st.sampled_from(["hi", " hi ", "", None, "=SUM(A1)", "-5", "-x", 3, 3.0, True]),
    "deal": st.sampled_from(["d1", "d2", " d1", "D1", "", None, "=x", 7, 7.0]),
    "turn": st.sampled_from([None] * 6 + ["", 3, 3.0, "3", 4, "three"]),
    "result": st.sampled_from([None] * 6 + ["", "applied", "rejected", "check: ok", 1]),
    "timestamp": st.sampled_from([None] * 4 + ["", datetime(2024, 1, 1, 9),
                                               datetime(2024, 1, 2, 9), "soon"]),
}
COMMON = {"player": st.sampled_from(PLAYERS), "turn": st.none(), "result": st.none(),
          "timestamp": st.none(), "order": st.sampled_from(["claim", "build", "deal", "rest"]),
          "territory": st.sampled_from(TERRITORIES), "to": st.sampled_from(PLAYERS)}


@st.composite
def tables(draw: st.DrawFn) -> tuple[pd.DataFrame, bool]:
    columns = COLUMNS + draw(st.sampled_from([[], ["timestamp"]]))
    rows: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(0, 30))):
        if rows and draw(st.integers(0, 3)) == 0:
            rows.append(dict(draw(st.sampled_from(rows))))  # a repeat
            continue
        common = draw(st.booleans())
        rows.append({c: draw(COMMON[c] if common and c in COMMON else CELLS[c])
                     for c in columns if c in CELLS})
    return frame(rows, columns), draw(st.booleans())


@settings(max_examples=400, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(table=tables())
def test_random_tables_read_the_same_both_ways(table):
    df, deadline = table
    cutoff = datetime(2024, 1, 1, 12)
    both(df, posted_by=(lambda stamp: not isinstance(stamp, datetime) or stamp <= cutoff)
         if deadline else None)


def test_a_stores_blank_cells_and_whole_floats_are_read_the_short_way():
    """A workbook or a Google Sheet gives "" for a blank cell and 2.0 for a number: such rows
    are common too, and read to what the long way reads."""
    rows = [{"player": "Avalon", "order": "build", "amount": 2.0},
            {"player": "Avalon", "order": "deal", "deal": "d1", "to": "Bretagne",
             "amount": 3.0},
            {"player": "Bretagne", "order": "deal", "deal": "d2", "to": "Avalon",
             "territory": "Ys"},
            {"player": "Cornwall", "order": "claim", "territory": "Sarum"},
            {"player": "Cornwall", "order": "build", "amount": 2.5},
            {"player": "Cornwall", "order": "build", "amount": 0.0},
            {"player": "Cornwall", "order": "build", "amount": -0.0},
            {"player": "Cornwall", "order": "build", "amount": True},
            {"player": "Cornwall", "order": "build", "amount": 2},
            {"player": "Avalon", "order": "build", "amount": 2.0},
            {"player": "Bretagne", "order": "pay", "to": "Avalon", "sum": 1.5},
            {"player": "Bretagne", "order": "claim", "territory": "", "turn": ""},
            {"player": "Bretagne", "order": "claim", "territory": "Camelot", "result": ""}]
    df = frame(rows).map(lambda v: "" if v is None else v)
    parsed = both(df)
    assert sorted(quick_rows(df)) == [2, 3, 4, 5, 10, 11, 12, 14]
    assert [(o.row, o.fields.get("amount")) for o in parsed.orders if o.kind == "build"] == \
        [(2, 2), (10, 2)]
    assert "same as order row 2" in reasons_by_row(parsed)[11]
    assert set(reasons_by_row(parsed)) == {6, 7, 8, 9, 11, 13}


@pytest.mark.parametrize("cells", [
    ["d1", " d2 ", "x y"], ["d1", ""], ["d1", "  "], ["=1"], ["d", " -5"], ["d", "+x"],
    ["@d"], ["d\x00=x"], [], [None, "d"], [5, "d"], ["a\tb", "\u00a0c\u00a0"],
])
def test_free_text_read_in_bulk_is_each_cell_trimmed_or_left_to_the_reading(cells):
    found = order_rows.plain_text(cells)
    if found is not None:
        assert found == [c.strip() for c in cells]
        assert all(c.strip() and c.strip()[0] not in "=@+-" for c in cells)


def test_cells_not_read_the_short_way_are_read_one_by_one():
    read: list = []
    memo = order_rows.Memo(lambda cell: read.append(cell) or f"read {cell}")
    found = ["A", None, "B", None, None]
    order_rows.fill_in(found, ["a", "x", "b", "y", "x"], memo)
    assert found == ["A", "read x", "B", "read y", "read x"] and read == ["x", "y"]
    found = [None, None]
    order_rows.fill_in(found, ["x", "z"], memo)
    assert found == ["read x", "read z"]
