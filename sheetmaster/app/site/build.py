"""Build a game's site into a folder: the record's data, its maps, its pages.

The site's data (``site.json``) holds everything the pages show: each moment's label, map
file and numbers, each turn's public report, the players and their colours. The pages are
rendered from it alone (:mod:`sheetmaster.app.site.pages`), so a folder that already holds the
site of the same game lends the turns the source can no longer give (a Google Sheet keeps
only its last turn): those turns' data and map files are kept, the rest is built anew.

The same record gives the same bytes: no clock, no random names, keys sorted; a file whose
bytes did not change is not rewritten, so a nightly publish's diff shows what the turn did.
"""

from __future__ import annotations

import io
import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sheetmaster import __version__
from sheetmaster.app.site.numbers import measures, numbers, players_of
from sheetmaster.app.site.pages import render
from sheetmaster.app.site.record import SHEET_NOTE, Moment, Record
from sheetmaster.kit.values import plural_word

log = logging.getLogger("sheetmaster")

#: the site's data file, and what marks a folder as a sheetmaster site.
DATA = "site.json"
GENERATOR = "sheetmaster site"
#: site.json's layout; a site of another layout is rebuilt without borrowing from it.
LAYOUT = 1


class SiteError(ValueError):
    """The site cannot be written where asked; the message says why and what to do."""


@dataclass
class Built:
    """What a build wrote: every file of the site (relative paths), and its size."""

    folder: Path
    files: list[str]
    size: int
    #: moments shown (each turn's state), maps drawn or kept, turn reports.
    moments: int
    maps: int
    reports: int
    #: turns whose map and numbers came from the site already in the folder.
    kept: list[int] = field(default_factory=list)
    #: what the site says it lacks.
    notes: list[str] = field(default_factory=list)


def build_site(record: Record, out: Path, *, image: Path | None = None) -> Built:
    """Write the site of ``record`` into ``out`` (``image``: the GM's key image of the map)."""
    earlier = _earlier(out, record)
    maps: dict[str, bytes] = {}
    data = _data(record, earlier, maps, image, out)
    kept = [m["turn"] for m in data["moments"] if m.pop("kept", False)]
    files = render(data)
    files.update(maps)
    names = sorted({*files, DATA, *(m["map"] for m in data["moments"] if m["map"])})
    data["files"] = names
    files[DATA] = _json(data)
    _write(out, files, [n for n in (earlier or {}).get("files", []) if n not in names])
    size = sum((out / name).stat().st_size for name in names if (out / name).is_file())
    return Built(out, names, size, len(data["moments"]),
                 sum(bool(m["map"]) for m in data["moments"]), len(data["reports"]), kept,
                 data["notes"])


def _data(record: Record, earlier: dict[str, Any] | None, maps: dict[str, bytes],
          image: Path | None, out: Path) -> dict[str, Any]:
    """The site's data: the record's moments and reports, with the earlier site's for the
    turns the record lacks (never past the record's latest turn: an undone turn goes)."""
    ruleset, latest = record.ruleset, record.latest.turn
    charted = measures(ruleset)
    moments: dict[int, dict[str, Any]] = {}
    for old in (earlier or {}).get("moments", []):
        if old["turn"] <= latest and old["turn"] not in record.moments:
            moments[old["turn"]] = {**old, "kept": True}
            if not re.fullmatch(r"maps/turn-\d+\.png", old["map"]) or \
                    not (out / old["map"]).is_file():
                moments[old["turn"]].update(map="", size=[])
    for turn, moment in record.moments.items():
        moments[turn] = _moment(record, moment, charted, maps, image)
    reports: dict[str, dict[str, Any]] = {}
    for turn, text in record.reports.items():
        reports[str(turn)] = {"markdown": text, "source": record.report_sources.get(turn, ""),
                              "complete": record.complete.get(turn, True)}
    for turn, old in (earlier or {}).get("reports", {}).items():
        if int(turn) <= latest and not reports.get(turn, {}).get("complete", False):
            reports[turn] = old
    players = players_of(ruleset, record.latest.state)
    for moment in sorted(moments):  # players gone from the tab since keep their lines
        for counts in moments[moment]["numbers"].values():
            players += [p for p in counts if p not in players]
    colours = _colours(record)
    ordered = sorted(moments)
    for turn in ordered:
        moments[turn]["report"] = f"turn-{turn}.html" if str(turn) in reports else ""
    return {
        "generator": GENERATOR, "layout": LAYOUT, "sheetmaster": __version__,
        "game": record.game, "ruleset": ruleset.name, "rules": ruleset.title,
        "players_noun": plural_word(ruleset.noun("player")),
        "first_turn": ruleset.first_turn,
        "players": [{"name": p, "colour": colours.get(p, "#777777")} for p in players],
        "measures": [{"key": m.key, "title": m.title, "source": m.source} for m in charted],
        "moments": [moments[t] for t in ordered],
        "reports": {t: reports[t] for t in sorted(reports, key=int)},
        "notes": [n for n in record.notes if n != SHEET_NOTE or
                  any(int(t) not in moments for t in reports)],
    }


