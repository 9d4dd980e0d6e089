"""A ruleset is checked when it is made: every order kind consumed by exactly one phase, every
tab a column names and every setting a phase reads declared."""

from __future__ import annotations

import pytest
from toy import LANDS, ORDER_COLUMNS, ORDER_KINDS, REALMS, UNITS, build_world, ruleset

from sheetmaster.kit.ruleset import Phase, Ruleset, RulesetError
from sheetmaster.kit.schema import Column, Kind, Table


def nothing(ctx) -> None:
    pass


def test_an_order_kind_no_phase_consumes_is_refused():
    with pytest.raises(RulesetError, match=r"order kind 'move' is consumed by 0 phases \(none"):
        Ruleset(name="toy", title="toy", version="1", tables=(REALMS, LANDS, UNITS),
                order_kinds=ORDER_KINDS[:2], order_columns=ORDER_COLUMNS,
                phases=(Phase("a", "a", nothing, orders=("hold",)),), build_world=build_world)


def test_an_order_kind_two_phases_consume_is_refused():
    with pytest.raises(RulesetError, match=r"'pay' is consumed by 2 phases \(a, b\)"):
        ruleset(Phase("a", "a", nothing, orders=("pay",)),
                Phase("b", "b", nothing, orders=("pay",)))


def test_a_phase_consuming_an_unknown_kind_is_refused():
    with pytest.raises(RulesetError, match="phase a consumes 'fly', which is no order kind"):
        ruleset(Phase("a", "a", nothing, orders=("fly",)))


def test_a_column_naming_an_undeclared_tab_is_refused():
    bad = Table("Ships", (Column("ship", Kind.NAME), Column("port", Kind.REF, ref="Ports")),
                key="ship")
    with pytest.raises(RulesetError, match="column 'port' names tab 'Ports'"):
        ruleset(Phase("a", "a", nothing), tables=(bad,))


def test_a_phase_reading_an_undeclared_setting_is_refused():
    with pytest.raises(RulesetError, match="phase a reads setting 'toll', which is not declared"):
        ruleset(Phase("a", "a", nothing, settings=("toll",)))


def test_every_built_in_ruleset_passes_its_checks():
    from sheetmaster import rules

    assert rules.available()  # made (and so checked) on import
    assert ORDER_KINDS
