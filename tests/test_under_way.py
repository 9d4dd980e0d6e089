"""Each ruleset's "Starting a game already under way", followed step by step (issue 29).

The README section is the test: a blank workbook, the state of a running game typed in, one
resolve, and the tabs as the README says they read afterwards (sheetmaster.testing.walkthrough).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sheetmaster.app.cli import main
from sheetmaster.testing import walkthrough

RULES = Path(__file__).resolve().parent.parent / "sheetmaster" / "rules"
RULESETS = ["claims", "clans", "decades", "eighteen_hundred", "goldenage"]


def readme(ruleset: str) -> str:
    return (RULES / ruleset / "README.md").read_text(encoding="utf-8")


def written(ruleset: str) -> bool:
    return f"## {walkthrough.SECTION_TITLE}" in readme(ruleset)


@pytest.mark.parametrize("ruleset", [r for r in RULESETS if written(r)])
def test_the_walk_through_does_what_it_says(ruleset, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    done = walkthrough.follow(readme(ruleset), tmp_path, lambda argv: main(["-q", *argv]))
    kinds = [step.kind for step in done]
    assert kinds[0] == "run" and done[0].command[0] == "new", "it starts from a blank workbook"
    assert "type" in kinds and "reads" in kinds, "state is typed in and the result is shown"
    assert any(step.kind == "run" and step.command[0] == "resolve" for step in done)


SAMPLE = """# A game

## Starting a game already under way

1. `sheetmaster new claims running.xlsx`
2. In the **Game** tab, type:

   | setting | value |
   |---|---|
   | turn | 7 |

3. In the **Players** tab, type:

| player | gold |
|---|---|
| Avalon | 12 |

Afterwards the **Players** tab reads:

| player | gold |
|---|---|
| Avalon | 12 |

## Next
`sheetmaster resolve elsewhere.xlsx`
"""


def test_steps_are_read_in_order_and_stop_at_the_next_section():
    steps = list(walkthrough.steps(SAMPLE))
    assert [s.kind for s in steps] == ["run", "type", "type", "reads"]
    assert steps[0].command == ["new", "claims", "running.xlsx"]
    assert steps[1].tab == "Game" and steps[1].rows == [["turn", "7"]]
    assert steps[3].line == 20


def test_typing_fills_a_key_row_and_appends_others_and_a_wrong_reading_fails(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    walkthrough.follow(SAMPLE, tmp_path, lambda argv: main(["-q", *argv]))
    game = walkthrough.tab_rows(tmp_path / "running.xlsx", "Game", ["setting", "value"], 0)
    assert game[2] == ["turn", "7"]
    wrong = SAMPLE.replace("| Avalon | 12 |\n\n## Next", "| Avalon | 13 |\n\n## Next")
    (tmp_path / "running.xlsx").unlink()
    with pytest.raises(AssertionError, match="README line 20: the Players tab reads"):
        walkthrough.follow(wrong, tmp_path, lambda argv: main(["-q", *argv]))


TWO_ORDERS = """## Starting a game already under way

`sheetmaster new claims running.xlsx`

In the **Orders** tab, type:

| player | order | amount |
|---|---|---|
| Avalon | build armies | 1 |
| Avalon | build armies | 2 |
"""


def test_rows_of_one_table_with_the_same_first_cell_are_each_typed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    walkthrough.follow(TWO_ORDERS, tmp_path, lambda argv: main(["-q", *argv]))
    orders = walkthrough.tab_rows(tmp_path / "running.xlsx", "Orders", ["player", "amount"], 0)
    assert orders == [["Avalon", "1"], ["Avalon", "2"]]


def test_one_table_types_several_rows_with_the_same_first_cell(tmp_path, monkeypatch):
    """Orders of one player are rows with the same first cell: each is typed; a later table
    fills a row typed before it."""
    monkeypatch.chdir(tmp_path)
    assert main(["-q", "new", "claims", "running.xlsx"]) == 0
    book = tmp_path / "running.xlsx"
    two = walkthrough.Step("type", 1, tab="Players", header=["player", "gold"],
                           rows=[["Avalon", "12"], ["Avalon", "3"]])
    walkthrough.type_rows(book, two)
    assert walkthrough.tab_rows(book, "Players", ["player", "gold"], 0) == \
        [["Avalon", "12"], ["Avalon", "3"]]
    later = walkthrough.Step("type", 2, tab="Players", header=["player", "gold"],
                             rows=[["Avalon", "5"]])
    walkthrough.type_rows(book, later)
    assert walkthrough.tab_rows(book, "Players", ["player", "gold"], 0) == \
        [["Avalon", "5"], ["Avalon", "3"]]


def test_every_ruleset_has_the_section():
    assert [r for r in RULESETS if not written(r)] == []
