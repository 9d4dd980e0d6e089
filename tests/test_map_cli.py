"""The map on the command line: resolve draws it beside the report, a broken map stops the
turn before anything is written, and ``sheetmaster map`` draws it without resolving."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from sheetmaster.app.cli import main

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


def png_file(path: Path, width: int, height: int, data: bytes = b"") -> Path:
    """A PNG whose header says ``width`` x ``height`` RGB pixels, with ``data`` as its one
    IDAT chunk (its checksums all right, whatever the data): a decompression bomb's header
    costs a few bytes, and its pixels are never there."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + \
            struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data)
                     + chunk(b"IEND", b""))
    return path


def nothing_written(game: Path, before: bytes) -> bool:
    return game.read_bytes() == before and not list(game.parent.glob("avalon-turn-2-*"))


@pytest.mark.parametrize("pixels", [196_000_000, 100_000_000, 60_000_000])
def test_a_map_image_over_the_pixel_budget_is_refused_before_it_is_decoded(
        claims: Path, capsys, pixels: int):
    """196 megapixels trips Pillow's own decompression-bomb error, 100 its warning, 60 only
    sheetmaster's budget of 50: each is the same usage error, never a traceback."""
    huge = png_file(claims.parent / "huge.png", 10_000, pixels // 10_000)
    before = claims.read_bytes()
    assert main(["resolve", str(claims), "--map-image", str(huge)]) == 2
    err = capsys.readouterr().err
    assert "the map image" in err and "is too large" in err
    assert "a map image may have at most 50 megapixels" in err
    assert "Traceback" not in err and "DecompressionBomb" not in err
    assert nothing_written(claims, before)
    assert main(["map", str(claims), "--map-image", str(huge)]) == 2


def test_the_pixel_budget_counts_pixels_not_bytes(claims: Path, capsys, monkeypatch):
    from sheetmaster.app.maps import key_image

    key = claims.parent / "key.png"
    with Image.open(key) as image:
        width, height = image.size
    monkeypatch.setattr(key_image, "PIXEL_BUDGET", width * height - 1)
    before = claims.read_bytes()
    assert main(["resolve", str(claims), "--map-image", str(key)]) == 2
    assert (f"the map image {key} is too large ({width} x {height}, "
            f"{width * height / 1e6:.1f} megapixels): a map image may have at most "
            f"{(width * height - 1) / 1e6:g} megapixels") in capsys.readouterr().err
    assert nothing_written(claims, before)
    monkeypatch.setattr(key_image, "PIXEL_BUDGET", width * height)
    assert main(["resolve", str(claims), "-q", "--map-image", str(key)]) == 0


@pytest.mark.parametrize("damage", ["truncated", "not an image", "bad pixel data"])
def test_a_damaged_map_image_is_a_usage_error_and_nothing_is_written(
        claims: Path, capsys, damage: str):
    key = claims.parent / "key.png"
    if damage == "truncated":
        whole = key.read_bytes()
        key.write_bytes(whole[:len(whole) // 2])
    elif damage == "not an image":
        key.write_text("a map, I promise", encoding="utf-8")
    else:  # its structure is sound, its pixels fail to decode: found only while drawing
        png_file(key, 40, 30, b"not zlib data at all")
    before = claims.read_bytes()
    assert main(["resolve", str(claims), "--map-image", str(key)]) == 2
    err = capsys.readouterr().err
    assert f"the map image {key} cannot be read as an image" in err
    assert "Traceback" not in err
    assert nothing_written(claims, before)
    assert main(["map", str(claims), "--map-image", str(key)]) == 2
    # the turn is not lost: once the image is put right, the same turn resolves
    shutil.copy(TEMPLATES / "claims-example-map.png", key)
    assert main(["resolve", str(claims), "-q", "--map-image", str(key)]) == 0
    assert (claims.parent / "avalon-turn-2-map.png").exists()


def test_a_games_toml_map_image_over_the_budget_fails_that_game_as_a_usage_error(
        claims: Path, capsys, monkeypatch):
    monkeypatch.chdir(claims.parent)
    png_file(claims.parent / "huge.png", 20_000, 10_000)
    toml = claims.parent / "games.toml"
    toml.write_text('[[game]]\nname = "avalon"\nfile = "avalon.xlsx"\nruleset = "claims"\n'
                    'map_image = "huge.png"\n', encoding="utf-8")
    before = claims.read_bytes()
    assert main(["nightly", "--all", str(toml)]) == 2
    captured = capsys.readouterr()
    assert "failed" in captured.out and "is too large" in captured.err
    assert "Traceback" not in captured.err
    assert claims.read_bytes() == before


def test_map_full_size_draws_a_large_game_as_wide_as_its_whole_names_need(tmp_path: Path):
    game = tmp_path / "golden.xlsx"
    shutil.copy(TEMPLATES / "goldenage-example.xlsx", game)
    assert main(["map", str(game), "--out", str(tmp_path / "post.png")]) == 0
    assert main(["map", str(game), "--full-size", "--out", str(tmp_path / "gm.png")]) == 0
    with Image.open(tmp_path / "post.png") as post, Image.open(tmp_path / "gm.png") as gm:
        assert post.width <= 800 < gm.width
