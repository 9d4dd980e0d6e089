"""Provably fair dice: a secret players never see, a commitment before the deadline, the seed
revealed after the resolve.

Every die of a turn follows from the turn's seed, which is derived from the game's dice secret
and the turn number (:func:`sheetmaster.kit.dice.turn_seed`). The secret lives outside the shared
sheet: ``SHEETMASTER_DICE_SECRET`` (an Actions secret, for a Google Sheet) or a file beside the
workbook that the GM keeps (``my-game.xlsx.dice-secret``, made by ``sheetmaster new``).

Before the deadline the Game tab shows the turn's ``dice commitment``: a SHA-256 hash of the
turn number, the seed and a salt (the salt keeps anyone from trying every seed against the
hash). The resolve reveals the seed and the salt (``last dice seed``, ``last dice salt``, and
a ``dice`` line in the Log), so anyone can check that the committed seed was used, and
``sheetmaster verify`` replays the Log's dice from it.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from sheetmaster.kit.dice import turn_seed

SECRET_ENV = "SHEETMASTER_DICE_SECRET"
SECRET_SUFFIX = ".dice-secret"
#: a shorter secret could be found by trying every short text against a revealed seed.
MIN_SECRET_LENGTH = 12
#: the dice secret of the example games (``sheetmaster new --example``): public, in the code.
EXAMPLE_SECRET = "example-seed"

log = logging.getLogger("sheetmaster")


class DiceSecretError(ValueError):
    """The dice secret is missing, blank or too short; the message says how to set it."""


@dataclass(frozen=True)
class TurnDice:
    """What a turn's dice follow from, and what is published about them."""

    turn: int
    seed: int
    salt: str

    @property
    def commitment(self) -> str:
        return commitment(self.turn, self.seed, self.salt)


def commitment(turn: int, seed: int, salt: str) -> str:
    """The hash published before the deadline: SHA-256 of 'sheetmaster dice TURN SEED SALT'."""
    return hashlib.sha256(f"sheetmaster dice {turn} {seed} {salt}".encode()).hexdigest()


def check_secret(secret: str | None, where: str = SECRET_ENV) -> str:
    """The secret, stripped; a blank or short one is an error, never replaced by anything."""
    text = (secret or "").strip()
    if not text:
        raise DiceSecretError(f"the dice secret ({where}) is blank; the dice would be "
                              f"predictable. {HOW_TO_SET}")
    if len(text) < MIN_SECRET_LENGTH:
        raise DiceSecretError(f"the dice secret ({where}) is {len(text)} characters long; use "
                              f"at least {MIN_SECRET_LENGTH} random characters, or anyone "
                              f"could find it by trying. {HOW_TO_SET}")
    return text


HOW_TO_SET = ("Make one with `python -c \"import secrets; print(secrets.token_hex(16))\"` and "
              f"keep it private: for a workbook, in the file beside it named "
              f"WORKBOOK{SECRET_SUFFIX}; for a Google Sheet, in the {SECRET_ENV} environment "
              f"variable (the repository secret of that name for the nightly job).")


def turn_dice(secret: str, turn: int) -> TurnDice:
    """The seed and salt of ``turn``'s dice, from the game's dice secret."""
    secret = check_secret(secret)
    salt = hashlib.sha256(f"sheetmaster salt:{secret}:{turn}".encode()).hexdigest()[:32]
    return TurnDice(turn, turn_seed(secret, turn), salt)


def derived_key(secret: str, purpose: str) -> bytes:
    """A key for ``purpose`` (signing the undo snapshot, the run lock) from the dice secret."""
    return hashlib.sha256(f"sheetmaster {purpose}\0{check_secret(secret)}".encode()).digest()


def hidden_key(secret: str) -> str:
    """What keys the streams of hidden draws (a deck's order): from the secret and, unlike the
    turn seeds, never revealed, so no revealed seed tells a hidden order."""
    return derived_key(secret, "hidden draws").hex()


def sign(key: bytes, text: str) -> str:
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


def secret_path(game: Path) -> Path:
    """Where a workbook's dice secret is kept: beside it, ``GAME.xlsx.dice-secret``."""
    return game.with_name(game.name + SECRET_SUFFIX)


