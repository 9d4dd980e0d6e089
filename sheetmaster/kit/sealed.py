"""Text sealed with the game's dice secret, for secrets that must live in the shared sheet.

Anyone who can open a Google Sheet can read every tab of it, so a card in a player's hand or
a secret goal cannot be written there as it is. Sealed, it can: :func:`seal` turns the text
into a token only sheetmaster given the game's dice secret can open, so a game's secrets need
no second store and travel with the sheet on both stores. The ``key`` is what the engine gives
a ruleset as :attr:`sheetmaster.engine.turn.Loaded.key`:
:func:`sheetmaster.kit.fairness.hidden_key` of
the dice secret, which is never in the sheet and never revealed (the revealed turn seeds and
salts are other hashes of the secret). Without the secret the key is blank, and nothing is
opened or sealed (:class:`SecretNeeded`): never a token anyone could open.

The token is AES-SIV (RFC 5297, deterministic authenticated encryption, from the
``cryptography`` library) under a key derived from ``key`` with HKDF-SHA256:

- deterministic: the same secret, text and binding give the same token, so a turn resolves
  to the same bytes every time;
- bound: ``binding`` (e.g. "France / admin / A7") is authenticated with it, so a token copied
  into another row (another player's hand) does not open there;
- padded to one ``width`` for the whole game (:func:`sealed_width` of its catalogue: room for
  its longest name), so every token of a game is as long as every other and its length
  tells nothing of the name in it. Tokens sealed before (padded to a whole number of 32-byte
  blocks) open all the same: both are the text and zero bytes.

A tampered token, or one opened with another secret, raises :class:`BadValue`.
"""

from __future__ import annotations

import base64
import functools
from collections.abc import Iterable

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESSIV
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from sheetmaster.kit.fairness import DiceSecretError
from sheetmaster.kit.values import BadValue

PREFIX = "sealed:"
_BLOCK = 32


class SecretNeeded(DiceSecretError):
    """Sealed text met a run without the game's dice secret: it cannot be opened, and
    nothing may be sealed."""


@functools.lru_cache(maxsize=8)
def _cipher(key: str) -> AESSIV:
    if not key:
        raise SecretNeeded("sealed text cannot be opened or sealed without the game's dice "
                           "secret")
    derived = HKDF(algorithm=hashes.SHA256(), length=64, salt=None,
                   info=b"sheetmaster sealed text").derive(key.encode("utf-8"))
    return AESSIV(derived)


def is_sealed(cell: str) -> bool:
    return cell.startswith(PREFIX)


def sealed_width(names: Iterable[str]) -> int:
    """The length, in bytes, a game pads every sealed value to: room for the longest of
    ``names`` (every name it may seal: its catalogue) and a zero byte, in whole 32-byte
    blocks."""
    longest = max((len(name.encode("utf-8")) for name in names), default=0)
    return (longest // _BLOCK + 1) * _BLOCK


def seal(key: str, text: str, binding: str, *, width: int) -> str:
    """``text`` as a token for a shared cell, openable with ``key`` and ``binding``, padded
    to ``width`` bytes (:func:`sealed_width`): every token of that width is as long."""
    data = text.encode("utf-8")
    if len(data) >= width:
        raise ValueError(f"{text!r} does not fit a sealed width of {width} bytes: the width "
                         f"must be the game's, from every name it may seal")
    padded = data + b"\0" * (width - len(data))
    token = _cipher(key).encrypt(padded, [binding.encode("utf-8")])
    return PREFIX + base64.urlsafe_b64encode(token).decode("ascii").rstrip("=")


def unseal(key: str, token: str, binding: str) -> str:
    """The text a token holds; :class:`BadValue` if it was not sealed with this key and
    binding (edited, copied from another row, or from another game); :class:`SecretNeeded`
    if ``key`` is blank."""
    if not is_sealed(token):
        raise BadValue(f"is not a sealed value (it should start with {PREFIX!r})")
    body, cipher = token[len(PREFIX):], _cipher(key)  # SecretNeeded (a ValueError) first
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        padded = cipher.decrypt(raw, [binding.encode("utf-8")])
    except (ValueError, InvalidTag):
        raise BadValue("cannot be opened with this game's secret: it was edited, copied from "
                       "another row, or sealed in another game") from None
    return padded.rstrip(b"\0").decode("utf-8")


__all__ = ["PREFIX", "SecretNeeded", "is_sealed", "seal", "sealed_width", "unseal"]
