"""Games the site tests build sites of, and the numbers their charts must show, read
independently of sheetmaster.app.site (openpyxl on each workbook the game kept)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import openpyxl

from sheetmaster import rules
from sheetmaster.app.cli import main

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
#: the GM's painted map of a ruleset's example game, where one ships.
IMAGES = {"clans": TEMPLATES / "clans-example-map.png"}


def played(folder: Path, ruleset: str, turns: int = 2) -> Path:
    """The ruleset's example game in ``folder``, ``turns`` turns resolved."""
    folder.mkdir(parents=True, exist_ok=True)
    game = folder / "game.xlsx"
    assert main(["new", ruleset, str(game), "--example", "-qq"]) == 0
    image = ["--map-image", str(IMAGES[ruleset])] if ruleset in IMAGES else []
    for _ in range(turns):
        assert main(["resolve", str(game), "--force", "-qq", *image]) == 0
    return game


def site_args(ruleset: str) -> list[str]:
    return ["--map-image", str(IMAGES[ruleset])] if ruleset in IMAGES else []


def kept_workbooks(game: Path) -> dict[int, Path]:
    """Turn -> the workbook of the game as it stood after it: each backup, and the game."""
    out = {}
    for kept in (game.parent / f"{game.name}.backups").glob("before-turn-*.xlsx"):
        out[int(re.findall(r"\d+", kept.stem)[-1]) - 1] = kept
    out[_turn(game) - 1] = game
    return dict(sorted(out.items()))


def _rows(path: Path, tab: str) -> list[dict[str, Any]]:
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        rows = list(book[tab].iter_rows(values_only=True))
    finally:
        book.close()
    header = [str(h).strip() if h is not None else "" for h in rows[0]]
    return [dict(zip(header, r)) for r in rows[1:] if any(v not in (None, "") for v in r)]


def _turn(path: Path) -> int:
    return int(next(r["value"] for r in _rows(path, "Game") if r["setting"] == "turn"))


def expected_series(game: Path, ruleset_name: str) -> dict[str, dict[str, list[Any]]]:
    """Chart title -> player -> their number after each kept turn: the treasury column the
    ruleset calls gold, and the map tab's rows counted by owner."""
    ruleset = rules.get(ruleset_name)
    players = ruleset.players_table()
    gold = ruleset.noun("gold")
    out: dict[str, dict[str, list[Any]]] = {}
    for path in kept_workbooks(game).values():
        people = _rows(path, players.tab)
        if gold in players.names:
            for row in people:
                value = row[gold]
                number = None if value in (None, "") else float(value)
                out.setdefault(gold, {}).setdefault(row[players.key], []).append(number)
        owners = Counter(r[ruleset.map.owner] for r in _rows(path, ruleset.map.tab))
        land = re.sub("y$", "ie", ruleset.table(ruleset.map.tab).row_noun) + "s"
        for row in people:
            out.setdefault(land, {}).setdefault(row[players.key], []).append(
                owners.get(row[players.key], 0))
    return out
