"""Sealed text: a secret kept in a shared cell, openable only with the game's secret and in
the row it was sealed for."""

from __future__ import annotations

import pytest

from sheetmaster.kit.sealed import PREFIX, is_sealed, sealed_width, unseal
from sheetmaster.kit.sealed import seal as seal_to
from sheetmaster.kit.values import BadValue

#: a game's one width: its longest name is 'Industrial Agriculture'
WIDTH = sealed_width(["War", "Conquest", "Diplomatic Action", "Industrial Agriculture"])


def seal(key: str, text: str, binding: str) -> str:
    return seal_to(key, text, binding, width=WIDTH)


def test_a_sealed_text_opens_with_its_secret_and_binding():
    token = seal("game secret", "Diplomatic Action", "France / admin / A1")
    assert is_sealed(token) and token.startswith(PREFIX)
    assert "Diplomatic" not in token
    assert unseal("game secret", token, "France / admin / A1") == "Diplomatic Action"


def test_sealing_is_deterministic_and_texts_of_a_game_look_alike():
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


def test_the_width_holds_the_longest_name_and_a_longer_text_is_refused():
    assert sealed_width([]) == 32 and sealed_width(["x" * 31]) == 32
    assert sealed_width(["x" * 32]) == 64 and sealed_width(["é" * 16]) == 64  # bytes
    with pytest.raises(ValueError, match="does not fit a sealed width of 32 bytes"):
        seal_to("s", "x" * 32, "b", width=32)