def _moment(record: Record, moment: Moment, charted: list, maps: dict[str, bytes],
            image: Path | None) -> dict[str, Any]:
    """One moment's data, its map drawn into ``maps`` (none when the rules have none)."""
    ruleset, turn = record.ruleset, moment.turn
    label = "as set up" if turn < ruleset.first_turn else f"after turn {turn}"
    from sheetmaster.app.maps.marks import game_name

    picture = _map(record, moment, image, f"{game_name(record.game)}, {label}")
    name = ""
    if picture is not None:
        name = f"maps/turn-{turn}.png"
        maps[name] = picture
    return {"turn": turn, "label": label, "date": moment.date, "map": name,
            "size": _size(picture), "numbers": {m.key: numbers(ruleset, moment.state, m)
                                                for m in charted}}


def _map(record: Record, moment: Moment, image: Path | None, title: str) -> bytes | None:
    if record.ruleset.map is None:
        return None
    from sheetmaster.app.maps.render import NoPicture, map_picture, png_bytes

    try:
        return png_bytes(map_picture(record.ruleset, moment.state, image=image, title=title))
    except NoPicture as exc:
        log.warning("no map of %s: %s", title, exc)
        return None


def _size(png: bytes | None) -> list[int]:
    if png is None:
        return []
    from PIL import Image

    with Image.open(io.BytesIO(png)) as picture:
        return list(picture.size)


def _colours(record: Record) -> dict[str, str]:
    """Each player's colour on the map (the players tab's, or the one the map picks)."""
    if record.ruleset.map is None:
        return {}
    from sheetmaster.app.maps.colours import hex_colour
    from sheetmaster.app.maps.state import read_map
    from sheetmaster.kit.schema import Problems

    data = read_map(record.ruleset, record.latest.state, Problems())
    return {name: hex_colour(colour) for name, colour in data.colours.items()}


def _json(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode()


def _earlier(out: Path, record: Record) -> dict[str, Any] | None:
    """The site already in ``out`` (None if the folder is new or empty); refuses a folder
    that holds other files, or the site of another game."""
    if out.exists() and not out.is_dir():
        raise SiteError(f"{out} is a file, not a folder: pick a folder for the site")
    if not out.exists():
        return None
    data_file = out / DATA
    if not data_file.is_file():
        if any(not p.name.startswith(".") for p in out.iterdir()):
            raise SiteError(f"{out} already holds files that are not a sheetmaster site: "
                            f"pick a new or empty folder for the site")
        return None
    try:
        earlier = json.loads(data_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SiteError(f"{data_file} cannot be read ({exc}): remove the folder, or pick "
                        f"another, to build the site anew") from None
    if not isinstance(earlier, dict) or earlier.get("generator") != GENERATOR:
        raise SiteError(f"{data_file} is not a sheetmaster site's: pick another folder")
    if (earlier.get("game"), earlier.get("ruleset")) != (record.game, record.ruleset.name):
        raise SiteError(f"{out} holds the site of another game ({earlier.get('game')!r}, "
                        f"{earlier.get('ruleset')}): pick another folder for "
                        f"{record.game!r}")
    return earlier if earlier.get("layout") == LAYOUT else {"files": earlier.get("files", [])}


def _write(out: Path, files: dict[str, bytes], stale: list[str]) -> None:
    """Write each file whose bytes changed; remove ``stale``, the earlier site's files that
    the new one lacks (only inside ``out``)."""
    out.mkdir(parents=True, exist_ok=True)
    root = out.resolve()
    for name, content in sorted(files.items()):
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_bytes() != content:
            path.write_bytes(content)
    for name in stale:
        path = (out / str(name)).resolve()
        if path.is_relative_to(root) and path.is_file():
            path.unlink()
