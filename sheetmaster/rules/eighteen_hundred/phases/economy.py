"""What a nation's pops, improvements, cards and trade routes yield: the arithmetic of
collection (L92-95), read off the board as it stands."""

from __future__ import annotations

from dataclasses import dataclass

from ..data import highest, total
from ..tables import COUNTRYSIDE, EUROPEAN, FARM, MARKET, Pops
from ..world import EighteenWorld


@dataclass(frozen=True)
class Classes:
    """A nation's pops by class (L41): farmers in countrysides, laborers on factories,
    bourgeois in cities off factories; conscripted pops apart (L105)."""

    farmers: int = 0
    laborers: int = 0
    bourgeois: int = 0
    conscripted: int = 0


def classes(world: EighteenWorld, nation: str) -> Classes:
    farmers = laborers = bourgeois = conscripted = 0
    for row, province in world.pops_where(nation):
        conscripted += row.conscripted
        if province.type == COUNTRYSIDE:
            farmers += row.pops - row.conscripted
        else:
            laborers += row.laborers
            bourgeois += row.pops - row.laborers - row.conscripted
    return Classes(farmers, laborers, bourgeois, conscripted)


def farms_worked(world: EighteenWorld, nation: str) -> int:
    """F15: each farmer works up to its nation's 'farms per pop' (1 without) farms of its own
    province; the controller's farmers first, then the others in seat order."""
    worked = 0
    for row, province in world.pops_where(nation):
        if province.type != COUNTRYSIDE or not province.count(FARM):
            continue
        left = province.count(FARM)
        for other in _workers_in_order(world, row.province):
            farmers = other.pops - other.conscripted
            take = min(left, farmers * highest(world.effects(other.nation), "farms per pop", 1))
            left -= take
            if other.nation == nation:
                worked += take
                break
    return worked


def _workers_in_order(world: EighteenWorld, province: str) -> list[Pops]:
    rows = {p.nation: p for p in world.pops_in(province)}
    return [rows[n] for n in world.by_seat(list(rows), world.controller(province))]


def food_output(world: EighteenWorld, nation: str) -> int:
    """"Your base food output is equal to the number of farmers you have (Industrial
    Agriculture cards may further increase your food output)" + farms worked (F15) + food
    per production token on the nation's cards (L69) + 'food' effects."""
    out = classes(world, nation).farmers + farms_worked(world, nation)
    for entry in world.in_play(nation):
        per = total(list(world.cards[entry.card].effects), "food per production token")
        out += per * entry.production
    return max(0, out + total(world.effects(nation), "food"))  # never below nothing


def food_consumption(world: EighteenWorld, nation: str) -> int:
    """"your food consumption is equal to the number of laborers, bourgeois, and regiments
    you have"; a conscripted pop consumes one besides its regiment (F49)."""
    c = classes(world, nation)
    return c.laborers + c.bourgeois + c.conscripted + len(world.regiments_of(nation))


def production(world: EighteenWorld, nation: str) -> int:
    """"Collect one production token for each of your laborers" (the factory's +1 is that
    token, F16) + 'production' effects."""
    return max(0, classes(world, nation).laborers + total(world.effects(nation), "production"))


def market_commerce(world: EighteenWorld, nation: str) -> int:
    """"+1 commerce for every two pops working on a market in a city", each market worked by
    up to the nation's 'pops per market' bourgeois (F13). In each city the controller's
    bourgeois take markets first, then the others in seat order."""
    out = 0
    for row, province in world.pops_where(nation):
        if not province.city or not province.count(MARKET):
            continue
        left = province.count(MARKET)
        for other in _workers_in_order(world, row.province):
            cap = highest(world.effects(other.nation), "pops per market", 0)
            idle = other.pops - other.laborers - other.conscripted
            if cap < 1 or idle < 1 or left < 1:
                continue
            used = min(left, -(-idle // cap))
            workers = min(idle, used * cap)
            left -= used
            if other.nation == nation:
                out += min(workers // 2, used * (cap // 2))
                break
    return out


def route_commerce(world: EighteenWorld, nation: str) -> int:
    """"For European trade routes, collect one commerce per turn for each trade route. For
    overseas trade routes, collect one commerce per turn for each trade route that is not
    shared with any other players.\""""
    out = 0
    for route in world.routes.values():
        if nation in route.holders and (route.kind == EUROPEAN or len(set(route.holders)) == 1):
            out += 1
    return out


def commerce(world: EighteenWorld, nation: str) -> int:
    return max(0, market_commerce(world, nation) + route_commerce(world, nation) +
               total(world.effects(nation), "commerce"))
