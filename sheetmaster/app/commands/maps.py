"""map: the game's map picture without resolving; and the map every resolve draws.

The map image is checked before the game is read (it exists, is a whole image, and is within
the pixel budget of :mod:`sheetmaster.app.maps.key_image`); anything wrong with it is a usage
error (exit 2). A resolve draws the map of the turn's outcome after resolving and before
writing, so a broken map (a bad colour, a key colour the image lacks, an image that fails to
decode) stops the turn with nothing written, for the next run to resolve once it is fixed;
the picture is written beside the turn report once the game is.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sheetmaster.app.commands.options import game_store, sheet_options
from sheetmaster.app.exits import Exit, UsageError

if TYPE_CHECKING:
    from sheetmaster.kit.model import GameState, TurnResult
    from sheetmaster.kit.ruleset import Ruleset

log = logging.getLogger("sheetmaster")


def map_image_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--map-image", metavar="PNG",
                   help="the GM's province map: a PNG with each province painted in its own "
                        "key colour (the map tab's 'map colour' column); without it the map "
                        "is drawn from the borders")


def resolve_map_options(p: argparse.ArgumentParser) -> None:
    map_image_option(p)
    p.add_argument("--no-map", action="store_true",
                   help="draw no map picture (by default a resolve writes NAME-turn-N-map.png "
                        "beside the turn report)")


def map_title(state: GameState, turn: int | None) -> str:
    """'Example: the Matter of Britain, after turn 2' (or 'as set up'): the game's name
    (without a note the GM wrote beside it in the Game tab) and the turn, nothing else."""
    from sheetmaster.app.maps.marks import game_name
    from sheetmaster.kit import values

    game = game_name(values.text(state.meta.get("game"))) or "the game"
    return f"{game}, as set up" if turn is None else f"{game}, after turn {turn}"


def map_file(report: Path) -> Path:
    """Where the map goes beside a report: NAME-turn-N-report.md -> NAME-turn-N-map.png."""
    name = report.name
    stem = name[:-len("-report.md")] if name.endswith("-report.md") else report.stem
    return report.with_name(f"{stem}-map.png")


class TurnMap:
    """The map picture of a turn's outcome: drawn before the game is written (what it
    raises stops the turn), written beside the report after."""

    def __init__(self, image: str | Path | None, enabled: bool = True) -> None:
        self.image = _image_path(image)
        self.enabled = enabled
        self.png: bytes | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace, image: str | Path | None = None) -> TurnMap:
        """The map the command line asks for; ``image``, a game's own (games.toml), comes
        before --map-image."""
        return cls(image or getattr(args, "map_image", None),
                   enabled=not getattr(args, "no_map", False))

    def draw(self, ruleset: Ruleset, result: TurnResult) -> None:
        if not self.enabled or ruleset.map is None:
            return
        from sheetmaster.app.maps.render import NoPicture, map_picture, png_bytes

        try:
            with _usable_image():
                picture = map_picture(ruleset, result.after, image=self.image,
                                      title=map_title(result.after, result.turn))
        except NoPicture as exc:
            log.warning("no map picture this turn: %s", exc)
            return
        self.png = png_bytes(picture)

    def write(self, path: Path) -> Path | None:
        if self.png is None:
            return None
        path.write_bytes(self.png)
        return path


def _image_path(image: str | Path | None) -> Path | None:
    """The map image, checked before the game is read: it exists, is a whole image and is
    within the pixel budget (its pixels are decoded only when the map is drawn)."""
    if image is None:
        return None
    path = Path(image)
    if not path.is_file():
        raise UsageError(f"the map image {path} does not exist")
    from sheetmaster.app.maps.key_image import check_key_image

    with _usable_image():
        check_key_image(path)
    return path


@contextlib.contextmanager
def _usable_image() -> Iterator[None]:
    """A map image that cannot be used (damaged, not an image, over the pixel budget) is a
    usage error (exit 2), as a missing one is: the GM's own input, not the game's sheet."""
    from sheetmaster.app.maps.key_image import MapImageError

    try:
        yield
    except MapImageError as exc:
        raise UsageError(str(exc)) from None


def cmd_map(args: argparse.Namespace) -> int:
    from sheetmaster.app.maps.render import NoPicture, map_picture, png_bytes
    from sheetmaster.app.runs import Mode, ruleset_of
    from sheetmaster.engine.turn import prepare

    store = game_store(args, Mode.CHECK)
    image = _image_path(args.map_image)
    with store.locked():
        state = store.load()
    ruleset = ruleset_of(state)
    if ruleset.map is None:
        raise UsageError(f"the {ruleset.name} rules declare no map to draw")
    current = prepare(ruleset, state).state.turn
    wanted = current - 1 if args.turn is None else args.turn
    if wanted != current - 1:
        state = _older(store, args, wanted, current)
    prepared = prepare(ruleset, state).state
    latest = None if wanted < ruleset.first_turn else wanted
    try:
        with _usable_image():
            picture = map_picture(ruleset, prepared, image=image,
                                  title=map_title(prepared, latest), full_size=args.full_size)
    except NoPicture as exc:
        raise UsageError(f"no map to draw: {exc}") from None
    out = Path(args.out) if args.out else _default_out(store, latest)
    out.write_bytes(png_bytes(picture))
    print(f"wrote {out}: the map {'as set up' if latest is None else f'after turn {latest}'}"
          f"{', recoloured from ' + str(image) if image else ', drawn from the borders'}")
    return Exit.OK


def _older(store: Any, args: argparse.Namespace, turn: int, current: int) -> GameState:
    """The game as it stood after ``turn``: the backup kept before turn + 1 was resolved."""
    from sheetmaster.stores.xlsx import XlsxStore, backup_path

    if turn >= current:
        raise UsageError(f"turn {turn} is not resolved yet (the game is on turn {current})")
    if not isinstance(store, XlsxStore):
        raise UsageError("a Google Sheet keeps only its latest turn: leave out --turn")
    kept = backup_path(store.path, turn + 1)
    if not kept.exists():
        raise UsageError(f"there is no backup of the game after turn {turn} ({kept} is "
                         f"missing)")
    return XlsxStore(kept, backup=False).load()


def _default_out(store: Any, turn: int | None) -> Path:
    from sheetmaster.stores.xlsx import XlsxStore

    which = "start" if turn is None else f"turn-{turn}"
    if isinstance(store, XlsxStore):
        return store.path.with_name(f"{store.path.stem}-{which}-map.png")
    return Path(f"{which}-map.png")


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "map", parents=[common], help="draw the game's map picture (PNG) without resolving",
        description="Draw the map as the game stands: each province in its owner's colour, "
                    "capitals starred, occupied provinces hatched, units counted. With "
                    "--map-image, the GM's own map is recoloured (its borders, sea and labels "
                    "stay as painted); without, the map is drawn from the borders (the 'map "
                    "x' and 'map y' columns pin a province where you want it).")
    p.add_argument("file", nargs="?", help="the game's .xlsx file (or use --sheet)")
    sheet_options(p)
    map_image_option(p)
    p.add_argument("--turn", type=int, metavar="N",
                   help="the map after turn N (default: the latest turn resolved; older turns "
                        "come from the workbook's backups)")
    p.add_argument("--out", metavar="PNG",
                   help="where to write it (default: NAME-turn-N-map.png beside the game)")
    p.add_argument("--full-size", action="store_true",
                   help="drawn from the borders, as wide as the names need (by default the "
                        "map is at most 800 pixels wide, legible in a chat's preview)")
    p.set_defaults(run=cmd_map)
