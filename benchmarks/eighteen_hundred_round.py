"""How one turns stage of 1800 grows with the game: a map of N provinces with about 30
nations a 2,000 provinces, every nation taking its turn, resolved in a fresh process.

Usage::

    python benchmarks/eighteen_hundred_round.py                  # 2,000 and 20,000 provinces
    python benchmarks/eighteen_hundred_round.py --sizes 2e3,2e4,2e5 --runs 3 --out 1800.json
    python benchmarks/eighteen_hundred_round.py --profile 20000  # cProfile of one resolve

The game is deterministic (a seeded :class:`random.Random`): a grid of provinces, a tenth of
them cities; each nation holds a standard start of its own (two cities with a factory and a
pop each, four countrysides with a pop each, side by side), the rest of the map is empty (F5).
The example's card catalogue, with every deck card's copies multiplied so that each round
deals a draft row of one card a nation (a copy of the example's trade routes for every four
nations). The setup turn and round 1's draft (three picks a nation) are resolved by the engine
as the game's generation; the benchmark times the turns stage that follows, where every nation
collects, places its tokens, activates its two start policies (a Market built, a prosperity),
and moves a pop.

The issue's bound (issue 26.1): a game ten times larger costs at most 12 times the time.
"""

from __future__ import annotations

import cProfile
import math
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import scaling  # noqa: E402
from sheetmaster.rules.eighteen_hundred import example  # noqa: E402
from sheetmaster.rules.eighteen_hundred.example.cards import CATALOGUE  # noqa: E402
from sheetmaster.rules.eighteen_hundred.example.map import ROUTES, STARTS  # noqa: E402

SEED = 1800
#: the benchmark games' dice secret (kept outside the sheet, as a real game's is).
DICE_SECRET = "benchmark dice secret"
SIZES = [2_000, 20_000]
#: the most nations 1800 allows ("the game is for 2 to 8 players")
NATIONS = 8
PICKS = 3


def _grid(provinces: int) -> list[list[int]]:
    width = max(4, int(provinces ** 0.5 * 1.25))
    near: list[list[int]] = [[] for _ in range(provinces)]
    for i in range(provinces):
        for j in (i + 1, i + width):
            if j < provinces and (j == i + width or j % width):
                near[i].append(j)
                near[j].append(i)
    return near


def _realms(rng: random.Random, near: list[list[int]], nations: list[str],
            share: int) -> dict[str, list[int]]:
    """Each nation's provinces, grown side by side from a free one in turn until each holds
    ``share`` (or has no free neighbour left)."""
    owner: list[str] = [""] * len(near)
    realms: dict[str, list[int]] = {}
    for nation, first in zip(nations, rng.sample(range(len(near)), len(nations))):
        owner[first] = nation
        realms[nation] = [first]
    frontier = {nation: [realm[0]] for nation, realm in realms.items()}
    for _ in range(share - 1):
        for nation in nations:
            while frontier[nation]:
                free = [n for n in near[frontier[nation][0]] if not owner[n]]
                if free:
                    owner[free[0]] = nation
                    realms[nation].append(free[0])
                    frontier[nation].append(free[0])
                    break
                frontier[nation].pop(0)
    return realms


def _routes(nations: list[str]) -> list[dict[str, Any]]:
    powers = list(STARTS)
    rows = []
    for group in range(math.ceil(len(nations) / 4)):
        mine = nations[group * 4:group * 4 + 4]
        swap = dict(zip(powers, mine))
        for route in ROUTES:
            holders = [swap[h] for h in route["holders"].split(", ") if h in swap]
            rows.append({**route, "route": f"{route['route']} {group:03d}",
                         "holders": ", ".join(holders)})
    return rows


