"""games.toml: the games one repository resolves, for ``nightly --all`` and the matrix workflow.

::

    [[game]]
    name = "avalon"                  # letters, digits, - and _: the job's name and lock
    sheet = "1AbC-dEf..."            # a Google Sheet's id, or:
    # file = "games/avalon.xlsx"     # a workbook, relative to games.toml (local runs only)
    ruleset = "claims"               # the rules it plays by; must match its Game tab
    environment = "avalon"           # the GitHub environment with its secrets (default: name)
    secrets = ["SHEETMASTER_SERVICE_ACCOUNT_JSON", "SHEETMASTER_DICE_SECRET"]  # the run's
                                     # secrets (default: none; a sheet's dice always need one)

A broken games.toml is a usage error naming the game and the key; nothing is run.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sheetmaster import rules
from sheetmaster.exits import UsageError
from sheetmaster.fairness import SECRET_ENV
from sheetmaster.stores.google_auth import JSON_ENV

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$")
#: the secrets a game may name: those sheetmaster reads, which the workflow hands each job.
KNOWN_SECRETS = (JSON_ENV, SECRET_ENV)
KEYS = {"name", "sheet", "file", "ruleset", "environment", "secrets"}


@dataclass(frozen=True)
class Game:
    name: str
    ruleset: str
    sheet: str | None = None
    file: Path | None = None
    environment: str = ""
    secrets: tuple[str, ...] = ()

    @property
    def where(self) -> str:
        return f"sheet {self.sheet}" if self.sheet else str(self.file)

    def missing_secrets(self, environ: Mapping[str, str] | None = None) -> list[str]:
        environ = os.environ if environ is None else environ
        return [name for name in self.secrets if not environ.get(name, "").strip()]


def load_games(path: str | os.PathLike[str]) -> list[Game]:
    """Every game of a games.toml, checked; raises UsageError saying what is wrong where."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{path} does not exist (see games.example.toml)") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{path} is not a readable TOML file: {exc}") from None
    entries = data.get("game")
    if not isinstance(entries, list) or not entries:
        raise UsageError(f"{path} lists no games: add a [[game]] table per game")
    games = [_game(path, i, entry) for i, entry in enumerate(entries, 1)]
    seen: set[str] = set()
    for game in games:
        if game.name.casefold() in seen:
            raise UsageError(f"{path}: two games are named '{game.name}'")
        seen.add(game.name.casefold())
    return games


def _game(path: Path, index: int, entry: Any) -> Game:
    def bad(message: str) -> UsageError:
        named = entry.get("name") if isinstance(entry, dict) else None
        return UsageError(f"{path}, game {index}{f' ({named})' if named else ''}: {message}")

    if not isinstance(entry, dict):
        raise bad("each [[game]] must be a table")
    unknown = sorted(set(entry) - KEYS)
    if unknown:
        raise bad(f"unknown key {', '.join(unknown)} (keys: {', '.join(sorted(KEYS))})")
    name = entry.get("name")
    if not isinstance(name, str) or not NAME.match(name):
        raise bad("'name' must be letters, digits, '-' or '_' (at most 63), like \"avalon\"")
    if ("sheet" in entry) == ("file" in entry):
        raise bad("give either 'sheet' (a Google Sheet's id) or 'file' (a .xlsx path)")
    for key in ("sheet", "file", "ruleset", "environment"):
        if key in entry and (not isinstance(entry[key], str) or not entry[key].strip()):
            raise bad(f"'{key}' must be a non-empty string")
    ruleset = entry.get("ruleset")
    if ruleset is None:
        raise bad("'ruleset' is missing (see 'sheetmaster rules')")
    try:
        rules.get(ruleset)
    except KeyError as exc:
        raise bad(f"'ruleset': {exc.args[0]}") from None
    environment = entry.get("environment", name)
    if not NAME.match(environment):
        raise bad("'environment' must be letters, digits, '-' or '_'")
    secrets = entry.get("secrets", [])
    if not isinstance(secrets, list) or not all(isinstance(s, str) for s in secrets):
        raise bad("'secrets' must be a list of names, like [\"SHEETMASTER_SERVICE_ACCOUNT_JSON\"]")
    unknown = [s for s in secrets if s not in KNOWN_SECRETS]
    if unknown:
        raise bad(f"'secrets': sheetmaster reads no secret named {', '.join(unknown)} "
                  f"(it reads {', '.join(KNOWN_SECRETS)})")
    file = (path.parent / entry["file"]) if "file" in entry else None
    return Game(name=name, ruleset=ruleset, sheet=entry.get("sheet"), file=file,
                environment=environment, secrets=tuple(secrets))


def select(games: list[Game], names: list[str] | None) -> list[Game]:
    """The games named (all when ``names`` is empty); an unknown name is a usage error."""
    if not names:
        return games
    by_name = {g.name.casefold(): g for g in games}
    missing = [n for n in names if n.casefold() not in by_name]
    if missing:
        raise UsageError(f"no game named {', '.join(missing)} "
                         f"(games: {', '.join(g.name for g in games)})")
    return [by_name[n.casefold()] for n in names]


def github_matrix(games: list[Game]) -> dict[str, list[dict[str, str]]]:
    """The resolve workflow's matrix: one job per Google Sheet game (a workbook lives in the
    repository, where a job's writes would be lost, so workbook games are run locally)."""
    return {"include": [{"game": g.name, "environment": g.environment}
                        for g in games if g.sheet]}
