"""How long one season of Isles of the Clans takes to resolve: 40 clans, 2000 provinces.

Usage::

    python benchmarks/clans_season.py                 # 40 clans, 2000 provinces
    python benchmarks/clans_season.py --quick         # 8 clans, 400 provinces (the test suite)
    python benchmarks/clans_season.py --clans 80 --provinces 4000 --out results.json
    python benchmarks/clans_season.py --profile       # cProfile of one resolve, top entries

The season is resolved in a fresh subprocess, so the peak RSS reported is its own. The
synthetic game is deterministic (a seeded :class:`random.Random`): a grid map of provinces of
every flavour with symmetric borders and six named Seas along the coasts; each clan grows a
realm of ~25 provinces from its capital (Palace and Castle), the rest are Independent with
one or two Spearmen and their own setup row; improvements, armies and advisors as a game a
few years in would have them; and about 15 orders a clan of every kind (raise, move and
attack, build, demolish, prospect, hire, research, capital, gifts, ninjas), ~3% malformed.

Target (from the issue): a season resolves in under 2 s.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sheetmaster.rules.clans import data  # noqa: E402

try:
    import resource
except ImportError:  # Windows: no peak memory figure
    resource = None  # type: ignore[assignment]

SEED = 2026
#: the benchmark games' dice secret (kept outside the sheet, as a real game's is).
DICE_SECRET = "benchmark dice secret"
DEFAULT = (40, 2000)
QUICK = (8, 400)
TARGET_SECONDS = 2.0
SEAS = ("Northern Sea", "Inland Sea", "Eastern Sea", "Southern Sea", "Western Sea",
        "Pearl Sea")
TYPES = (data.SPEARMEN, data.SPEARMEN, data.ARCHERS, data.CAVALRY)


def generate_game(clans: int, provinces: int, seed: int = SEED) -> dict[str, Any]:
    """(tables, orders, settings) of a clans game at turn 9, deterministically."""
    rng = random.Random(f"{seed}:{clans}:{provinces}")
    width = max(4, int(provinces ** 0.5 * 1.25))
    names = [f"P{i:05d}" for i in range(provinces)]
    neighbours: list[list[int]] = [[] for _ in names]
    for i in range(provinces):
        for j in (i + 1, i + width):
            if j < provinces and (j != i + 1 or j % width):
                neighbours[i].append(j)
                neighbours[j].append(i)
    flavours = [rng.choice(data.FLAVOURS) for _ in names]
    seas = [_seas(i, width, provinces, rng) for i in range(provinces)]
    owner = [""] * provinces
    clan_names = [f"Clan {c:03d}" for c in range(clans)]
    capitals = rng.sample(range(provinces), clans)
    realms: dict[str, list[int]] = {}
    for clan, start in zip(clan_names, capitals):
        owner[start] = clan
        realms[clan] = [start]
    share = provinces // (2 * clans)
    frontier = {clan: list(realm) for clan, realm in realms.items()}
    for _ in range(share):
        for clan in clan_names:
            grown = [n for p in frontier[clan] for n in neighbours[p] if not owner[n]]
            if grown:
                pick = rng.choice(grown)
                owner[pick] = clan
                realms[clan].append(pick)
                frontier[clan].append(pick)
    built = [_improvements(flavours[i], seas[i], rng) for i in range(provinces)]
    found = [rng.sample(data.MOUNTAIN_RESOURCES, rng.randint(0, 2))
             if flavours[i] == data.MOUNTAIN else [] for i in range(provinces)]
    for i in range(provinces):
        if found[i] and rng.random() < 0.5 and len(built[i]) < 4:
            built[i].append(f"Mine ({found[i][0]})")
    for realm in realms.values():
        if "Castle" not in built[realm[0]]:
            built[realm[0]] = ["Castle", *built[realm[0]][:3]]
    rows = [{"province": names[i], "flavour": flavours[i], "owner": owner[i],
             "borders": ", ".join(names[n] for n in neighbours[i]),
             "seas": ", ".join(seas[i]), "improvements": ", ".join(built[i]),
             "resources found": ", ".join(found[i]), "times prospected": len(found[i])}
            for i in range(provinces)]
    armies, count = [], Counter()
    for clan, realm in realms.items():
        for p in rng.sample(realm, min(len(realm), 3 + len(realm) // 4)):
            kind = rng.choice(TYPES)
            count[(clan, kind)] += 1
            armies.append({"army": f"{clan} {kind} {count[(clan, kind)]}", "clan": clan,
                           "type": kind, "province": names[p]})
    for i in range(provinces):
        if not owner[i]:
            for n in range(1, rng.choice((1, 1, 2)) + 1):
                armies.append({"army": f"{names[i]} Spearmen {n}", "clan": "",
                               "type": data.SPEARMEN, "province": names[i]})
    techs = list(data.TECHS)
    clan_rows, advisors = [], []
    for clan, realm in realms.items():
        known = [t for t in rng.sample(techs, rng.randint(0, 5)) if not data.TECHS[t].requires]
        open_ = [t for t in techs if t not in known and (not data.TECHS[t].requires or
                                                         data.TECHS[t].requires in known)]
        clan_rows.append({"clan": clan, "capital": names[realm[0]],
                          "religion": rng.choice(data.RELIGIONS),
                          "coins": rng.randint(2000, 20000), "techs": ", ".join(known),
                          "researching": rng.choice(open_), "research points":
                              rng.randint(0, 40), "extras": "2500 Coins, 2500 Coins",
                          "started on turn": 1})
        for skill in rng.sample(data.SKILLS, 3):
            advisors.append({"clan": clan, "skill": skill, "since turn": rng.randint(1, 8)})
    independents = [{"provinces": "all", "starting armies": 1, "raise chance %": 20,
                     "army limit": 2, "castle chance %": 5}]
    tables = {"Clans": clan_rows, "Provinces": rows, "Armies": armies, "Advisors": advisors,
              "Independents": independents}
    orders = _orders(rng, realms, names, neighbours, owner, flavours, armies, clan_rows)
    settings = {"game": "benchmark", "turn": 9}
    return {"tables": tables, "orders": orders, "settings": settings}


def _seas(i: int, width: int, provinces: int, rng: random.Random) -> list[str]:
    row, column = divmod(i, width)
    rows = (provinces + width - 1) // width
    edge = row in (0, rows - 1) or column in (0, width - 1)
    if not edge and rng.random() > 0.08:
        return []
    return [SEAS[(row * 3 // max(rows, 1)) * 2 + (column * 2 // width)]]


def _improvements(flavour: str, seas: list[str], rng: random.Random) -> list[str]:
    fits = [i.name for i in data.IMPROVEMENTS.values() if i.name not in (data.MINE,)
            and (not i.flavours or flavour in i.flavours) and (seas or not i.coastal)]
    return rng.sample(fits, rng.choice((0, 0, 1, 1, 2, 3)))


def _orders(rng: random.Random, realms: dict[str, list[int]], names: list[str],
            neighbours: list[list[int]], owner: list[str], flavours: list[str],
            armies: list[dict[str, Any]], clans: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_clan: dict[str, list[dict[str, Any]]] = {}
    index = {n: i for i, n in enumerate(names)}
    clan_names = list(realms)
    armies_of: dict[str, list[dict[str, Any]]] = {}
    for army in armies:
        armies_of.setdefault(army["clan"], []).append(army)
    for clan, realm in realms.items():
        mine: list[dict[str, Any]] = []
        post = mine.append
        post({"order": "raise army", "type": rng.choice(TYPES), "province": names[realm[0]]})
        for army in armies_of.get(clan, [])[:6]:
            options = neighbours[index[army["province"]]]
            post({"order": "move army", "army": army["army"],
                  "to": names[rng.choice(options)] if options else army["province"]})
        for p in rng.sample(realm, min(3, len(realm))):
            post({"order": "build improvement", "province": names[p],
                  "improvement": rng.choice(list(data.IMPROVEMENTS))})
        post({"order": "demolish improvement", "province": names[rng.choice(realm)],
              "improvement": rng.choice(list(data.IMPROVEMENTS))})
        mountains = [p for p in realm if flavours[p] == data.MOUNTAIN]
        if mountains:
            post({"order": "prospect", "province": names[rng.choice(mountains)]})
        post({"order": "hire advisor", "skill": rng.choice(data.SKILLS)})
        post({"order": "research", "tech": rng.choice(list(data.TECHS))})
        other = rng.choice([c for c in clan_names if c != clan])
        post({"order": "give coins", "clan": other, "amount": rng.randint(1, 20) * 100})
        if rng.random() < 0.1:
            post({"order": "move capital", "province": names[rng.choice(realm)]})
        ninja = rng.random()
        if ninja < 0.4:
            post({"order": "assassinate advisor", "clan": other,
                  "skill": rng.choice(data.SKILLS)})
        elif ninja < 0.7:
            target = realms[other][rng.randrange(len(realms[other]))]
            post({"order": "sabotage improvement", "province": names[target],
                  "improvement": rng.choice(list(data.IMPROVEMENTS))})
        else:
            post({"order": "incriminate", "clan": other, "blame": rng.choice(clan_names)})
        if rng.random() < 0.5:
            post(rng.choice([{"order": "raise army", "type": "Dragons", "province": "x"},
                             {"order": "give coins", "clan": other, "amount": "ten"},
                             {"order": "fly", "army": "nobody"}]))
        by_clan[clan] = [dict(o, player=clan) for o in mine]
    posted: list[dict[str, Any]] = []
    names = sorted(c for c, o in by_clan.items() if o)  # sorted once, not once an order
    heads = dict.fromkeys(names, 0)
    while names:
        clan = rng.choice(names)
        posted.append(by_clan[clan][heads[clan]])
        heads[clan] += 1
        if heads[clan] == len(by_clan[clan]):
            names.remove(clan)
    return posted


def peak_mib() -> float:
    """Peak resident set in MiB (KiB on Linux, bytes on macOS; 0 on Windows)."""
    if resource is None:
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def worker(clans: int, provinces: int, seed: int) -> dict[str, Any]:
    from sheetmaster.engine.builder import build_state
    from sheetmaster.engine.turn import resolve
    from sheetmaster.kit.model import Status
    from sheetmaster.rules.clans import RULESET

    start = time.perf_counter()
    game = generate_game(clans, provinces, seed)
    state = build_state(RULESET, game["tables"], game["orders"], settings=game["settings"])
    generated = time.perf_counter() - start
    start = time.perf_counter()
    result = resolve(RULESET, state, secret=DICE_SECRET)
    seconds = time.perf_counter() - start
    statuses = Counter(r.status for r in result.results)
    return {"clans": clans, "provinces": provinces, "armies": len(game["tables"]["Armies"]),
            "orders": len(game["orders"]), "applied": statuses[Status.APPLIED],
            "rejected": statuses[Status.REJECTED], "events": len(result.events),
            "dice": sum(e.kind == "die" for e in result.events), "generate_s": generated,
            "resolve_s": seconds, "peak_mib": peak_mib()}


def profile(clans: int, provinces: int, seed: int, top: int) -> None:
    from sheetmaster.engine.builder import build_state
    from sheetmaster.engine.turn import resolve
    from sheetmaster.rules.clans import RULESET

    game = generate_game(clans, provinces, seed)
    state = build_state(RULESET, game["tables"], game["orders"], settings=game["settings"])
    profiler = cProfile.Profile()
    profiler.enable()
    resolve(RULESET, state, secret=DICE_SECRET)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="8 clans, 400 provinces")
    parser.add_argument("--clans", type=int, default=None)
    parser.add_argument("--provinces", type=int, default=None)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=None, help="also write the result as JSON")
    parser.add_argument("--profile", action="store_true", help="cProfile one resolve")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    clans, provinces = QUICK if args.quick else DEFAULT
    clans, provinces = args.clans or clans, args.provinces or provinces
    if args.profile:
        profile(clans, provinces, args.seed, args.top)
        return 0
    if args.worker:
        print(json.dumps(worker(clans, provinces, args.seed)))
        return 0
    done = subprocess.run([sys.executable, __file__, "--worker", "--clans", str(clans),
                           "--provinces", str(provinces), "--seed", str(args.seed)],
                          capture_output=True, text=True, check=True)
    row = json.loads(done.stdout)
    row["verdict"] = "PASS" if row["resolve_s"] < TARGET_SECONDS else "FAIL"
    print(f"{'clans':>6} {'provinces':>9} {'armies':>7} {'orders':>7} {'applied':>8} "
          f"{'dice':>6} {'resolve s':>10} {'peak MiB':>9}  target < {TARGET_SECONDS:.0f} s")
    print(f"{row['clans']:>6} {row['provinces']:>9} {row['armies']:>7} {row['orders']:>7} "
          f"{row['applied']:>8} {row['dice']:>6} {row['resolve_s']:>10.2f} "
          f"{row['peak_mib']:>9.0f}  {row['verdict']}")
    if args.out:
        args.out.write_text(json.dumps(row, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