def before_setup(provinces: int, seed: int) -> tuple[dict[str, list[dict]], dict[str, Any]]:
    """The game as the GM lays it out, before the setup turn."""
    rng = random.Random(f"{seed}:{provinces}")
    near = _grid(provinces)
    names = [f"P{i:06d}" for i in range(provinces)]
    count = NATIONS
    nations = [f"Nation {n}" for n in range(count)]
    realms = _realms(rng, near, nations, max(6, provinces // (2 * count)))
    kind = ["city" if rng.random() < 0.1 else "countryside" for _ in range(provinces)]
    improvements: dict[int, str] = {}
    pops = []
    for nation, realm in realms.items():
        for n, p in enumerate(realm):
            if n < 6:
                kind[p] = "city" if n < 2 else "countryside"
            if kind[p] == "city" and (n < 2 or n % 5 == 0):
                improvements[p] = "Factory"
            pops.append({"province": names[p], "nation": nation, "pops": 1})
    province_rows = [{"province": names[i], "type": kind[i],
                      "adjacent": ", ".join(names[n] for n in near[i]),
                      "improvements": improvements.get(i, "")} for i in range(provinces)]
    nation_rows = [{"nation": n, "player": f"player {i}", "seat": i + 1,
                    "dealer": "yes" if i == 0 else "", "prosperity": 0}
                   for i, n in enumerate(nations)]
    tables = {"Nations": nation_rows, "Provinces": province_rows,
              "Improvements": example.IMPROVEMENT_TYPES, "Pops": pops,
              "Cards": CATALOGUE, "Trade routes": _routes(nations)}
    return tables, {"game": "benchmark", "turn": 0}


def _after(result: Any) -> tuple[dict[str, list[dict]], dict[str, Any]]:
    """The tables and Game tab settings a resolve leaves, as a next turn reads them."""
    from sheetmaster.kit import values
    from sheetmaster.kit.tabs import GAME_TAB, ORDERS_TAB

    tables = {tab: [{k: v for k, v in record.items() if not values.is_blank(v)}
                    for record in df.to_dict("records")]
              for tab, df in result.after.tables.items() if tab not in (GAME_TAB, ORDERS_TAB)}
    game = result.after.tables[GAME_TAB]
    settings = {k: v for k, v in zip(game["setting"], game["value"]) if not values.is_blank(v)}
    return tables, settings


def _draft(tables: dict[str, list[dict]]) -> list[dict[str, Any]]:
    face_up = [r["card"] for r in tables["Rows"] if r.get("row") == "draft"
               and not r.get("status")]
    nations = [r["nation"] for r in tables["Nations"]]
    return [{"player": n, "order": "pick", "card": face_up[(i + k) % len(face_up)]}
            for i, n in enumerate(nations) for k in range(PICKS)]


def _turns(tables: dict[str, list[dict]]) -> list[dict[str, Any]]:
    """Every nation's turn: tokens placed on its start policies, both activated (a Market in
    its first city, a prosperity), a pop moved to a province next to it."""
    homes: dict[str, list[str]] = {}
    for row in tables["Pops"]:
        if row.get("pops"):
            homes.setdefault(row["nation"], []).append(row["province"])
    adjacent = {p["province"]: p.get("adjacent", "").split(", ") for p in tables["Provinces"]}
    orders = []
    for row in tables["Nations"]:
        n, home = row["nation"], homes[row["nation"]]
        mine = set(home)
        way = next((p, q) for p in reversed(home) for q in adjacent[p] if q in mine)
        orders += [
            {"player": n, "order": "deficit", "how": "tokens"},
            {"player": n, "order": "place", "card": "Early Industrialization",
             "resource": "production", "amount": 2},
            {"player": n, "order": "place", "card": "Landed Gentry", "resource": "food",
             "amount": 2},
            {"player": n, "order": "activate", "card": "Early Industrialization",
             "province": home[0], "improvement": "Market"},
            {"player": n, "order": "activate", "card": "Landed Gentry"},
            {"player": n, "order": "move pops", "province": way[0], "to": way[1]}]
    return orders


def generate_game(provinces: int, seed: int = SEED) -> dict[str, Any]:
    """(tables, orders, settings) of the turns stage of round 1, the setup turn and the
    draft resolved by the engine."""
    from sheetmaster.engine.builder import build_state
    from sheetmaster.engine.turn import resolve
    from sheetmaster.rules.eighteen_hundred import RULESET

    tables, settings = before_setup(provinces, seed)
    secret = f"{DICE_SECRET} {seed}"
    setup = resolve(RULESET, build_state(RULESET, tables, [], turn=0, settings=settings),
                    secret=secret)
    tables, settings = _after(setup)
    draft = resolve(RULESET, build_state(RULESET, tables, _draft(tables), settings=settings),
                    secret=secret)
    tables, settings = _after(draft)
    return {"tables": tables, "orders": _turns(tables), "settings": settings, "secret": secret}


def _state_of(game: dict[str, Any]):
    from sheetmaster.engine.builder import build_state
    from sheetmaster.rules.eighteen_hundred import RULESET

    return build_state(RULESET, game["tables"], game["orders"], settings=game["settings"])


def worker(size: int, seed: int) -> dict[str, Any]:
    from sheetmaster.engine.turn import resolve
    from sheetmaster.rules.eighteen_hundred import RULESET

    start = time.perf_counter()
    game = generate_game(size, seed)
    state = _state_of(game)
    generated = time.perf_counter() - start
    start = time.perf_counter()
    result = resolve(RULESET, state, secret=game["secret"])
    seconds = time.perf_counter() - start
    return {"provinces": len(game["tables"]["Provinces"]),
            "nations": len(game["tables"]["Nations"]), "orders": len(game["orders"]),
            **scaling.statuses(result), "events": len(result.events), "generate_s": generated,
            "resolve_s": seconds, "peak_mib": scaling.peak_mib()}


def profile(size: int, seed: int, top: int) -> None:
    from sheetmaster.engine.turn import resolve
    from sheetmaster.rules.eighteen_hundred import RULESET

    game = generate_game(size, seed)
    state = _state_of(game)
    profiler = cProfile.Profile()
    profiler.enable()
    resolve(RULESET, state, secret=game["secret"])
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    return scaling.main(argv, script=__file__, description=__doc__.split("\n\n")[0],
                       sizes=SIZES, seed=SEED, worker=worker, profile=profile)


if __name__ == "__main__":
    sys.exit(main())
