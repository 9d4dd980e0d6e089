"""How long the map picture takes: recolouring a GM's 4000 x 2000 key image of 3,000
provinces (target: under 1 s), and the whole picture of a claims game of that size.

Usage::

    python benchmarks/map_recolour.py                  # 4000 x 2000, 3000 provinces
    python benchmarks/map_recolour.py --quick          # 800 x 400, 300 provinces (test suite)
    python benchmarks/map_recolour.py --width 8000 --height 4000 --provinces 12000
    python benchmarks/map_recolour.py --out results.json

The key image is made, not painted (sheetmaster.testing.mapimages.grid_key_image): Voronoi
provinces on a jittered grid, sea around an oval continent, 1-pixel borders; it is made once
and not timed. Measured, the median of --repeat runs:

- ``recolour``: province_index + paint: every pixel to its province through the 2^24 lookup
  table, each province filled with its owner's colour, 5% of them hatched as occupied, pixel
  counts and a point inside each province for its marks. This is the figure the target is
  about;
- ``picture``: ``map_picture`` of a claims game with those 3,000 territories and 40 nations
  (reading the tabs, loading the PNG from disk, recolouring, stars on capitals, the legend),
  then ``png``: encoding it.

Baselines, each measured on a part and scaled to the whole image (they would take minutes):

- ``per-pixel Python``: a loop over a 400 x 200 crop of the middle (land) looking each
  pixel up in a dict;
- ``mask per province``: numpy, but one full-image comparison per province (10 provinces).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sheetmaster.app.maps.colours import hex_colour  # noqa: E402
from sheetmaster.app.maps.recolour import key_code, paint, province_index  # noqa: E402
from sheetmaster.testing.mapimages import grid_key_image  # noqa: E402

FULL = (4000, 2000, 3000)
QUICK = (800, 400, 300)
TARGET_SECONDS = 1.0
NATIONS = 40


def median(run, repeat: int) -> float:
    """The median of ``repeat`` timed runs (one slow or lucky run does not move it)."""
    return timed(run, repeat)[0]


def timed(run, repeat: int) -> tuple[float, float]:
    """The medians of ``repeat`` runs: wall-clock seconds, and CPU seconds of this process
    (on a machine other jobs keep busy, the CPU time is what the work itself costs)."""
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return float(np.median(walls)), float(np.median(cpus))


def fills_for(count: int, rng: np.random.Generator) -> tuple[list, list]:
    palette = [tuple(int(c) for c in rng.integers(0, 256, 3)) for _ in range(NATIONS)]
    fills = [palette[i] for i in rng.integers(0, NATIONS, count)]
    hatches = [palette[i] if rng.random() < 0.05 else None
               for i in rng.integers(0, NATIONS, count)]
    return fills, hatches


def per_pixel_python(pixels: np.ndarray, keys: list[int], fills: list) -> float:
    """Seconds per pixel of a plain Python loop (a dict lookup per pixel), on land."""
    top, left = pixels.shape[0] // 2 - 100, pixels.shape[1] // 2 - 200
    crop = pixels[top:top + 200, left:left + 400, :3].tolist()
    lookup = {((k & 255), (k >> 8) & 255, k >> 16): fills[i] for i, k in enumerate(keys)}
    start = time.perf_counter()
    for row in crop:
        for x, pixel in enumerate(row):
            found = lookup.get(tuple(pixel))
            if found is not None:
                row[x] = found
    return (time.perf_counter() - start) / (200 * 400)


def mask_per_province(pixels: np.ndarray, keys: list[int], fills: list) -> float:
    """Seconds per province of one numpy comparison of the whole image per province."""
    out = pixels.copy()
    sample = min(10, len(keys))
    start = time.perf_counter()
    for i in range(sample):
        k = keys[i]
        mask = np.all(pixels[..., :3] == (k & 255, (k >> 8) & 255, k >> 16), axis=-1)
        out[mask, :3] = fills[i]
    return (time.perf_counter() - start) / sample


def claims_game(keys: list[tuple[int, int, int]], rng: np.random.Generator):
    from sheetmaster import rules
    from sheetmaster.engine.builder import build_state

    ruleset = rules.get("claims")
    nations = [f"Nation {i:02d}" for i in range(NATIONS)]
    owners = rng.integers(-8, NATIONS, len(keys))
    territories = [{"territory": f"T{i:05d}", "owner": nations[o] if o >= 0 else "",
                    "map colour": hex_colour(key)} for i, (key, o) in enumerate(zip(keys,
                                                                                    owners))]
    for i, nation in enumerate(nations):
        territories[i * (len(keys) // NATIONS)]["capital of"] = nation
        territories[i * (len(keys) // NATIONS)]["owner"] = nation
    players = [{"player": n, "gold": 5, "armies": 1} for n in nations]
    return ruleset, build_state(ruleset, {"Territories": territories, "Players": players},
                                turn=3, settings={"game": "benchmark"})


def run(width: int, height: int, provinces: int, repeat: int) -> dict[str, Any]:
    from sheetmaster.app.maps.render import map_picture, png_bytes
    from sheetmaster.engine.turn import prepare

    rng = np.random.default_rng(13)
    start = time.perf_counter()
    pixels, keys = grid_key_image(width, height, provinces)
    made = time.perf_counter() - start
    codes = [key_code(k) for k in keys]
    fills, hatches = fills_for(provinces, rng)
    recolour, recolour_cpu = timed(
        lambda: paint(pixels, province_index(pixels, codes), fills, hatches), repeat)
    per_pixel = per_pixel_python(pixels, codes, fills) * width * height
    per_mask = mask_per_province(pixels, codes, fills) * provinces
    ruleset, raw = claims_game(keys, rng)
    state = prepare(ruleset, raw).state
    with tempfile.TemporaryDirectory() as folder:
        image = Path(folder) / "key.png"
        Image.fromarray(pixels, "RGBA").convert("RGB").save(image, compress_level=1)
        pictures: list = []
        picture = median(lambda: pictures.append(
            map_picture(ruleset, state, image=image, title="benchmark")), repeat)
        png = median(lambda: png_bytes(pictures[-1]), max(1, repeat // 2))
        size = len(png_bytes(pictures[-1]))
    return {"width": width, "height": height, "provinces": provinces, "image_s": made,
            "recolour_s": recolour, "recolour_cpu_s": recolour_cpu, "picture_s": picture,
            "png_s": png, "png_bytes": size,
            "per_pixel_python_s": per_pixel, "mask_per_province_s": per_mask,
            "target_s": TARGET_SECONDS, "pass": recolour < TARGET_SECONDS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="800 x 400, 300 provinces")
    parser.add_argument("--width", type=int)
    parser.add_argument("--height", type=int)
    parser.add_argument("--provinces", type=int)
    parser.add_argument("--repeat", type=int, default=5, help="runs of each (the median is "
                                                                 "reported)")
    parser.add_argument("--out", help="also write the results as JSON")
    args = parser.parse_args(argv)
    width, height, provinces = QUICK if args.quick else FULL
    width, height = args.width or width, args.height or height
    provinces = args.provinces or provinces
    result = run(width, height, provinces, 2 if args.quick else args.repeat)
    r = result
    print(f"key image {r['width']} x {r['height']}, {r['provinces']} provinces "
          f"(made in {r['image_s']:.2f} s, not timed)")
    print(f"{'step':<42}{'seconds':>10}{'x recolour':>12}")
    rows = [("recolour (index + paint + marks' points)", r["recolour_s"]),
            ("whole picture (claims game, from disk)", r["picture_s"]),
            ("PNG encoding", r["png_s"]),
            ("baseline: per-pixel Python (scaled)", r["per_pixel_python_s"]),
            ("baseline: mask per province (scaled)", r["mask_per_province_s"])]
    for name, seconds in rows:
        print(f"{name:<42}{seconds:>10.3f}{seconds / r['recolour_s']:>11.1f}x")
    verdict = "PASS" if r["pass"] else "FAIL"
    print(f"recolour target: under {TARGET_SECONDS:.0f} s -> {r['recolour_s']:.3f} s "
          f"({r['recolour_s'] / TARGET_SECONDS:.2f} of it): {verdict}; CPU time "
          f"{r['recolour_cpu_s']:.3f} s ({r['recolour_cpu_s'] / TARGET_SECONDS:.2f} of it)")
    print(f"PNG: {r['png_bytes'] / 1e6:.1f} MB")
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
