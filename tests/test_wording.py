"""Report wording (issue 27.5): a count and its noun agree, in the kit's one helper and in the
lines the rulesets write."""

from __future__ import annotations

import pytest

from sheetmaster.kit import a, plural
from sheetmaster.kit.values import plural_word


@pytest.mark.parametrize(("count", "word", "many", "said"), [
    (1, "army", None, "1 army"),
    (2, "army", None, "2 armies"),
    (0, "army", None, "0 armies"),
    (1, "die", "dice", "1 die"),
    (3, "die", "dice", "3 dice"),
    (2, "Library", None, "2 Libraries"),
    (2, "plain territory", None, "2 plain territories"),
    (2, "march", None, "2 marches"),
    (2, "day", None, "2 days"),
    (-1, "army", None, "-1 armies"),
])
def test_a_count_and_its_noun_agree(count: int, word: str, many: str | None, said: str):
    assert plural(count, word, many) == said


def test_the_plural_of_a_noun():
    words = ("territory", "province", "march", "box", "Fishery", "tech", "Epoch")
    assert [plural_word(w) for w in words] == [
        "territories", "provinces", "marches", "boxes", "Fisheries", "techs", "Epochs"]


def test_the_article_of_a_noun():
    assert (a("Army Camp"), a("Castle")) == ("an Army Camp", "a Castle")
