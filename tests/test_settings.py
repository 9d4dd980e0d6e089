"""Typed settings and settings tabs, required when used: a turn that needs a blank one stops
before anything is written and names it."""

from __future__ import annotations

import pytest
from toy import play, ruleset, traces

from sheetmaster.kit.model import Status
from sheetmaster.kit.ruleset import Phase, RulesetError
from sheetmaster.kit.schema import Column, Kind, StateError, Table
from sheetmaster.kit.settings import Setting

TOLL = Setting("toll", "coins a unit pays to cross a border (the rules name no price)",
               Kind.DECIMAL)
CHANCE = Setting("chance %", "chance of rain", Kind.WHOLE, default=10, at_most=100)
COSTS = Table("Costs", (Column("unit type", Kind.TEXT), Column("tech level", Kind.WHOLE),
                        Column("cost", Kind.WHOLE, blank=None)),
              keys=("unit type", "tech level"))


def pay_toll(ctx) -> None:
    for order in ctx.orders("pay"):
        toll = ctx.setting("toll")
        ctx.resolve(order, Status.APPLIED, f"paid {toll}")


def price(ctx) -> None:
    cost = ctx.settings_table("Costs").get("Infantry", 2, column="cost")
    ctx.emit("", "trace", f"infantry at tech 2 costs {cost}")


def toll_rules():
    return ruleset(Phase("p", "pay", pay_toll, orders=("pay",), settings=("toll",)),
                   settings=(TOLL, CHANCE))


def test_a_blank_setting_is_fine_until_a_turn_needs_it():
    assert play(toll_rules()).results == []
    with pytest.raises(StateError) as caught:
        play(toll_rules(), [{"player": "Stark", "order": "pay", "amount": 1}])
    message = str(caught.value)
    assert "nothing was changed" in message
    assert "setting 'toll' is blank, and this turn needs it (coins a unit pays" in message
    assert "tab 'Game', row" in message


def test_a_setting_is_read_typed_and_a_bad_value_names_its_row():
    result = play(toll_rules(), [{"player": "Stark", "order": "pay", "amount": 1}],
                  toll="2.75")
    assert result.results[0].reason == "paid 2.75"
    with pytest.raises(StateError, match=r"column 'value': setting 'chance %': 120 is more"):
        play(toll_rules(), **{"chance %": 120})
    with pytest.raises(StateError, match=r"setting 'toll': 'cheap' is not a number"):
        play(toll_rules(), toll="cheap")


def test_a_settings_tab_cell_the_turn_needs_must_be_filled_in():
    rules = ruleset(Phase("c", "price", price), tables=(COSTS,))
    rows = [{"unit type": "Infantry", "tech level": 1, "cost": 3},
            {"unit type": "infantry", "tech level": 2}]
    with pytest.raises(StateError, match=r"tab 'Costs', row 3, column 'cost': is blank, and "
                                         r"this turn needs it \(unit type Infantry, tech "
                                         r"level 2\)"):
        play(rules, tables={"Costs": rows})
    rows[1]["cost"] = 5
    assert traces(play(rules, tables={"Costs": rows})) == [("", "infantry at tech 2 costs 5")]
    with pytest.raises(StateError, match="this turn needs a row for unit type Infantry, tech "
                                         "level 2"):
        play(rules, tables={"Costs": rows[:1]})
    with pytest.raises(StateError, match="Infantry, 1 is listed twice"):
        play(rules, tables={"Costs": [*rows, rows[0]]})


def test_a_phase_reads_only_the_settings_it_declares():
    undeclared = ruleset(Phase("p", "pay", pay_toll, orders=("pay",)), settings=(TOLL,))
    with pytest.raises(RulesetError, match="reads setting 'toll' it does not declare"):
        play(undeclared, [{"player": "Stark", "order": "pay", "amount": 1}], toll=1)


def test_every_blank_setting_a_turn_needs_is_named_at_once():
    """Issue 29.6: a turn that needs blank settings names them all, with tab, row and what
    needs each, not only the first (the GM fills them in once, not once per resolve)."""
    def toll_then_price(ctx) -> None:
        pay_toll(ctx)
        price(ctx)

    rules = ruleset(Phase("p", "pay then price", toll_then_price, orders=("pay",),
                          settings=("toll",)), settings=(TOLL, CHANCE), tables=(COSTS,))
    with pytest.raises(StateError) as caught:
        play(rules, [{"player": "Stark", "order": "pay", "amount": 1}],
             tables={"Costs": [{"unit type": "Infantry", "tech level": 2}]})
    problems = [str(p) for p in caught.value.problems]
    assert len(problems) == 2, problems
    assert "tab 'Game', row" in problems[0] and "setting 'toll' is blank" in problems[0]
    assert problems[1].startswith("tab 'Costs', row 2, column 'cost': is blank, and this turn "
                                  "needs it (unit type Infantry, tech level 2)")


def test_a_turn_that_needs_one_blank_setting_names_only_that_one():
    with pytest.raises(StateError) as caught:
        play(toll_rules(), [{"player": "Stark", "order": "pay", "amount": 1},
                            {"player": "Stark", "order": "pay", "amount": 2}])
    assert len(caught.value.problems) == 1


def test_every_missing_settings_row_is_named_at_once():
    """Two rows a settings tab lacks are two problems, though neither has a row to name."""
    def two_prices(ctx) -> None:
        ctx.settings_table("Costs").get("Infantry", 2, column="cost")
        ctx.settings_table("Costs").get("Cavalry", 1, column="cost")

    rules = ruleset(Phase("c", "price", two_prices), tables=(COSTS,))
    with pytest.raises(StateError) as caught:
        play(rules, tables={"Costs": []})
    assert [str(p) for p in caught.value.problems] == [
        "tab 'Costs': this turn needs a row for unit type Infantry, tech level 2; add one",
        "tab 'Costs': this turn needs a row for unit type Cavalry, tech level 1; add one"]
