"""Golden map pictures: the shipped example games' maps, drawn now, against the pictures
checked in, pixel by pixel with a small tolerance (font rasterising may differ by a shade
from one FreeType to another; a province in the wrong colour never passes).

The README's before/after pictures (docs/images/) are cases here too, so they never go stale.
After a deliberate change to the drawing, write them again and look at every one:

    SHEETMASTER_UPDATE_GOLDEN_MAPS=1 python -m pytest tests/test_map_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from sheetmaster import rules
from sheetmaster.app.commands.maps import map_title
from sheetmaster.app.maps.render import map_picture
from sheetmaster.app.runs import ruleset_of
from sheetmaster.engine.turn import prepare, resolve
from sheetmaster.kit import fairness
from sheetmaster.kit.schema import Kind
from sheetmaster.stores.xlsx import XlsxStore

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"
GOLDEN = ROOT / "tests" / "golden" / "maps"
DOCS = ROOT / "docs" / "images"
UPDATE = os.environ.get("SHEETMASTER_UPDATE_GOLDEN_MAPS") == "1"

#: a pixel "differs" when a channel is off by more than this...
SHADE = 48
#: ...and a picture passes when at most this share of its pixels differ...
SHARE = 0.003
#: ...and its mean difference per channel stays under this.
MEAN = 1.0

#: every built-in ruleset that declares a map, its example game resolved: drawn from the
#: borders, and from its key image when templates/NAME-example-map.png is shipped.
MAPPED = sorted(name for name, r in rules.BUILT_IN.items() if r.map is not None)

# (expected picture, example game, drawn after its turn is resolved?, from its key image?)
CASES = [
    (DOCS / "claims-map-before.png", "claims", False, True),
    (DOCS / "claims-map-after.png", "claims", True, True),
    *((GOLDEN / f"{name}-after-graph.png", name, True, False) for name in MAPPED),
    *((GOLDEN / f"{name}-after-image.png", name, True, True) for name in MAPPED
      if (TEMPLATES / f"{name}-example-map.png").exists() and name != "claims"),
]  # claims' resolved game from its key image is the README's picture, above


def draw(game: str, resolved: bool, with_image: bool) -> Image.Image:
    workbook = TEMPLATES / f"{game}-example.xlsx"
    state = XlsxStore(workbook).load()
    ruleset = ruleset_of(state)
    if resolved:  # with the example's own (public) dice secret, as `sheetmaster resolve`
        result = resolve(ruleset, state, secret=fairness.read_secret(workbook))
        after, turn = result.after, result.turn
    else:
        after = prepare(ruleset, state).state
        turn = after.turn - 1
    image = TEMPLATES / f"{game}-example-map.png" if with_image else None
    return map_picture(ruleset, after, image=image, title=map_title(after, turn))


def differences(expected: np.ndarray, got: np.ndarray) -> tuple[float, float]:
    delta = np.abs(expected.astype(np.int16) - got.astype(np.int16))
    return float((delta.max(axis=-1) > SHADE).mean()), float(delta.mean())


@pytest.mark.parametrize(("expected", "game", "resolved", "with_image"), CASES,
                         ids=[c[0].stem for c in CASES])
def test_the_example_games_map_is_the_golden_picture(expected, game, resolved, with_image):
    picture = draw(game, resolved, with_image).convert("RGB")
    if UPDATE:
        expected.parent.mkdir(parents=True, exist_ok=True)
        picture.save(expected, "PNG", optimize=True)
    assert expected.exists(), (
        f"{expected.name} is missing: write it (see this file's docstring) and look at it")
    want = np.asarray(Image.open(expected).convert("RGB"))
    got = np.asarray(picture)
    assert got.shape == want.shape, f"{expected.name}: {got.shape} != {want.shape}"
    share, mean = differences(want, got)
    assert share <= SHARE and mean < MEAN, (
        f"{expected.name}: {share:.2%} of the pixels differ (at most {SHARE:.2%}), mean "
        f"difference {mean:.2f} (under {MEAN}); if the change is meant, write the golden "
        f"pictures again (see this file's docstring) and look at them")


def test_the_tolerance_sees_one_province_in_the_wrong_colour():
    picture = np.asarray(draw("claims", True, True).convert("RGB")).copy()
    want = np.asarray(Image.open(DOCS / "claims-map-after.png").convert("RGB"))
    ys = (np.asarray(Image.open(TEMPLATES / "claims-example-map.png").convert("RGB")) ==
          (0xbc, 0xad, 0xc3)).all(axis=-1)  # Ys, a middling territory
    picture[: ys.shape[0]][ys] = (0xe8, 0xa3, 0x3d)  # painted as if Bretagne held it
    share, _ = differences(want, picture)
    assert share > SHARE


def test_every_ruleset_with_a_map_of_provinces_declares_it():
    """"A map picture every turn, for every ruleset with territories or provinces": a tab
    whose rows list their neighbours on both sides is a map."""
    for name, ruleset in rules.BUILT_IN.items():
        maps = [t.tab for t in ruleset.tables
                if any(c.kind is Kind.REFS and c.both_sides for c in t.columns)]
        assert ruleset.map is not None or not maps, (
            f"the {name} rules have a map (tab {maps[0]}) but declare no picture of it: "
            f"Ruleset(map=MapSpec(...)), see docs/writing-a-ruleset.md, 'The map picture'")
