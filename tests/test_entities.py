"""Declared entities: a tab's rows load into its dataclass with references resolved, every
broken reference, choice and one-sided border refused with one wording for every game, and
sheetmaster's columns written back from the objects (new rows at the bottom)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from toy import LAND_ROWS, REALM_ROWS, Unit, play, ruleset

from sheetmaster.kit.model import Status
from sheetmaster.kit.orders import Field, OrderKind
from sheetmaster.kit.ruleset import Phase
from sheetmaster.kit.schema import StateError


def noop(ctx) -> None:
    pass


RULES = ruleset(Phase("a", "a", noop))


def refused(**tables) -> str:
    with pytest.raises(StateError) as caught:
        play(RULES, tables=tables)
    return str(caught.value)


def lands(**changes) -> list[dict]:
    rows = [dict(r) for r in LAND_ROWS]
    for land, row in changes.items():
        next(r for r in rows if r["land"] == land).update(row)
    return rows


def test_a_name_that_is_no_row_of_its_tab_is_refused_with_tab_row_and_column():
    message = refused(Lands=lands(A={"owner": "Lannister"}))
    assert "tab 'Lands', row 2, column 'owner': 'Lannister' is not a realm in the Realms " \
           "tab" in message
    message = refused(Units=[{"unit": "U1", "owner": "Stark", "at": "Atlantis"}])
    assert "tab 'Units', row 2, column 'at': 'Atlantis' is not a land in the Lands tab" in \
        message


def test_a_border_listed_on_one_side_or_to_itself_is_refused():
    message = refused(Lands=lands(E={"borders": "A, F"}))
    assert "tab 'Lands', row 6, column 'borders': 'E' lists 'F', but 'F' (row 7) does not " \
           "list 'E' in its borders" in message
    message = refused(Lands=lands(E={"borders": "A, E"}))
    assert "'E' cannot border itself" in message
    message = refused(Lands=lands(E={"borders": "A, Narnia"}))
    assert "column 'borders': 'Narnia' is not a land in this tab" in message


def test_choices_words_meaning_none_and_required_references():
    message = refused(Lands=lands(A={"terrain": "Swamp"}))
    assert "column 'terrain': 'Swamp' is not a terrain (Plain or Hill)" in message
    assert "column 'at': is blank; every row needs a name here" in refused(
        Units=[{"unit": "U1", "owner": "Stark", "at": ""}])
    result = play(RULES, tables={"Lands": lands(A={"owner": "Nobody"}),
                                 "Realms": [dict(REALM_ROWS[0], banner="direwolf")]})
    assert result.after.tables["Lands"].at[2, "owner"] == ""


def test_names_a_keyless_tab_keeps_unique_are_unique():
    message = refused(Units=[{"unit": "U1", "owner": "Stark", "at": "A"},
                             {"unit": "u1", "owner": "Tully", "at": "B"}])
    assert "tab 'Units', row 3, column 'unit': 'u1' is listed twice (also on row 2)" in message


def grow(ctx) -> None:
    for order in ctx.orders("pay"):
        realm = ctx.world.realms[order.player]
        realm.coins -= Decimal(order.fields["amount"]) / 4  # a quarter coin an amount
        ctx.world.units.append(Unit(f"{order.player} levy", order.player, "A"))
        ctx.resolve(order, Status.APPLIED, "levied")


def test_decimals_are_exact_and_new_rows_go_at_the_bottom():
    rules = ruleset(Phase("g", "grow", grow, orders=("pay",)))
    result = play(rules, [{"player": "Stark", "order": "pay", "amount": 3}],
                  tables={"Realms": [dict(REALM_ROWS[0], coins="9.5")] + REALM_ROWS[1:],
                          "Units": [{"unit": "U1", "owner": "Tully", "at": "B"}]})
    assert result.after.tables["Realms"].at[2, "coins"] == 8.75
    units = result.after.tables["Units"]
    assert units.index.tolist() == [2, 3]
    assert units.attrs.get("absent") == result.before.tables["Units"].attrs.get("absent")
    assert units.loc[3, ["unit", "owner", "at"]].tolist() == ["Stark levy", "Stark", "A"]
    # what the sheet's tab is (e.g. its missing optional columns) survives the new rows
    assert units.attrs == result.before.tables["Units"].attrs
    message = refused(Realms=[dict(REALM_ROWS[0], coins="lots")])
    assert "column 'coins': 'lots' is not a number" in message


def spend(ctx) -> None:
    for order in ctx.orders("spend"):
        realm = ctx.world.realms[order.player]
        realm.coins -= order.fields["amount"]
        ctx.resolve(order, Status.APPLIED, f"spent {order.fields['amount']}")


@pytest.mark.parametrize(("cell", "words"), [
    ("ten", "not an amount"), ("1,5", "not an amount"), ("+2", "not an amount"),
    ("1e3", "not an amount"), ("007", "not an amount"), ("-0.5", "negative"), (-2, "negative"),
    (0, "more than 0"), ("0.0", "more than 0"), (True, "not an amount"),
    (float("inf"), "not an amount"), ("=1/4", "not an amount"),
])
def test_an_exact_amount_field_refuses_what_is_no_plain_amount(cell, words):
    kind = OrderKind("spend", (Field("amount", decimal=True),))
    rules = ruleset(Phase("s", "spend", spend, orders=("spend",)), kinds=(kind,))
    result = play(rules, [{"player": "Stark", "order": "spend", "amount": cell}])
    assert result.results[0].status is Status.REJECTED
    assert words in result.results[0].reason and "column 'amount'" in result.results[0].reason


def test_an_exact_amount_field_reads_fractions_exactly():
    kind = OrderKind("spend", (Field("amount", decimal=True),))
    rules = ruleset(Phase("s", "spend", spend, orders=("spend",)), kinds=(kind,))
    result = play(rules, [{"player": "Stark", "order": "spend", "amount": "1.25"},
                          {"player": "Tully", "order": "spend", "amount": 0.1},
                          {"player": "Arryn", "order": "spend", "amount": 3}])
    assert [r.reason for r in result.results] == ["spent 1.25", "spent 0.1", "spent 3"]
    coins = result.after.tables["Realms"].set_index("realm")["coins"]
    assert (coins["Stark"], coins["Tully"], coins["Arryn"]) == (3.75, 4.9, 2)
