"""How resolving a claims turn scales: 10^2 to 10^6 territories, plus workbook I/O.

Usage::

    python benchmarks/claims_scale.py                      # full run (several minutes)
    python benchmarks/claims_scale.py --quick              # sizes 100,1000, load size 1000
    python benchmarks/claims_scale.py --sizes 100,1000,10000 --load-size 10000 --out r.json
    python benchmarks/claims_scale.py --profile 100000       # cProfile one resolve
    python benchmarks/claims_scale.py --sizes 1e5,1e6 --load-size 0 --runs 5   # growth, medians

Every size runs in a fresh subprocess, so the peak RSS reported is that size's own. The
synthetic game is deterministic (seeded :class:`random.Random`): a grid-like map with
symmetric borders and waterways, ~70% of the land owned in contiguous realms grown from each
player's capital, ~15% resource territories, a handful of wars with last turn's results, and
about one order per territory covering every order kind, plus ~2% malformed rows.

Targets (from issue 15): 10x the size costs at most 11x the resolve time; 10^6 territories
resolve in under 10 s and under 2 GiB; the workbook loads at least 3x faster than
``pandas.read_excel(..., engine="openpyxl")``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import resource
except ImportError:  # Windows: no peak memory figure
    resource = None  # type: ignore[assignment]

DEFAULT_SIZES = (100, 1_000, 10_000, 100_000, 1_000_000)
DEFAULT_LOAD_SIZE = 100_000
QUICK_SIZES = (100, 1_000)
QUICK_LOAD_SIZE = 1_000
SEED = 2026
#: the benchmark games' dice secret (kept outside the sheet, as a real game's is).
DICE_SECRET = "benchmark dice secret"

#: 10x the territories may cost at most 11x the resolve time (1.1 x the size ratio).
SCALING_SLACK = 1.1
#: the largest game must resolve within these.
TARGET_SIZE = 1_000_000
TARGET_SECONDS = 10.0
TARGET_MIB = 2 * 1024
#: XlsxStore.load must be at least this many times faster than pandas + openpyxl.
TARGET_LOAD_SPEEDUP = 3.0
#: XlsxStore.save must be at least this many times faster than openpyxl's load + save.
TARGET_SAVE_SPEEDUP = 8.0
#: a load slower than this is timed once instead of best of two.
SLOW_LOAD_SECONDS = 60.0

RESOURCES = ("Gold", "Iron", "Coal", "Oil", "Rubber", "Uranium")
RESOURCE_WEIGHTS = (3, 2, 2, 2, 1, 1)

MALFORMED_SHARE = 0.02


# -- the synthetic game -------------------------------------------------------------------


@dataclass
class SyntheticGame:
    """Rows for :func:`sheetmaster.engine.builder.build_state`, and what was generated."""

    territories: int
    players: int
    tables: dict[str, list[dict[str, Any]]]
    orders: list[dict[str, Any]]
    settings: dict[str, Any]
    order_mix: Counter = field(default_factory=Counter)


def player_names(count: int) -> list[str]:
    width = len(str(count))
    return [f"Nation {i + 1:0{width}d}" for i in range(count)]


def generate_game(territories: int, seed: int = SEED, *, players: int | None = None,
                  orders: int | None = None) -> SyntheticGame:
    """A realistic, deterministic claims game at turn 2 with ~``territories`` orders.

    ``players`` (default ``max(2, territories // 100)``) and ``orders`` (about how many order
    rows; default ``territories``) override the usual proportions, e.g. for a game with more
    nations and orders per territory; the defaults give exactly the usual game.
    """
    n = territories
    if n < 4:
        raise ValueError("a game needs at least 4 territories")
    if players is not None and not 2 <= players <= n:
        raise ValueError("a game needs at least 2 players, and no more than territories")
    if orders is not None and orders < 1:
        raise ValueError("orders must be at least 1")
    rng = random.Random(f"sheetmaster-claims-scale:{n}:{seed}")
    names = [f"T{i + 1}" for i in range(n)]

    # Map: a grid, a few missing borders (mountains), some diagonals, waterways between ports.
    width = math.ceil(math.sqrt(n))
    borders: list[list[int]] = [[] for _ in range(n)]
    water: list[list[int]] = [[] for _ in range(n)]

    def link(adj: list[list[int]], a: int, b: int) -> None:
        adj[a].append(b)
        adj[b].append(a)

    for i in range(n):
        col = i % width
        if col + 1 < width and i + 1 < n and rng.random() > 0.08:
            link(borders, i, i + 1)
        if i + width < n and rng.random() > 0.08:
            link(borders, i, i + width)
        if col + 1 < width and i + width + 1 < n and rng.random() < 0.1:
            link(borders, i, i + width + 1)
    reach = 20 * width
    for _ in range(max(1, n * 3 // 200)):
        a = rng.randrange(n)
        b = rng.randrange(max(0, a - reach), min(n, a + reach))
        if b != a and b not in borders[a] and b not in water[a]:
            link(water, a, b)

    # Realms: every player starts from a capital and grows, until ~70% of the land is owned.
    n_players = max(2, n // 100) if players is None else players
    pnames = player_names(n_players)
    owner = [-1] * n
    capitals = rng.sample(range(n), n_players)
    vigour = [rng.uniform(0.4, 1.0) for _ in range(n_players)]
    frontier: list[list[int]] = []
    for p, t in enumerate(capitals):
        owner[t] = p
        frontier.append(borders[t] + water[t])
    owned, target = n_players, int(n * 0.7)
    active = list(range(n_players))
    while owned < target and active:
        k = rng.randrange(len(active))
        p = active[k]
        edge = frontier[p]
        if not edge:
            active[k] = active[-1]
            active.pop()
            continue
        if rng.random() > vigour[p]:
            continue
        j = rng.randrange(len(edge))
        t = edge[j]
        edge[j] = edge[-1]
        edge.pop()
        if owner[t] != -1:
            continue
        owner[t] = p
        owned += 1
        edge.extend(borders[t])
        edge.extend(water[t])
    del frontier

    resource_of: dict[int, str] = {}
    for t in rng.sample(range(n), n * 15 // 100):
        resource_of[t] = rng.choices(RESOURCES, RESOURCE_WEIGHTS)[0]
    capital_of = {t: p for p, t in enumerate(capitals)}
    owned_by: list[list[int]] = [[] for _ in range(n_players)]
    for t, p in enumerate(owner):
        if p >= 0:
            owned_by[p].append(t)

    territory_rows = [
        {"territory": names[i],
         "owner": pnames[owner[i]] if owner[i] >= 0 else "",
         "resource": resource_of.get(i, ""),
         "capital of": pnames[capital_of[i]] if i in capital_of else "",
         "borders": ", ".join([names[j] for j in borders[i]]),
         "waterways": ", ".join([names[j] for j in water[i]])}
        for i in range(n)
    ]
    gold = [len(owned_by[p]) * rng.randint(6, 12) + rng.randint(0, 20) for p in range(n_players)]
    armies = [rng.randint(1, 4 + len(owned_by[p]) // 15) for p in range(n_players)]
    player_rows = [
        {"player": pnames[p], "gold": gold[p], "iron": 0, "rubber": 0, "coal": 0, "oil": 0,
         "uranium": 0, "other resources": "", "armies": armies[p], "in exile": "",
         "territories": len(owned_by[p])}
        for p in range(n_players)
    ]

    # Wars: a handful, 2 or 3 sides of 1-3 nations; last turn's results let winners claim.
    n_wars = max(1, min(n_players // 2, 5 + n_players // 200))
    war_rows: list[dict[str, Any]] = []
    result_rows: list[dict[str, Any]] = []
    fights: dict[int, list[tuple[str, str]]] = {}  # player -> (war, side) of active wars
    beaten: dict[int, set[int]] = {}  # winner -> losers of turn 1
    for w in range(n_wars):
        war = f"War {w + 1}"
        n_sides = 3 if n_players >= 6 and rng.random() < 0.15 else 2
        sizes = [rng.randint(1, max(1, min(3, n_players // n_sides))) for _ in range(n_sides)]
        pool = rng.sample(range(n_players), sum(sizes))
        sides = []
        for s, size in enumerate(sizes):
            members, pool = pool[:size], pool[size:]
            sides.append((f"{war} {'ABC'[s]}", members))
        ended = w == n_wars - 1 and n_wars >= 3
        tied = rng.random() < 0.1
        won = rng.randrange(n_sides)
        for s, (side, members) in enumerate(sides):
            member_text = ", ".join(pnames[m] for m in members)
            war_rows.append({"war": war, "side": side, "members": member_text,
                             "ended": "yes" if ended else ""})
            dice = {m: [rng.randint(1, 6) for _ in range(rng.randint(1, 3))] for m in members}
            score = sum(sum(v) * 10 for v in dice.values())
            result_rows.append({
                "turn": 1, "war": war, "side": side, "members": member_text,
                "dice": "; ".join(f"{pnames[m]}: {' '.join(map(str, v))}"
                                  for m, v in dice.items()),
                "power": "; ".join(f"{pnames[m]}: 1.0" for m in members),
                "score": f"{score // 10}.{score % 10}",
                "outcome": "tied" if tied else ("won" if s == won else "lost")})
            if not ended:
                for m in members:
                    fights.setdefault(m, []).append((war, side))
        if not tied:
            losers = {m for s, (_, members) in enumerate(sides) if s != won for m in members}
            for m in sides[won][1]:
                beaten.setdefault(m, set()).update(losers)

    # Orders: about one per territory. Each nation posts its own list (a claim that chains
    # on from another comes after it); the nations' posts interleave at random.
    winners = {p: sorted(q for q in losers if owned_by[q]) for p, losers in beaten.items()}
    winners = {p: losers for p, losers in winners.items() if losers}
    ended_wars = [r["war"] for r in war_rows if r["ended"] == "yes"]
    plan = _OrderPlan(rng, names, pnames, borders, water, owner, owned_by, resource_of)
    activity = [rng.uniform(0.6, 1.4) for _ in range(n_players)]
    # every row counts for the nation that wrote it, so ~n (or ~orders) rows
    scale = (n if orders is None else orders) / sum(activity)
    for p in range(n_players):
        budget = max(4, round(activity[p] * scale))
        plan.player_turn(p, budget, armies[p], fights.get(p, []), winners.get(p, []),
                         ended_wars)
    rows = plan.posted()
    tables = {"Territories": territory_rows, "Players": player_rows, "Wars": war_rows,
              "War results": result_rows}
    settings = {"game": f"Synthetic claims game, {n} territories"}
    return SyntheticGame(n, n_players, tables, rows, settings, plan.mix)


class _OrderPlan:
    """Writes each nation's orders for the turn, then interleaves everybody's posts."""

    def __init__(self, rng: random.Random, names: list[str], pnames: list[str],
                 borders: list[list[int]], water: list[list[int]], owner: list[int],
                 owned_by: list[list[int]], resource_of: dict[int, str]) -> None:
        self.rng = rng
        self.names, self.pnames = names, pnames
        self.borders, self.water = borders, water
        self.owner, self.owned_by = owner, owned_by
        self.resource_of = resource_of
        self.neutral = [t for t, p in enumerate(owner) if p == -1]
        #: (posting time, sequence number, row); a nation's claims get increasing times.
        self.timed: list[tuple[float, int, dict[str, Any]]] = []
        self.mix: Counter[str] = Counter()
        self.deals = 0

    def post(self, row: dict[str, Any], kind: str, at: float | None = None) -> None:
        self.mix[kind] += 1
        when = self.rng.random() if at is None else at
        self.timed.append((when, len(self.timed), row))

    def posted(self) -> list[dict[str, Any]]:
        self.timed.sort()
        return [row for _, _, row in self.timed]

    def next_to(self, t: int) -> list[int]:
        return self.borders[t] + self.water[t]

    def other_player(self, p: int) -> int:
        q = self.rng.randrange(len(self.pnames) - 1)
        return q + 1 if q >= p else q

    def someone_elses_land(self, p: int) -> int | None:
        for _ in range(8):
            q = self.other_player(p)
            if self.owned_by[q]:
                return self.rng.choice(self.owned_by[q])
        return None

    def player_turn(self, p: int, budget: int, armies: int, fights: list[tuple[str, str]],
                    beaten: list[int], ended_wars: list[str]) -> None:
        rng, me = self.rng, self.pnames[p]
        start = len(self.timed)
        # Phase G: one build order, now and then a second one.
        builds = 0 if rng.random() < 0.1 else (2 if rng.random() < 0.1 else 1)
        for _ in range(builds):
            self.post({"player": me, "order": "build armies", "amount": rng.randint(1, 6)},
                      "build armies")
        # Phase F: dice for each war of his, or training exercises, or an ended war.
        for war, side in fights:
            row = {"player": me, "order": "commit dice", "war": war,
                   "amount": rng.randint(1, armies + 1)}
            if rng.random() < 0.5:
                row["side"] = side
            self.post(row, "commit dice")
        if not fights and rng.random() < 0.4:
            self.post({"player": me, "order": "commit dice", "amount": rng.randint(1, 3)},
                      "commit dice")
        if ended_wars and rng.random() < 0.03:
            self.post({"player": me, "order": "commit dice", "war": ended_wars[0],
                       "amount": rng.randint(1, 3)}, "commit dice")
        # Phase A: winners grab the losers' land; now and then a claim that is not allowed.
        if beaten:
            pool = [t for q in beaten for t in self.owned_by[q]]
            for t in rng.sample(pool, min(len(pool), max(1, round(budget * 0.2)))):
                self.post({"player": me, "order": "claim war territory",
                           "territory": self.names[t]}, "claim war territory")
        elif rng.random() < 0.05:
            t = self.someone_elses_land(p) if rng.random() < 0.7 else None
            if t is None and self.neutral:
                t = rng.choice(self.neutral)
            if t is not None:
                self.post({"player": me, "order": "claim war territory",
                           "territory": self.names[t]}, "claim war territory")
        # Phase C: deals, mostly accepted by the other side.
        for _ in range(round(budget * 0.15)):
            self.deal(p)
        if rng.random() < 0.2:
            self.post({"player": me, "order": "accept transfer",
                       "deal": f"deal-{rng.randint(1, 10**9)}x"}, "accept transfer")
        # ~2% malformed rows.
        for _ in range(sum(rng.random() < MALFORMED_SHARE for _ in range(budget))):
            self.malformed(me)
        # Phase E: claims on the neutral land next to his realm (and some that fail), then
        # more deals fill the rest of his orders.
        self.neutral_claims(p, budget - (len(self.timed) - start))
        while len(self.timed) - start < budget:
            self.deal(p)

    def deal(self, p: int) -> None:
        rng, me = self.rng, self.pnames[p]
        self.deals += 1
        name = f"deal-{self.deals}"
        q = self.other_player(p)
        them = self.pnames[q]
        base = {"player": me, "order": "propose transfer", "deal": name}
        goods = sorted({self.resource_of[t].lower() for t in self.owned_by[p]
                        if t in self.resource_of} - {"gold"})
        style = rng.random()
        if style < 0.4 or not self.owned_by[p]:
            self.post({**base, "item": "gold", "amount": rng.randint(1, 8), "to": them},
                      "propose transfer")
        elif style < 0.7:
            item = rng.choice(goods) if goods else "armies"
            self.post({**base, "item": item, "amount": 1, "to": them}, "propose transfer")
            self.post({**base, "item": "gold", "amount": rng.randint(1, 5), "from": them,
                       "to": me}, "propose transfer")
        elif style < 0.85:
            self.post({**base, "item": "territory", "to": them,
                       "territory": self.names[rng.choice(self.owned_by[p])]},
                      "propose transfer")
            self.post({**base, "item": "gold", "amount": rng.randint(2, 10), "from": them,
                       "to": me}, "propose transfer")
        else:
            self.post({**base, "item": "armies", "amount": 1, "to": them}, "propose transfer")
        if rng.random() < 0.85:
            self.post({"player": them, "order": "accept transfer", "deal": name},
                      "accept transfer")

    def malformed(self, me: str) -> None:
        rng, n = self.rng, len(self.names)
        bad = rng.randrange(4)
        if bad == 0:
            row = {"player": me, "order": "claim neutral territory",
                   "territory": f"T{n + rng.randint(1, n)}"}
        elif bad == 1:
            row = {"player": me, "order": "claim war territory",
                   "territory": f"Atlantis {rng.randint(1, 99)}"}
        elif bad == 2:
            row = {"player": me, "order": "build armies", "amount": "ten"}
        else:
            row = {"player": me, "order": "commit dice", "amount": "ten"}
        self.post(row, "malformed")

    def neutral_claims(self, p: int, count: int) -> None:
        rng, owner = self.rng, self.owner
        near = sorted({x for t in self.owned_by[p] for x in self.next_to(t) if owner[x] == -1})
        rng.shuffle(near)
        # All of the neutral land next to him, a third more that chains on from it, and a
        # third of what is left of his orders on land further off (deals take the rest).
        wanted = len(near) + len(near) // 3 + 2
        if count > wanted:
            count = wanted + (count - wanted) // 3
        claims: list[int] = []
        chosen: set[int] = set()
        tries = 0
        while len(claims) < count and tries < 20 * count + 20:
            tries += 1
            r = rng.random()
            t: int | None = None
            if r < 0.75 and near:
                t = near.pop()
            elif r < 0.9 and claims:  # chain on from one of his claims
                onward = [x for x in self.next_to(rng.choice(claims)) if owner[x] == -1]
                t = rng.choice(onward) if onward else None
            elif r < 0.97 and self.neutral:  # far away: not connected
                t = rng.choice(self.neutral)
            else:  # somebody else's land: not neutral
                t = self.someone_elses_land(p)
            if t is None or t in chosen:
                continue
            chosen.add(t)
            claims.append(t)
        me = self.pnames[p]
        for when, t in zip(sorted(rng.random() for _ in claims), claims):
            self.post({"player": me, "order": "claim neutral territory",
                       "territory": self.names[t]}, "claim neutral territory", when)


def build_game_state(game: SyntheticGame):
    from sheetmaster.engine.builder import build_state
    from sheetmaster.rules.claims.ruleset import RULESET

    return build_state(RULESET, game.tables, game.orders, turn=2, settings=game.settings)


# -- measuring ----------------------------------------------------------------------------


def peak_mib() -> float:
    """The process's peak resident set (ru_maxrss is KiB on Linux, bytes on macOS; 0 on
    Windows, which has no getrusage)."""
    if resource is None:
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def _status_mib(field_name: str) -> float | None:
    with contextlib.suppress(OSError), open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field_name + ":"):
                return int(line.split()[1]) / 1024
    return None


def reset_peak() -> bool:
    """Reset the kernel's peak RSS mark (Linux), so VmHWM then covers what follows only."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def worker_resolve(size: int, seed: int) -> dict[str, Any]:
    """Generate, build and resolve one game; runs in its own process."""
    from sheetmaster.engine.turn import resolve
    from sheetmaster.kit.model import Status
    from sheetmaster.rules.claims.ruleset import RULESET

    t0 = time.perf_counter()
    game = generate_game(size, seed)
    t1 = time.perf_counter()
    state = build_game_state(game)
    t2 = time.perf_counter()
    players, orders, mix = game.players, len(game.orders), dict(game.order_mix)
    del game
    gc.collect()
    rss_before = _status_mib("VmRSS")
    peak_before = peak_mib()
    hwm_reset = reset_peak()
    # Small games resolve in milliseconds: take the best of a few runs to tame the noise.
    repeat = 5 if size <= 10_000 else 1
    times, cpu = [], []
    result = None
    for _ in range(repeat):
        result = None
        gc.collect()
        start, start_cpu = time.perf_counter(), time.process_time()
        result = resolve(RULESET, state, secret=DICE_SECRET)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    resolve_peak = _status_mib("VmHWM") if hwm_reset else None
    peak = max(peak_before, peak_mib())
    status = Counter(r.status for r in result.results)
    return {
        "size": size,
        "players": players,
        "orders": orders,
        "order_mix": mix,
        "generate_s": t1 - t0,
        "build_state_s": t2 - t1,
        "resolve_s": min(times),
        "resolve_cpu_s": min(cpu),
        "resolve_runs": len(times),
        "peak_mib": peak,
        "rss_before_resolve_mib": rss_before,
        "resolve_peak_mib": resolve_peak,
        "applied": status[Status.APPLIED],
        "partial": status[Status.PARTIAL],
        "rejected": status[Status.REJECTED],
        "events": len(result.events),
    }


