"""site: a static site of a game's public record (see :mod:`sheetmaster.app.site`)."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import Any

from sheetmaster.app.commands.maps import map_image_option
from sheetmaster.app.commands.options import game_store, sheet_options, sheet_store
from sheetmaster.app.exits import Exit, UsageError

log = logging.getLogger("sheetmaster")


def cmd_site(args: argparse.Namespace) -> int:
    from sheetmaster.app.report import one_line, plural
    from sheetmaster.app.site import SiteError, build_site, sheet_record, workbook_record

    if not args.out:
        raise UsageError("say where the site goes: --out DIR")
    sheet, file, image, env = _game(args)
    if image is not None and not image.is_file():
        raise UsageError(f"the map image {image} does not exist")
    record = sheet_record(sheet_store(sheet, args.credentials, env=env)) if sheet else \
        workbook_record(file)  # type: ignore[arg-type]
    try:
        built = build_site(record, Path(args.out), image=image)
    except SiteError as exc:
        raise UsageError(str(exc)) from None
    for note in built.notes:
        log.info("%s", note)
    kept = f"; turns kept from the site already there: {', '.join(map(str, built.kept))}" \
        if built.kept else ""
    print(f"wrote the site of {one_line(record.game)} into {built.folder}: "
          f"{plural(built.moments, 'turn')} with {plural(built.maps, 'map')}, "
          f"{plural(built.reports, 'turn report')}, {plural(len(built.files), 'file')}, "
          f"{built.size:,} bytes{kept}. Open {built.folder / 'index.html'}")
    return Exit.OK


def _game(args: argparse.Namespace
          ) -> tuple[str | None, Path | None, Path | None, dict[str, str] | None]:
    """The game's sheet or file, the map image and the environment its Google key is read
    from: from the command line, or from the game of a games.toml (--games FILE --game NAME,
    its own secret names)."""
    image = Path(args.map_image) if args.map_image else None
    if not args.games:
        if args.game:
            raise UsageError("--game NAME picks a game of a games.toml: give --games FILE")
        from sheetmaster.app.runs import Mode

        store = game_store(args, Mode.CHECK)
        return (None, store.path, image, None) if hasattr(store, "path") else \
            (args.sheet, None, image, None)
    from sheetmaster.app.games import load_games, select

    if args.file or args.sheet or not args.game:
        raise UsageError("with --games FILE, name the game with --game NAME (and no file or "
                         "--sheet)")
    game = select(load_games(args.games), [args.game])[0]
    return game.sheet, game.file, image or game.map_image, game.environ()


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "site", parents=[common],
        help="build a static web site of the game's public record (maps, reports, charts)",
        description="Build a static site of the game's public record into a folder: every "
                    "turn's map with a slider, each turn's public report, and charts of each "
                    "player's treasury, land and units over the turns. Nothing private: the "
                    "public reports, the Log and the tabs every player sees. It needs no "
                    "network to view (GitHub Pages, or open index.html). A workbook's turns "
                    "come from its backups and the reports beside it; a Google Sheet keeps "
                    "only its last turn, so building into the folder of an earlier build "
                    "keeps the turns that build saw.")
    p.add_argument("file", nargs="?", help="the game's .xlsx file (or use --sheet)")
    sheet_options(p)
    map_image_option(p)
    p.add_argument("--games", metavar="TOML",
                   help="take the game from a games.toml (its sheet or file, its map image)")
    p.add_argument("--game", metavar="NAME", help="with --games: the game's name there")
    p.add_argument("--out", metavar="DIR",
                   help="the site's folder: new, empty, or holding this game's site already")
    p.set_defaults(run=cmd_site)
