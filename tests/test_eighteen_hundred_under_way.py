"""1800 entered mid-game (issue 29.9): a clause of 0 means nothing, a technology may require a
tier, plain card names typed into the Hands tab are sealed, a deck may be dealt in the GM's
order, and a nation at war with no war actions is warned of in ``check``."""

from __future__ import annotations

import pytest

from sheetmaster.kit import BadValue
from sheetmaster.rules.eighteen_hundred import data as vocabulary
from sheetmaster.rules.eighteen_hundred.load import _needs


@pytest.mark.parametrize("cell, table, deck, read", [
    ("food 0", vocabulary.STATIC, "development", ()),
    ("food 0; production 2", vocabulary.STATIC, "development",
     (vocabulary.Effect("production", 2),)),
    ("battle bonus 0 attack", vocabulary.STATIC, "military", ()),
    ("draw admin 0; prosperity 1", vocabulary.REWARDS, "admin",
     (vocabulary.Effect("prosperity", 1),)),
    ("points per factory 0", vocabulary.STATIC, "ambition", ()),
    ("discard admin 0", vocabulary.COSTS, "development", ()),
])
def test_a_clause_of_0_means_nothing(cell, table, deck, read):
    assert vocabulary.parse_clauses(cell, table, deck) == read


@pytest.mark.parametrize("cell, table, deck, problem", [
    ("draw admin -1", vocabulary.REWARDS, "admin", "0 or more"),
    ("battle bonus 0 sideways", vocabulary.STATIC, "military", "takes"),
    ("food 0", vocabulary.STATIC, "admin", "not admin cards"),
    ("great war 0", vocabulary.STATIC, "global event", "takes no number"),
])
def test_a_clause_of_0_is_still_checked(cell, table, deck, problem):
    with pytest.raises(BadValue, match=problem):
        vocabulary.parse_clauses(cell, table, deck)


def test_needs_of_0_mean_nothing():
    assert _needs("production 0; food 1") == {"food": 1}
    assert _needs("production 0") is None  # as if the cell were blank: every slot full
    with pytest.raises(BadValue):
        _needs("production -1")