def worker_io(size: int, seed: int, directory: str) -> dict[str, Any]:
    """Write the game to .xlsx, time loading it two ways, resolve it and time the save."""
    import pandas as pd

    from sheetmaster.engine.turn import resolve
    from sheetmaster.kit.changes import cell_changes
    from sheetmaster.rules.claims.ruleset import RULESET
    from sheetmaster.stores.xlsx import XlsxStore
    from sheetmaster.stores.xlsx_layout import write_new_workbook

    folder = Path(directory)
    path = folder / f"claims-{size}.xlsx"
    out = folder / f"claims-{size}-turn-2.xlsx"
    game = generate_game(size, seed)
    state = build_game_state(game)
    players, orders = game.players, len(game.orders)
    del game
    start = time.perf_counter()
    write_new_workbook(RULESET, path, state)
    write_s = time.perf_counter() - start
    del state
    gc.collect()

    sheetmaster_runs: list[float] = []
    pandas_runs: list[float] = []
    for _ in range(2):  # side by side, alternating, best of two (one if slow)
        if not sheetmaster_runs or max(sheetmaster_runs) < SLOW_LOAD_SECONDS:
            start = time.perf_counter()
            loaded = XlsxStore(path).load()
            sheetmaster_runs.append(time.perf_counter() - start)
            del loaded
        if not pandas_runs or max(pandas_runs) < SLOW_LOAD_SECONDS:
            start = time.perf_counter()
            frames = pd.read_excel(path, sheet_name=None, engine="openpyxl")
            pandas_runs.append(time.perf_counter() - start)
            del frames
        gc.collect()

    state = XlsxStore(path).load()
    start = time.perf_counter()
    result = resolve(RULESET, state, secret=DICE_SECRET)
    resolve_s = time.perf_counter() - start
    start, cpu = time.perf_counter(), time.process_time()
    XlsxStore(path).save(RULESET, result, out=out)
    save_s, save_cpu_s = time.perf_counter() - start, time.process_time() - cpu
    start, cpu = time.perf_counter(), time.process_time()
    openpyxl_save(RULESET, path, result, folder / f"claims-{size}-openpyxl.xlsx")
    openpyxl_save_s = time.perf_counter() - start
    openpyxl_save_cpu_s = time.process_time() - cpu
    changed = len(cell_changes(RULESET, result))
    sm, pdx = min(sheetmaster_runs), min(pandas_runs)
    return {
        "size": size,
        "players": players,
        "orders": orders,
        "file_mib": path.stat().st_size / 2**20,
        "write_new_workbook_s": write_s,
        "sheetmaster_load_s": sm,
        "sheetmaster_load_runs": sheetmaster_runs,
        "pandas_openpyxl_load_s": pdx,
        "pandas_openpyxl_load_runs": pandas_runs,
        "load_speedup": pdx / sm if sm else None,
        "resolve_loaded_s": resolve_s,
        "save_s": save_s,
        "save_cpu_s": save_cpu_s,
        "openpyxl_save_s": openpyxl_save_s,
        "openpyxl_save_cpu_s": openpyxl_save_cpu_s,
        "save_speedup": openpyxl_save_s / save_s if save_s else None,
        "save_cpu_speedup": openpyxl_save_cpu_s / save_cpu_s if save_cpu_s else None,
        "cells_changed": changed,
        "saved_mib": out.stat().st_size / 2**20,
        "peak_mib": peak_mib(),
    }


