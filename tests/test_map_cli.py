"""The map on the command line: resolve draws it beside the report, a broken map stops the
turn before anything is written, and ``sheetmaster map`` draws it without resolving."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from sheetmaster.cli import main

TEMPLATES = Path(__file__).parent.parent / "templates"


@pytest.fixture
def claims(tmp_path: Path) -> Path:
    game = tmp_path / "avalon.xlsx"
    shutil.copy(TEMPLATES / "claims-example.xlsx", game)
    shutil.copy(TEMPLATES / "claims-example.xlsx.dice-secret",
                tmp_path / "avalon.xlsx.dice-secret")
    shutil.copy(TEMPLATES / "claims-example-map.png", tmp_path / "key.png")
    return game


def test_resolve_writes_the_map_beside_the_report(claims: Path, capsys):
    assert main(["resolve", str(claims), "-q", "--map-image", str(claims.parent / "key.png")]) \
        == 0
    picture = claims.parent / "avalon-turn-2-map.png"
    assert (claims.parent / "avalon-turn-2-report.md").exists()
    with Image.open(picture) as image:
        assert image.format == "PNG" and image.width == Image.open(
            claims.parent / "key.png").width
    assert f"the map after the turn: {picture}" in capsys.readouterr().out


def test_without_an_image_the_map_is_drawn_from_the_borders(claims: Path):
    assert main(["resolve", str(claims), "-q"]) == 0
    with Image.open(claims.parent / "avalon-turn-2-map.png") as image:
        assert image.width > 300


def test_no_map_draws_none(claims: Path):
    assert main(["resolve", str(claims), "-q", "--no-map"]) == 0
    assert not (claims.parent / "avalon-turn-2-map.png").exists()


def test_a_province_missing_from_the_image_stops_the_turn_before_anything_is_written(
        claims: Path, capsys):
    key = claims.parent / "key.png"
    pixels = np.asarray(Image.open(key).convert("RGB")).copy()
    ys = (pixels == (0xbc, 0xad, 0xc3)).all(axis=-1)  # Ys's key colour, painted over
    assert ys.any()
    pixels[ys] = (158, 196, 222)
    Image.fromarray(pixels).save(key)
    before = claims.read_bytes()
    assert main(["resolve", str(claims), "--map-image", str(key)]) == 3
    err = capsys.readouterr().err
    assert "tab 'Territories', row 8, column 'map colour': #bcadc3 is nowhere in the map " \
           "image key.png: paint 'Ys' in it, or correct its colour" in err
    assert claims.read_bytes() == before
    assert not list(claims.parent.glob("avalon-turn-2-*"))


def test_a_missing_map_image_is_a_usage_error(claims: Path, capsys):
    assert main(["resolve", str(claims), "--map-image", "nowhere.png"]) == 2
    assert "the map image nowhere.png does not exist" in capsys.readouterr().err


def test_map_draws_the_latest_turn_without_resolving(claims: Path, capsys):
    before = claims.read_bytes()
    assert main(["map", str(claims), "--map-image", str(claims.parent / "key.png")]) == 0
    assert (claims.parent / "avalon-turn-1-map.png").exists()
    assert claims.read_bytes() == before
    assert "the map after turn 1, recoloured from" in capsys.readouterr().out


def test_map_of_an_older_turn_comes_from_the_backup(claims: Path, tmp_path: Path):
    assert main(["resolve", str(claims), "-q", "--no-map"]) == 0
    assert main(["map", str(claims), "--turn", "1", "--out", str(tmp_path / "one.png")]) == 0
    assert main(["map", str(claims), "--out", str(tmp_path / "two.png")]) == 0
    one, two = (np.asarray(Image.open(tmp_path / n)) for n in ("one.png", "two.png"))
    assert one.shape == two.shape and (one != two).any()  # same layout, new owners
    assert main(["map", str(claims), "--turn", "3"]) == 2


def test_map_of_a_game_whose_rules_have_no_map_rows(tmp_path: Path, capsys):
    game = tmp_path / "blank.xlsx"
    assert main(["new", "claims", str(game)]) == 0
    assert main(["map", str(game)]) == 2
    assert "no map to draw: the Territories tab has no rows yet" in capsys.readouterr().err


def test_the_map_of_a_google_sheet_game(tmp_path: Path, monkeypatch, capsys):
    from sheetmaster.stores.gsheets_client import ENDPOINT_ENV
    from sheetmaster.testing.fakesheets import FakeSheetsServer
    from sheetmaster.testing.fakesheets.upload import upload_state
    from tests.test_many_games import example_state

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SHEETMASTER_DICE_SECRET", "a test game's dice secret")
    with FakeSheetsServer() as server:
        monkeypatch.setenv(ENDPOINT_ENV, server.url)
        sid = upload_state(server, example_state("clans", -1),
                           env_secret="a test game's dice secret")
        assert main(["map", "--sheet", sid]) == 0
        assert (tmp_path / "turn-4-map.png").exists()
        assert main(["map", "--sheet", sid, "--turn", "2"]) == 2
        assert "a Google Sheet keeps only its latest turn" in capsys.readouterr().err
        assert main(["nightly", "--sheet", sid, "-q",
                     "--map-image", str(TEMPLATES / "clans-example-map.png")]) == 0
        with Image.open(tmp_path / "turn-5-map.png") as picture:
            assert picture.width == Image.open(TEMPLATES / "clans-example-map.png").width
