"""games.toml: the games one repository resolves, for ``nightly --all`` and the matrix workflow.

::

    [[game]]
    name = "avalon"                  # letters, digits, - and _: the job's name and lock
    sheet = "1AbC-dEf..."            # a Google Sheet's id, or:
    # file = "games/avalon.xlsx"     # a workbook, relative to games.toml (local runs only)
    ruleset = "claims"               # the rules it plays by; must match its Game tab
    map_image = "maps/avalon.png"    # the GM's province key image (default: drawn from borders)
    discord = true                   # post each turn to Discord (webhooks from secrets)
    environment = "avalon"           # the GitHub environment its job runs in (default: none)
    [game.secrets]                   # where this game's secrets are (default: the names below)
    dice = "AVALON_DICE_SECRET"                     # SHEETMASTER_DICE_SECRET
    google = "SHEETMASTER_SERVICE_ACCOUNT_JSON"     # SHEETMASTER_SERVICE_ACCOUNT_JSON
    discord = "AVALON_DISCORD_WEBHOOK"              # SHEETMASTER_DISCORD_WEBHOOK
    discord_players = "AVALON_DISCORD_PLAYER_WEBHOOKS"  # SHEETMASTER_DISCORD_PLAYER_WEBHOOKS

Each secret is an environment variable (a GitHub Actions secret in the workflow). A game reads
its own from the names its ``[game.secrets]`` gives, and a name given there must be set. Two
games that post to Discord cannot read their webhooks from the same name, unless each runs in
a GitHub environment of its own (where one name holds each game's value): otherwise one
game's private reports would reach the other's players.

A broken games.toml is a usage error naming the game and the key; nothing is run.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sheetmaster import rules
from sheetmaster.app.delivery.webhooks import PLAYERS_ENV, PUBLIC_ENV
from sheetmaster.app.exits import UsageError
from sheetmaster.kit.fairness import SECRET_ENV
from sheetmaster.stores.google_auth import JSON_ENV

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$")
#: a game's secrets: what each is, and the variable it is read from unless the game names one.
SECRETS = {"dice": SECRET_ENV, "google": JSON_ENV, "discord": PUBLIC_ENV,
           "discord_players": PLAYERS_ENV}
#: the secrets that say where a game's reports go.
WEBHOOKS = ("discord", "discord_players")
#: a GitHub secret's name: letters, digits and _, not starting with a digit or GITHUB_ (written
#: in capitals here: GitHub does not tell 'a' from 'A' in a secret's name).
SECRET_NAME = re.compile(r"^(?!GITHUB_)[A-Z_][A-Z0-9_]{0,99}$")
KEYS = {"name", "sheet", "file", "ruleset", "environment", "secrets", "map_image", "discord"}


@dataclass(frozen=True)
class Game:
    name: str
    ruleset: str
    sheet: str | None = None
    file: Path | None = None
    #: the GitHub environment its job runs in ('' for none).
    environment: str = ""
    #: the secrets whose names games.toml gives: what it is ('dice'...) -> the name.
    secrets: Mapping[str, str] = field(default_factory=dict)
    #: the GM's province key image (None: the map is drawn from the borders).
    map_image: Path | None = None
    #: post each resolved turn to Discord (the webhooks come from the secrets).
    discord: bool = False

    @property
    def where(self) -> str:
        return f"sheet {self.sheet}" if self.sheet else str(self.file)

    def secret_name(self, what: str) -> str:
        """The variable this game's ``what`` secret ('dice', 'discord'...) is read from."""
        return self.secrets.get(what, SECRETS[what])

    def missing_secrets(self, environ: Mapping[str, str] | None = None) -> list[str]:
        """The secrets games.toml names for this game that are not set."""
        environ = os.environ if environ is None else environ
        return [name for name in self.secrets.values() if not environ.get(name, "").strip()]

    def environ(self, environ: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment as this game's run reads it: each secret under the name sheetmaster
        reads (SHEETMASTER_DICE_SECRET...) holds this game's own."""
        environ = os.environ if environ is None else environ
        out = dict(environ)
        for what, name in self.secrets.items():
            out[SECRETS[what]] = environ.get(name, "")
        return out


def load_games(path: str | os.PathLike[str]) -> list[Game]:
    """Every game of a games.toml, checked; raises UsageError saying what is wrong where."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{path} does not exist (`sheetmaster init --repo DIR` writes "
                         f"one)") from None
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
    _check_own_webhooks(path, games)
    return games


def _check_own_webhooks(path: Path, games: list[Game]) -> None:
    """Two games that post to Discord never read their webhooks from one name, unless each
    has a GitHub environment of its own (where that name holds each game's value)."""
    posting = [g for g in games if g.discord]
    for i, one in enumerate(posting):
        for other in posting[i + 1:]:
            if one.environment and other.environment and one.environment != other.environment:
                continue
            shared = sorted({one.secret_name(w) for w in WEBHOOKS} &
                            {other.secret_name(w) for w in WEBHOOKS})
            if shared:
                raise UsageError(
                    f"{path}: games '{one.name}' and '{other.name}' both read their Discord "
                    f"webhooks from {' and '.join(shared)}, so one game's reports would go to "
                    f"the other's channels. Give each game secrets of its own names (e.g. "
                    f"[game.secrets] discord = \"{_suggest(other, 'discord')}\", "
                    f"discord_players = \"{_suggest(other, 'discord_players')}\"), or "
                    f"each an environment of its own")


def _suggest(game: Game, what: str) -> str:
    """A secret name for this game: 'AVALON_DISCORD_WEBHOOK'."""
    stem = re.sub(r"[^A-Z0-9]+", "_", game.name.upper()).strip("_")
    return f"{stem}_{SECRETS[what].removeprefix('SHEETMASTER_')}"


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
    for key in ("sheet", "file", "ruleset"):
        if key in entry and (not isinstance(entry[key], str) or not entry[key].strip()):
            raise bad(f"'{key}' must be a non-empty string")
    ruleset = entry.get("ruleset")
    if ruleset is None:
        raise bad("'ruleset' is missing (see 'sheetmaster rules')")
    try:
        rules.get(ruleset)
    except KeyError as exc:
        raise bad(f"'ruleset': {exc.args[0]}") from None
    environment = entry.get("environment", "")
    if not isinstance(environment, str) or (environment and not NAME.match(environment)):
        raise bad("'environment' must be letters, digits, '-' or '_' (or leave it out)")
    secrets = _secrets(entry.get("secrets", {}), bad)
    if "map_image" in entry and (not isinstance(entry["map_image"], str) or
                                 not entry["map_image"].strip()):
        raise bad("'map_image' must be a PNG's path, relative to this file")
    if not isinstance(entry.get("discord", False), bool):
        raise bad("'discord' must be true or false")
    file = (path.parent / entry["file"]) if "file" in entry else None
    image = (path.parent / entry["map_image"]) if "map_image" in entry else None
    return Game(name=name, ruleset=ruleset, sheet=entry.get("sheet"), file=file,
                environment=environment, secrets=secrets, map_image=image,
                discord=entry.get("discord", False))


def _secrets(table: Any, bad: Any) -> dict[str, str]:
    """A game's [game.secrets]: what -> a secret's name, each checked."""
    if not isinstance(table, dict):
        raise bad("'secrets' must be a table of names, like [game.secrets] dice = "
                  "\"AVALON_DICE_SECRET\" (the secrets it has: "
                  f"{', '.join(SECRETS)})")
    unknown = sorted(set(table) - set(SECRETS))
    if unknown:
        raise bad(f"'secrets': no secret is called {', '.join(unknown)} (a game's secrets: "
                  f"{', '.join(SECRETS)})")
    for what, name in table.items():
        if not isinstance(name, str) or not SECRET_NAME.match(name):
            raise bad(f"'secrets': {what} must be a GitHub secret's name, in capitals, digits "
                      f"and _, not starting with GITHUB_ (like \"AVALON_DICE_SECRET\")")
    if len(set(table.values())) < len(table):
        raise bad("'secrets': two of its secrets have the same name")
    return dict(table)


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


def secret_names(games: list[Game]) -> list[str]:
    """Every secret name the games read, the default ones first: what the workflow hands
    each job."""
    named = {name for g in games for name in g.secrets.values()}
    return [*SECRETS.values(), *sorted(named - set(SECRETS.values()))]