def openpyxl_save(ruleset: Any, path: Path, result: Any, out: Path) -> None:
    """The yardstick of the save: what XlsxStore.save did until it patched the workbook.
    openpyxl loads the whole workbook, each changed cell is set (text as text), and the
    whole workbook is saved again."""
    import openpyxl

    from sheetmaster.kit.changes import cell_changes
    from sheetmaster.stores.xlsx_layout import set_cell

    book = openpyxl.load_workbook(path)
    names = result.before.meta.get("tab_names", {})
    headers: dict[str, dict[str, int]] = {}
    for change in cell_changes(ruleset, result):
        ws = book[names.get(change.tab, change.tab)]
        if ws.title not in headers:
            headers[ws.title] = {c.value: c.column for c in ws[1] if c.value}
        set_cell(ws.cell(row=change.row, column=headers[ws.title][change.column]),
                 change.after)
    book.save(out)


def worker_profile(size: int, seed: int, top: int) -> None:
    """cProfile one resolve and print the top entries by cumulative time.

    Also times the resolve without the profiler, with the garbage collector on and off, so
    the collector's share of the time shows (cProfile charges its pauses to whatever
    function happened to allocate).
    """
    import cProfile
    import pstats

    from sheetmaster.engine.turn import resolve
    from sheetmaster.rules.claims.ruleset import RULESET

    game = generate_game(size, seed)
    state = build_game_state(game)
    print(f"{size} territories, {game.players} players, {len(game.orders)} orders")
    del game
    timings = {}
    for label in ("gc on", "gc off"):
        gc.collect()
        if label == "gc off":
            gc.disable()
        start = time.perf_counter()
        result = resolve(RULESET, state, secret=DICE_SECRET)
        timings[label] = time.perf_counter() - start
        gc.enable()
        del result
    print("resolve without the profiler: " +
          ", ".join(f"{k} {v:.2f} s" for k, v in timings.items()))
    gc.collect()
    profiler = cProfile.Profile()
    profiler.enable()
    resolve(RULESET, state, secret=DICE_SECRET)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.strip_dirs().sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)


