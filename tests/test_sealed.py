"""Sealed text: a secret kept in a shared cell, openable only with the game's secret and in
the row it was sealed for."""

from __future__ import annotations

import pytest

from sheetmaster.sealed import PREFIX, is_sealed, seal, unseal
from sheetmaster.values import BadValue


def test_a_sealed_text_opens_with_its_secret_and_binding():
    token = seal("game secret", "Diplomatic Action", "France / admin / A1")
    assert is_sealed(token) and token.startswith(PREFIX)
    assert "Diplomatic" not in token
    assert unseal("game secret", token, "France / admin / A1") == "Diplomatic Action"


def test_sealing_is_deterministic_and_short_texts_look_alike():
    one = seal("s", "Conquest", "France / ambition / N1")
    assert one == seal("s", "Conquest", "France / ambition / N1")
    assert one != seal("s", "Conquest", "Prussia / ambition / N2")  # the same card elsewhere
    assert len(seal("s", "War", "b")) == len(seal("s", "Industrial Agriculture", "b"))


@pytest.mark.parametrize("secret, binding", [("another game", "France / admin / A1"),
                                             ("game secret", "Prussia / admin / A1")])
def test_another_secret_or_another_row_cannot_open_it(secret, binding):
    token = seal("game secret", "Diplomatic Action", "France / admin / A1")
    with pytest.raises(BadValue, match="cannot be opened with this game's secret"):
        unseal(secret, token, binding)


def test_an_edited_token_or_plain_text_is_refused():
    token = seal("game secret", "Land Reform", "x")
    edited = token[:-3] + ("A" if token[-3] != "A" else "B") + token[-2:]
    with pytest.raises(BadValue, match="cannot be opened"):
        unseal("game secret", edited, "x")
    with pytest.raises(BadValue, match="is not a sealed value"):
        unseal("game secret", "Land Reform", "x")
