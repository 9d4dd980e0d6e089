"""A flood of order rows: each player's first rows (the Game tab's 'order rows per player')
are read, the later ones are rejected unread, and the rest of the turn goes on."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheetmaster.app.cli import main
from sheetmaster.app.report import TurnGroups, format_results, player_report, player_reports
from sheetmaster.engine.builder import build_state
from sheetmaster.engine.turn import resolve
from sheetmaster.kit.model import Status
from sheetmaster.kit.schema import StateError
from sheetmaster.stores.xlsx import XlsxStore
from sheetmaster.stores.xlsx_layout import write_new_workbook

CAP = "order rows per player"
TABLES = {
    "Players": [{"player": "Avalon", "gold": 50, "armies": 0},
                {"player": "Bretagne", "gold": 50, "armies": 0}],
    "Territories": [
        {"territory": "Camelot", "owner": "Avalon", "borders": "Sarum, Logres"},
        {"territory": "Sarum", "owner": "", "borders": "Camelot, Ys"},
        {"territory": "Logres", "owner": "", "borders": "Camelot"},
        {"territory": "Ys", "owner": "Bretagne", "borders": "Sarum"},
    ],
}


def gift(n: int) -> dict:
    return {"player": "Avalon", "order": "propose transfer", "amount": 1, "item": "gold",
            "to": "Bretagne", "deal": f"gift-{n}"}


def run(claims, orders, cap=None):
    settings = {} if cap is None else {CAP: cap}
    return resolve(claims, build_state(claims, TABLES, orders, turn=1, settings=settings),
                   seed=1)


def over(result) -> list[int]:
    return [r.row for r in result.results if r.reason.startswith("not read")]


def test_a_players_rows_after_the_cap_are_rejected_unread_and_the_turn_goes_on(claims):
    orders = [gift(1),                                                          # row 2
              {"player": "Bretagne", "order": "build armies", "amount": 1},     # row 3
              gift(2), gift(3),                                                 # rows 4, 5
              {"player": "Avalon", "order": "claim neutral territory",
               "territory": "Logres"},                                          # row 6
              {"player": "Bretagne", "order": "claim neutral territory",
               "territory": "Sarum"},                                           # row 7
              {"player": "Avalon", "order": "build armies", "amount": 1},       # row 8
              {"player": "Bretagne", "order": "accept transfer", "deal": "gift-1"},
              {"player": "Bretagne", "order": "accept transfer", "deal": "gift-3"},
              gift(4)]                                                          # row 11
    capped = run(claims, orders, cap=4)
    # Avalon's first four rows (2, 4, 5, 6) are read; rows 8 and 11 come later: not read
    assert over(capped) == [8, 11]
    for row in (8, 11):
        r = capped.result_for_row(row)
        assert r.status is Status.REJECTED and r.player == "Avalon"
        assert f"only the first 4 order rows a player posts in a turn are read (the Game " \
               f"tab's '{CAP}')" in r.reason
    players = capped.after.tables["Players"].set_index("player")
    assert players.loc["Avalon", "armies"] == 0  # row 8's armies were never built
    # Bretagne's four rows are within the cap: its deals and its build went through
    assert capped.result_for_row(3).status is Status.APPLIED
    assert [capped.result_for_row(r).status for r in (2, 5)] == [Status.APPLIED] * 2
    # the same turn without the cap: the flood rows were the only difference
    free = run(claims, orders)
    assert not over(free)
    assert free.result_for_row(8).status is Status.APPLIED
    for row in (2, 3, 4, 5, 6, 7, 9, 10):
        assert capped.result_for_row(row) == free.result_for_row(row)


def test_malformed_rows_count_and_rows_naming_no_player_share_one_cap(claims):
    orders = [{"player": "Avalon", "order": "no such order"},     # row 2: counts
              gift(1),                                            # row 3
              gift(2),                                            # row 4: over a cap of 2
              {"player": "Avalonn", "order": "build armies", "amount": 1},   # 5: nobody
              {"player": "", "order": "build armies", "amount": 1},          # 6: nobody
              {"player": "Mordred", "order": "build armies", "amount": 1},   # 7: nobody, over
              {"player": "Avalon", "order": "build armies", "amount": "ten"}]  # 8: over
    result = run(claims, orders, cap=2)
    assert over(result) == [4, 7, 8]
    assert "no such order" in result.result_for_row(2).reason
    assert "no player named" in result.result_for_row(5).reason
    assert "no player is named" in result.result_for_row(6).reason


def test_the_cap_is_deterministic_and_written_to_the_sheet(claims):
    orders = [gift(i) for i in range(7)]
    one, two = run(claims, orders, cap=4), run(claims, orders, cap=4)
    assert over(one) == over(two) == [6, 7, 8]
    sheet = one.after.tables["Orders"]
    assert sheet.loc[8, "result"] == "rejected" and sheet.loc[8, "reason"].startswith("not read")
    assert sheet.loc[5, "reason"] != sheet.loc[6, "reason"]


def test_the_default_cap_is_500(claims):
    assert over(run(claims, [gift(i) for i in range(500)])) == []
    assert over(run(claims, [gift(i) for i in range(502)])) == [502, 503]


@pytest.mark.parametrize(("value", "words"), [("many", "not a whole number"),
                                              (0, "must be 1 or more")])
def test_a_cap_that_is_no_number_stops_the_turn_naming_the_cell(claims, value, words):
    with pytest.raises(StateError) as caught:
        run(claims, [gift(1)], cap=value)
    assert "tab 'Game', row" in str(caught.value)
    assert f"column 'value': setting '{CAP}'" in str(caught.value) and words in str(caught.value)


def test_reports_sum_the_rows_over_the_cap_up_in_one_line(claims):
    result = run(claims, [gift(i) for i in range(2_000)], cap=10)
    groups = TurnGroups(claims, result)
    public = player_report(claims, result, groups=groups)
    line = "| 1,990 rows (row 12 to row 2,001) | | rejected | not read: only the first 10"
    assert line in public
    assert "| 11 |" in public and "| 12 |" not in public
    assert all(line in text for text in player_reports(claims, result, groups=groups)
               .values() if "## Avalon" in text)
    assert len(public) < 5_000
    printed = format_results(result)
    assert "1,990 rows (row 12 to row 2,001)  Avalon -> rejected: not read" in printed
    assert len(printed.splitlines()) == 11


def test_resolve_of_a_flooded_workbook_writes_every_rows_status(claims, tmp_path: Path,
                                                                capsys):
    game = tmp_path / "g.xlsx"
    write_new_workbook(claims, game, build_state(
        claims, TABLES, [gift(i) for i in range(3_000)], turn=1, settings={CAP: 20}))
    (tmp_path / "g.xlsx.dice-secret").write_text("a test's dice secret")
    assert main(["resolve", str(game), "--no-map", "--force"]) == 0
    assert "2,980 rows (row 22 to row 3,001)  Avalon -> rejected" in capsys.readouterr().out
    orders = XlsxStore(game).load().tables["Orders"]
    assert (orders["result"] != "").all()
    assert orders["reason"].str.startswith("not read").sum() == 2_980
    assert (tmp_path / "g-turn-1-report.md").stat().st_size < 10_000