def run_worker(args: list[str], script: str = __file__) -> dict[str, Any]:
    """Run ``script`` (this one by default) as a worker in a fresh interpreter, so that its
    peak memory is its own; returns its JSON answer (the last line it prints)."""
    cmd = [sys.executable, str(Path(script).resolve()), *args]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"worker {' '.join(args)} failed ({done.returncode}):\n"
                           f"{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- the report ---------------------------------------------------------------------------


def median_row(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One size's runs as one row: the median resolve (wall and CPU), the highest peak, and
    each run's resolve time (``resolve_runs_s``, in the order they ran)."""
    row = dict(sorted(runs, key=lambda r: r["resolve_s"])[(len(runs) - 1) // 2])
    row["resolve_s"] = statistics.median(r["resolve_s"] for r in runs)
    row["resolve_cpu_s"] = statistics.median(r["resolve_cpu_s"] for r in runs)
    row["peak_mib"] = max(r["peak_mib"] for r in runs)
    row["resolve_runs_s"] = [r["resolve_s"] for r in runs]
    return row


def verdicts(rows: list[dict[str, Any]]) -> None:
    """Add each size's time ratio to the previous size, and PASS/FAIL against the slack."""
    previous = None
    for row in rows:
        if previous is None:
            row["time_ratio"] = None
            row["allowed_ratio"] = None
            row["scaling"] = ""
        else:
            size_ratio = row["size"] / previous["size"]
            allowed = SCALING_SLACK * size_ratio
            ratio = row["resolve_s"] / previous["resolve_s"]
            row["time_ratio"] = ratio
            row["allowed_ratio"] = allowed
            row["scaling"] = "PASS" if ratio <= allowed else "FAIL"
        previous = row


def format_size(n: int) -> str:
    exp = math.log10(n) if n > 0 else 0
    return f"10^{round(exp)}" if n >= 100 and exp == round(exp) else str(n)


def table(rows: list[dict[str, Any]]) -> str:
    head = (f"{'size':>7} {'players':>7} {'orders':>8} {'build s':>8} {'resolve s':>10} "
            f"{'cpu s':>8} "
            f"{'peak MiB':>9} {'resolve MiB':>11} {'applied':>8} {'ratio':>7} {'scaling':>13}")
    lines = [head, "-" * len(head)]
    for r in rows:
        ratio = f"{r['time_ratio']:.1f}x" if r["time_ratio"] is not None else "-"
        scaling = f"{r['scaling']} (<={r['allowed_ratio']:.0f}x)" if r["scaling"] else "-"
        applied = (r["applied"] + r["partial"]) / r["orders"] if r["orders"] else 0
        resolve_mib = (f"{r['resolve_peak_mib']:.0f}" if r["resolve_peak_mib"] is not None
                       else "-")
        lines.append(
            f"{format_size(r['size']):>7} {r['players']:>7} {r['orders']:>8} "
            f"{r['build_state_s']:>8.2f} {r['resolve_s']:>10.3f} "
            f"{r.get('resolve_cpu_s', float('nan')):>8.3f} {r['peak_mib']:>9.0f} "
            f"{resolve_mib:>11} {applied:>7.0%} {ratio:>7} {scaling:>13}")
    return "\n".join(lines)


def target_check(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    big = next((r for r in rows if r["size"] == TARGET_SIZE), None)
    if big is None:
        return None
    fast = big["resolve_s"] < TARGET_SECONDS
    small = big["peak_mib"] < TARGET_MIB
    return {"size": TARGET_SIZE, "resolve_s": big["resolve_s"], "peak_mib": big["peak_mib"],
            "under_target_s": fast, "under_target_mib": small,
            "verdict": "PASS" if fast and small else "FAIL"}


def io_report(io: dict[str, Any]) -> str:
    speedup = io["load_speedup"]
    verdict = "PASS" if speedup is not None and speedup >= TARGET_LOAD_SPEEDUP else "FAIL"
    runs = len(io["sheetmaster_load_runs"]), len(io["pandas_openpyxl_load_runs"])
    save_speedup = io["save_speedup"] or 0.0
    save_verdict = "PASS" if save_speedup >= TARGET_SAVE_SPEEDUP else "FAIL"
    return "\n".join([
        f"I/O at {io['size']} territories ({io['players']} players, {io['orders']} orders), "
        f".xlsx of {io['file_mib']:.1f} MiB:",
        f"  write_new_workbook                      {io['write_new_workbook_s']:8.2f} s",
        f"  XlsxStore.load (calamine)               {io['sheetmaster_load_s']:8.2f} s"
        f"  (best of {runs[0]})",
        f"  pandas.read_excel(engine='openpyxl')    {io['pandas_openpyxl_load_s']:8.2f} s"
        f"  (best of {runs[1]})",
        f"  load speedup                            {speedup:8.1f} x  "
        f"{verdict} (target >= {TARGET_LOAD_SPEEDUP:.0f}x)",
        f"  resolve of the loaded workbook          {io['resolve_loaded_s']:8.2f} s",
        f"  XlsxStore.save of the resolved turn     {io['save_s']:8.2f} s"
        f"  (CPU {io['save_cpu_s']:.2f} s; {io['cells_changed']} cells changed)",
        f"  openpyxl load + set cells + save        {io['openpyxl_save_s']:8.2f} s"
        f"  (CPU {io['openpyxl_save_cpu_s']:.2f} s; the store's way until it patched "
        f"the workbook)",
        f"  save speedup                            {save_speedup:8.1f} x  "
        f"{save_verdict} (target >= {TARGET_SAVE_SPEEDUP:.0f}x; in CPU time "
        f"{io['save_cpu_speedup'] or 0.0:.1f} x)",
        f"  peak RSS of the I/O process             {io['peak_mib']:8.0f} MiB",
    ])


def parse_sizes(text: str) -> list[int]:
    sizes = [int(float(part)) for part in text.split(",") if part.strip()]
    if not sizes or any(s < 4 for s in sizes):
        raise argparse.ArgumentTypeError("sizes are territory counts of at least 4")
    return sizes


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=parse_sizes, default=None,
                        help="territory counts, comma-separated (default 10^2..10^6)")
    parser.add_argument("--load-size", type=int, default=None,
                        help=f"territories of the I/O game (default {DEFAULT_LOAD_SIZE}; "
                             "0 skips the I/O part)")
    parser.add_argument("--quick", action="store_true",
                        help=f"sizes {QUICK_SIZES}, load size {QUICK_LOAD_SIZE} (for tests)")
    parser.add_argument("--runs", type=int, default=1,
                        help="fresh processes per size, the sizes taken in turn; the table "
                             "gives the median resolve (default 1). The machine's speed "
                             "drifts: 5 make a growth figure worth quoting")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=None, help="also write the results as JSON")
    parser.add_argument("--profile", type=int, metavar="SIZE", default=None,
                        help="instead: cProfile one resolve at SIZE territories")
    parser.add_argument("--top", type=int, default=15,
                        help="entries of the profile to print (default 15)")
    parser.add_argument("--worker", choices=("resolve", "io", "profile"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--dir", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.sizes is None:
        args.sizes = list(QUICK_SIZES if args.quick else DEFAULT_SIZES)
    if args.load_size is None:
        args.load_size = QUICK_LOAD_SIZE if args.quick else DEFAULT_LOAD_SIZE
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker == "resolve":
        print(json.dumps(worker_resolve(args.size, args.seed)))
        return 0
    if args.worker == "io":
        print(json.dumps(worker_io(args.size, args.seed, args.dir)))
        return 0
    if args.worker == "profile":
        worker_profile(args.size, args.seed, args.top)
        return 0
    if args.profile:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "profile",
               "--size", str(args.profile), "--seed", str(args.seed), "--top", str(args.top)]
        return subprocess.run(cmd).returncode

    print(f"sheetmaster claims benchmark: Python {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} CPUs, seed {args.seed}", flush=True)
    runs: dict[int, list[dict[str, Any]]] = {size: [] for size in args.sizes}
    for run in range(args.runs):  # every size once, then again: drift reaches all alike
        for size in args.sizes:
            label = f" (run {run + 1} of {args.runs})" if args.runs > 1 else ""
            print(f"  resolving {size} territories in a fresh process{label} ...", flush=True)
            runs[size].append(run_worker(["--worker", "resolve", "--size", str(size),
                                          "--seed", str(args.seed)]))
    rows = [median_row(runs[size]) for size in args.sizes]
    verdicts(rows)
    io = None
    if args.load_size:
        print(f"  workbook I/O at {args.load_size} territories in a fresh process ...",
              flush=True)
        with tempfile.TemporaryDirectory(prefix="sheetmaster-bench-") as folder:
            io = run_worker(["--worker", "io", "--size", str(args.load_size),
                             "--seed", str(args.seed), "--dir", folder])
        io["target_speedup"] = TARGET_LOAD_SPEEDUP
        io["target_save_speedup"] = TARGET_SAVE_SPEEDUP
        io["save_verdict"] = "PASS" if (io["save_speedup"] or 0) >= TARGET_SAVE_SPEEDUP \
            else "FAIL"
        io["load_verdict"] = ("PASS" if (io["load_speedup"] or 0) >= TARGET_LOAD_SPEEDUP
                              else "FAIL")

    print()
    print("Resolve time (sheetmaster.engine.turn.resolve) and peak RSS, one process per size"
          + (f" and run (the median of {args.runs}; peak: the highest)" if args.runs > 1
             else ""))
    print("(build = build_state from rows, not included in resolve; resolve MiB = peak RSS")
    print(" during resolve alone; applied = orders applied or partly applied):")
    print(table(rows))
    for row in rows if args.runs > 1 else ():
        times = row["resolve_runs_s"]
        print(f"{format_size(row['size']):>7}: median of {len(times)} runs, "
              f"{min(times):.3f}-{max(times):.3f} s")
    target = target_check(rows)
    if target is not None:
        print(f"10^6 territories: resolve {target['resolve_s']:.1f} s "
              f"({'under' if target['under_target_s'] else 'NOT under'} "
              f"{TARGET_SECONDS:.0f} s), peak {target['peak_mib']:.0f} MiB "
              f"({'under' if target['under_target_mib'] else 'NOT under'} "
              f"{TARGET_MIB / 1024:.0f} GiB): {target['verdict']}")
    else:
        print("10^6 territories: not measured in this run")
    if io is not None:
        print()
        print(io_report(io))
    if args.out:
        write_results(args.out, args.seed, rows, target_1e6=target, io=io)
    return 0


def write_results(out: Path, seed: int, rows: list[dict[str, Any]], **more: Any) -> None:
    """The run's figures as JSON in ``out``, with the machine they were measured on."""
    report = {"python": platform.python_version(), "machine": platform.machine(),
              "cpus": os.cpu_count(), "seed": seed, "sizes": rows, **more}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"\nresults written to {out}")


if __name__ == "__main__":
    sys.exit(main())