def read_secret(game: Path | None = None, env: Mapping[str, str] | None = None) -> str:
    """A game's dice secret. A workbook's is the file beside it (``SHEETMASTER_DICE_SECRET``
    only if it has none); a Google Sheet's (``game`` None) is ``SHEETMASTER_DICE_SECRET``
    (see :func:`for_sheet`). Raises :class:`DiceSecretError` when there is none; warns when
    it is the examples' public one."""
    secret = _read_secret(game, os.environ if env is None else env)
    if secret == EXAMPLE_SECRET:
        log.warning(EXAMPLE_WARNING, f"{Path(game).name} rolls" if game is not None else
                    "this game rolls", extra={"once": True})
    return secret


#: said once per run, in one line; the whole story is in ``sheetmaster --help`` and the README
EXAMPLE_WARNING = ("%s the example games' public dice (anyone can compute them): fine for a "
                   "try; see `sheetmaster --help` for a real game")
#: ``sheetmaster --help`` on the example games' dice
EXAMPLE_HELP = (f"The example games (new --example) roll their dice from the public secret "
                f"{EXAMPLE_SECRET!r}, so anyone can compute them, and every run says so once. "
                f"Fine for a try; a real game starts with 'sheetmaster new' without --example, "
                f"which makes the game's own secret in GAME.xlsx{SECRET_SUFFIX}, beside the "
                f"workbook (a Google Sheet's is {SECRET_ENV}). Keep it from the players.")


def _read_secret(game: Path | None, env: Mapping[str, str]) -> str:
    if game is not None:
        path = secret_path(Path(game))
        try:
            return check_secret(path.read_text(encoding="utf-8"), path.name)
        except FileNotFoundError:
            if not env.get(SECRET_ENV, "").strip():
                raise DiceSecretError(f"no dice secret for {Path(game).name}: there is no "
                                      f"{path.name} beside it and {SECRET_ENV} is not set. "
                                      f"{HOW_TO_SET}") from None
        except OSError as exc:
            raise DiceSecretError(f"cannot read the dice secret {path} "
                                  f"({exc.strerror or exc})") from None
    if env.get(SECRET_ENV, "").strip():
        return check_secret(env[SECRET_ENV])
    raise DiceSecretError(f"no dice secret: {SECRET_ENV} is not set. {HOW_TO_SET}")


def for_sheet(secret: str, spreadsheet_id: str) -> str:
    """A Google Sheet game's own secret: the environment's, bound to the spreadsheet, so that
    games sharing one ``SHEETMASTER_DICE_SECRET`` (a repository-wide Actions secret) still
    roll different dice (or one game's revealed seeds would be another's coming ones)."""
    return f"{check_secret(secret)}:{spreadsheet_id}"


def new_secret() -> str:
    return secrets.token_hex(16)


def write_secret(path: Path, secret: str) -> None:
    """Write a secret file that only its owner can read."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(secret + "\n")
    os.chmod(path, 0o600)


def keep_secret_beside(source: Path, target: Path) -> Path | None:
    """After ``resolve A --out B``: B's turns need A's secret, so it is copied beside B (if B
    has none). Returns the copy's path, or None if nothing was copied."""
    have, want = secret_path(Path(source)), secret_path(Path(target))
    if not have.exists() or want.exists() or have.resolve() == want.resolve():
        return None
    write_secret(want, have.read_text(encoding="utf-8").strip())
    return want


# -- the Log line that reveals a turn's dice ---------------------------------------------------

_DICE_LINE = re.compile(r"dice seed (?P<seed>\d+), salt (?P<salt>[0-9a-f]+): commitment "
                        r"(?P<commitment>[0-9a-f]{64})(?P<published> \(published before the "
                        r"deadline\))?; next turn's commitment (?P<next>[0-9a-f]{64})")


def dice_line(dice: TurnDice, published: bool, next_commitment: str) -> str:
    """The Log's ``dice`` line: the revealed seed and salt, and the commitments."""
    note = " (published before the deadline)" if published else ""
    return (f"dice seed {dice.seed}, salt {dice.salt}: commitment {dice.commitment}{note}; "
            f"next turn's commitment {next_commitment}")


@dataclass(frozen=True)
class RevealedDice:
    seed: int
    salt: str
    commitment: str
    published: bool
    next_commitment: str


def parse_dice_line(text: str) -> RevealedDice | None:
    match = _DICE_LINE.search(text or "")
    if match is None:
        return None
    return RevealedDice(int(match["seed"]), match["salt"], match["commitment"],
                        bool(match["published"]), match["next"])
