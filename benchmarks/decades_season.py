"""How one decade of the decades ruleset grows with the game: the example game tiled to N
provinces, resolved in a fresh process.

Usage::

    python benchmarks/decades_season.py                         # 2,000 and 20,000 provinces
    python benchmarks/decades_season.py --sizes 2e3,2e4,2e5 --runs 3 --out decades.json
    python benchmarks/decades_season.py --profile 20000         # cProfile of one resolve

The game is the shipped example (twelve states on two continents, 60 provinces) with each
province split into a 3 x 3 block of provinces of the same owner, value, religion and culture
(540 provinces a tile: about 44 states, 22 of them players', a 2,000 provinces), tiled as
often as the size asks; a sea link joins each tile to the next. Each tile keeps the example's
alliances, personal union, satellite and running colonization, and posts the example's
orders scaled to the larger states: military and subsidies nine times the example's amount,
conversions and the cession of every province of the block, the wars, the reform, the GM's
hits. Deterministic: nothing in it is random (the turn's dice come from the dice secret).

The issue's bound (issue 26.1): a game ten times larger costs at most 12 times the time.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import scaling  # noqa: E402
from sheetmaster.rules.decades import example  # noqa: E402

SEED = 1610
#: the benchmark games' dice secret (kept outside the sheet, as a real game's is).
DICE_SECRET = "benchmark dice secret"
SIZES = [2_000, 20_000]
#: each example province becomes a SPLIT x SPLIT block
SPLIT = 3
TILE = (len(example._OCCIDENS) + len(example._NOVATERRA)) * SPLIT * SPLIT
#: the example's orders whose amount scales with the larger states' income
SCALED = (example.OCCIDENS, "invest military", "subsidy")


def tiles_for(provinces: int) -> int:
    return max(1, round(provinces / TILE))


def _sub(name: str, tile: int, j: int = 0) -> str:
    return f"{name} {tile:03d}.{j}"


def _state(name: str, tile: int) -> str:
    return f"{name} {tile:03d}" if name else ""


def _borders(tile: int) -> dict[str, list[str]]:
    """Each continent's grid, every province split into a block: a fine grid's land borders."""
    out: dict[str, list[str]] = {}
    for land, width in ((example._OCCIDENS, 8), (example._NOVATERRA, 5)):
        wide, tall = width * SPLIT, len(land) // width * SPLIT

        def name(r: int, c: int, land: list[tuple] = land, width: int = width) -> str:
            return _sub(land[(r // SPLIT) * width + c // SPLIT][0], tile,
                        (r % SPLIT) * SPLIT + c % SPLIT)

        for r in range(tall):
            for c in range(wide):
                here = out.setdefault(name(r, c), [])
                for rr, cc in ((r, c + 1), (r + 1, c)):
                    if rr < tall and cc < wide:
                        here.append(name(rr, cc))
                        out.setdefault(name(rr, cc), []).append(name(r, c))
    return out


def _tile(tile: int, template: dict[str, list[dict[str, Any]]],
          links: dict[str, list[str]]) -> dict[str, list[dict[str, Any]]]:
    borders = _borders(tile)
    provinces = []
    for row in template["Provinces"]:
        for j in range(SPLIT * SPLIT):
            name = _sub(row["province"], tile, j)
            sea = [_sub(other, tile) for other in links.get(row["province"], ())] if not j else []
            provinces.append({**row, "province": name, "owner": _state(row["owner"], tile),
                              "borders": ", ".join(borders[name]), "sea links": sea})
    states = [{**row, "state": _state(row["state"], tile),
               "capital": _sub(row["capital"], tile),
               **{key: _state(row[key], tile) for key in ("overlord", "union with")
                  if key in row}}
              for row in template["States"]]
    alliances = [{**row, "alliance": f"{row['alliance']} {tile:03d}",
                  "members": ", ".join(_state(m, tile) for m in row["members"].split(", "))}
                 for row in template["Alliances"]]
    timers = [{**row, "timer": f"T{tile + 1}", "owner": _state(row["owner"], tile),
               "subject": _sub(row["subject"], tile)} for row in template["Timers"]]
    return {"Provinces": provinces, "States": states, "Alliances": alliances, "Timers": timers}


def _join_tiles(provinces: list[dict[str, Any]], tiles: int) -> None:
    """A sea link from each tile's Anatolia to the next tile's Galicia."""
    by_name = {p["province"]: p for p in provinces}
    for tile in range(tiles - 1):
        a, b = _sub("Anatolia", tile), _sub("Galicia", tile + 1)
        by_name[a]["sea links"].append(b)
        by_name[b]["sea links"].append(a)
    for p in provinces:
        p["sea links"] = ", ".join(p["sea links"])


def _orders(orders: list[dict[str, Any]], tile: int) -> list[dict[str, Any]]:
    """The example's orders for one tile: amounts scaled, a province's order given for every
    province of its block (the colonization, one a continent a turn, for the first)."""
    out = []
    for order in orders:
        row = {**order, "player": _state(order["player"], tile)}
        if "state" in row:
            row["state"] = _state(row["state"], tile)
        if row["order"] in SCALED:
            row["amount"] = row["amount"] * SPLIT * SPLIT
        if "province" not in row:
            out.append(row)
            continue
        block = 1 if row["order"] == "colonize" else SPLIT * SPLIT
        out += [{**row, "province": _sub(order["province"], tile, j)} for j in range(block)]
    return out


def generate_game(provinces: int) -> dict[str, Any]:
    """(tables, orders, settings) of the example tiled to about ``provinces`` provinces."""
    template, orders, settings = example.example_game()
    links: dict[str, list[str]] = {}
    for a, b in example._SEA_LINKS:
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    tiles = tiles_for(provinces)
    tables: dict[str, list[dict[str, Any]]] = {
        "Provinces": [], "States": [], "Alliances": [], "Timers": [], "GM orders": [],
        "Governments": template["Governments"], "Technologies": template["Technologies"]}
    posted = []
    for tile in range(tiles):
        rows = _tile(tile, template, links)
        for row in rows["States"]:
            for key in ("income", "spendable", "income note"):
                row.pop(key, None)
        example._incomes(rows["States"], rows["Provinces"])
        for tab, tab_rows in rows.items():
            tables[tab] += tab_rows
        tables["GM orders"] += _orders(template["GM orders"], tile)
        posted += _orders(orders, tile)
    _join_tiles(tables["Provinces"], tiles)
    return {"tables": tables, "orders": posted, "settings": settings}


def _state_of(game: dict[str, Any]):
    from sheetmaster.engine.builder import build_state
    from sheetmaster.rules.decades import RULESET

    return build_state(RULESET, game["tables"], game["orders"], settings=game["settings"])


def worker(size: int, seed: int) -> dict[str, Any]:
    from sheetmaster.engine.turn import resolve
    from sheetmaster.rules.decades import RULESET

    start = time.perf_counter()
    game = generate_game(size)
    state = _state_of(game)
    generated = time.perf_counter() - start
    start = time.perf_counter()
    result = resolve(RULESET, state, secret=f"{DICE_SECRET} {seed}")
    seconds = time.perf_counter() - start
    return {"provinces": len(game["tables"]["Provinces"]),
            "nations": len(game["tables"]["States"]),
            "orders": len(game["orders"]) + len(game["tables"]["GM orders"]),
            **scaling.statuses(result), "events": len(result.events), "generate_s": generated,
            "resolve_s": seconds, "peak_mib": scaling.peak_mib()}


def profile(size: int, seed: int, top: int) -> None:
    from sheetmaster.engine.turn import resolve
    from sheetmaster.rules.decades import RULESET

    state = _state_of(generate_game(size))
    profiler = cProfile.Profile()
    profiler.enable()
    resolve(RULESET, state, secret=f"{DICE_SECRET} {seed}")
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    return scaling.main(argv, script=__file__, description=__doc__.split("\n\n")[0],
                       sizes=SIZES, seed=SEED, worker=worker, profile=profile)


if __name__ == "__main__":
    sys.exit(main())
