"""Step 9: land combat is resolved: the forces that lost are defeated, the winners stand in
the provinces they entered, and each order gets its result.

A defeated force's fighting units (Infantry, Conscripts, Landships, rebels) are destroyed;
its Generals and Artillery wait for steps 10 and 11 ("Generals in enemy-occupied territory
retreat or disband"; "Equipment in enemy-occupied territory are captured or destroyed").
Hostile forces that spent the whole turn in one province (rebels who rose among an
occupier's troops) fight there too.
"""

from __future__ import annotations

from sheetmaster.kit import Context, Status

from .. import data
from ..settings import LAND_DIE
from ..tables import Unit
from ..world import GoldenWorld
from .common import both, turn_state
from .land_battle import Battlefield
from .land_orders import INVADE, Move, side
from .support import cut_attrition, support_results

COMBAT_RULE = (
    "Land combat is resolved. Garrison, in addition to any other defending forces, must be "
    "defeated before invading forces can being occupying the province. " + data.CUT_RULE)


def settle_land_battles(ctx: Context) -> None:
    state = turn_state(ctx)
    field = state.battlefield
    if field is None:
        return
    defeated = _defeated(ctx, field)
    for move in field.moves:
        if field.success.get(move.key):
            _enter(ctx, field, move)
    for where, who, units, victor in defeated:
        _defeat(ctx, where, who, units, victor)
    beaten = {(w, s) for w, s, _, _ in defeated}
    _order_results(ctx, field, beaten)
    cut_attrition(ctx, field)
    _standing_battles(ctx, field, beaten)


def _defeated(ctx: Context, field: Battlefield) -> list[tuple[str, str, list[str], Move]]:
    """(province, side, units, the move that beat them) for every force that lost."""
    state = turn_state(ctx)
    out: list[tuple[str, str, list[str], Move]] = []
    done: set[tuple[str, str]] = set()
    for move in field.moves:
        if not field.success.get(move.key):
            continue
        where = move.dest
        losers = [(who, [u.name for u in units]) for who, units in
                  field.stays.get(where, {}).items() if who in move.targets]
        losers += [(m.nation, list(m.units)) for m in field.out_of.get(where, ())
                   if m.nation in move.targets and not field.success.get(m.key)]
        for who, units in losers:
            if (where, who) not in done:
                done.add((where, who))
                out.append((where, who, units, move))
        if move.mode == INVADE:
            _taken(ctx, field, move)
        elif move.intent == "integrate":
            state.integrations.setdefault(where, (move.nation, move.orders[0]))
        if where in field.garrisons and field.garrisons[where][0] in move.targets:
            ctx.emit(move.nation, "capital", f"{move.nation} defeated the garrison of "
                     f"{where}, capital of {field.garrisons[where][0]}")
    return out


def _taken(ctx: Context, field: Battlefield, move: Move) -> None:
    """Who holds the province now (written in step 15): a new occupier, its owner back, or
    the same occupier with a new intent (digest F51)."""
    state = turn_state(ctx)
    province = ctx.world.provinces[move.dest]
    where = move.dest
    state.contested.add(where)
    if province.owner == move.nation:
        if province.occupied_by and province.occupied_by in move.targets:
            state.liberated.add(where)
        return
    if province.occupied_by == move.nation:
        if move.intent:
            state.reissued[where] = move.intent
        return
    if where not in state.taken:
        state.taken[where] = move.nation
        state.intents[where] = move.intent


def _enter(ctx: Context, field: Battlefield, move: Move) -> None:
    world: GoldenWorld = ctx.world
    for name in move.units:
        unit = world.units.get(name)
        if unit is None:
            continue
        if unit.aboard:
            world.land(unit, move.dest)
        else:
            world.place(unit, move.dest)


def _defeat(ctx: Context, where: str, who: str, units: list[str], victor: Move) -> None:
    world: GoldenWorld = ctx.world
    state = turn_state(ctx)
    lost, kept = [], []
    for name in units:
        unit = world.units.get(name)
        if unit is None:
            continue
        if unit.type in data.COMBAT_TYPES:
            world.remove(unit, f"defeated in {where} by {victor.nation}")
            lost.append(name)
        else:
            kept.append(name)
    if kept:
        state.defeated.setdefault(where, (victor.nation, []))[1].extend(kept)
    if lost:
        both(ctx, who if who in world.nations else victor.nation, victor.nation, "defeat",
             f"{who}'s forces in {where} were defeated by {victor.nation}: "
             f"{', '.join(lost)} destroyed")


def _order_results(ctx: Context, field: Battlefield, beaten: set[tuple[str, str]]) -> None:
    """Every land order's status and reason, once the battles are decided."""
    _move_results(ctx, field, beaten)
    support_results(ctx, field)


def _move_results(ctx: Context, field: Battlefield, beaten: set[tuple[str, str]]) -> None:
    for move in field.moves:
        ok = field.success.get(move.key, False)
        attack = field.move_strength(move) if field.fought(move) else None
        if ok:
            reason = _entered(field, move, attack)
        else:
            reason = field.reasons.get(move.key) or "bounced"
            if (move.origin, move.nation) in beaten:
                reason += f"; then defeated in {move.origin}"
        if move.converted:
            reason = f"a march into hostile territory is an invasion: {reason}"
        for order in move.orders:
            if ctx.resolved(order) is None:
                ctx.resolve(order, Status.APPLIED if ok else Status.BLOCKED, reason)
        verb = "landed in" if move.landing else "invaded" if move.mode == INVADE else \
            "marched into"
        if attack is not None or move.mode == INVADE:
            # an invasion that met nobody is no battle (digest F33)
            ctx.emit(move.nation, "battle" if attack is not None else "invasion",
                     f"{move.nation} {verb} {move.dest} from {move.origin} with "
                     f"{', '.join(move.units)}: {reason}")
        else:
            ctx.emit(move.nation, "march", f"{', '.join(move.units)} {verb} {move.dest}"
                     if ok else f"{', '.join(move.units)} did not reach {move.dest}: {reason}")


def _entered(field: Battlefield, move: Move, attack: int | None) -> str:
    if move.mode != INVADE:
        return f"moved to {move.dest}"
    hold, names = field.opposition.get(move.key, (0, []))
    if names:
        return f"invaded {move.dest}, defeating {', '.join(names)} ({attack} against {hold})"
    return f"invaded {move.dest}; nobody defended it"


def _standing_battles(ctx: Context, field: Battlefield, beaten: set[tuple[str, str]]) -> None:
    """Hostile forces that stayed the whole turn in one province fight it out: the stronger
    side defeats the other; equal strengths change nothing. A force already beaten there
    this turn (by an invasion, or in another standing battle) fights no more: what is left of
    it (Generals, Artillery) goes to steps 10 and 11 once."""
    world: GoldenWorld = ctx.world
    for where, sides in field.stays.items():
        present = [(who, [u for u in units if u.name in world.units])
                   for who, units in sides.items()]
        present = [(who, units) for who, units in present if units]
        for i, (a, units_a) in enumerate(present):
            for b, units_b in present[i + 1:]:
                if not world.at_war(a, b) or (where, a) in beaten or (where, b) in beaten or \
                        not any(u.name in world.units for u in units_a) or \
                        not any(u.name in world.units for u in units_b):
                    continue
                loser = _fight_in_place(ctx, field, where, a, units_a, b, units_b)
                if loser:
                    beaten.add((where, loser))


def _fight_in_place(ctx: Context, field: Battlefield, where: str, a: str, units_a: list[Unit],
                    b: str, units_b: list[Unit]) -> str:
    """The two sides' hold strengths decide; the loser's side ('' if neither prevails)."""
    world: GoldenWorld = ctx.world
    for unit in units_a + units_b:
        if unit.name not in field.rolls:
            field.rolls[unit.name] = [
                ctx.dice.roll(field.setting(LAND_DIE), side(unit),
                              f"combat: {unit.name} ({unit.type})", name=f"combat {unit.name}")
                for _ in range(_dice(ctx, unit))]
    sa = field.hold_strength(where, a, [u for u in units_a if u.name in world.units])
    sb = field.hold_strength(where, b, [u for u in units_b if u.name in world.units])
    text = f"battle in {where}: {a} {sa} against {b} {sb}"
    if sa == sb:
        ctx.emit(a, "battle", f"{text}: neither side prevails")
        return ""
    winner, loser, lost = (a, b, units_b) if sa > sb else (b, a, units_a)
    state = turn_state(ctx)
    gone, kept = [], []
    for unit in lost:
        if unit.name not in world.units:
            continue
        if unit.type in data.COMBAT_TYPES:
            world.remove(unit, f"defeated in {where} by {winner}")
            gone.append(unit.name)
        else:
            kept.append(unit.name)
    ctx.emit(winner if winner in world.nations else loser, "battle",
             f"{text}: {winner} prevails" + (f"; {', '.join(gone)} destroyed" if gone else ""))
    if kept:
        state.defeated.setdefault(where, (winner, []))[1].extend(kept)
    province = world.provinces[where]
    if province.holder == loser or (loser == data.REBELS and province.occupied_by == loser):
        if province.owner == winner:
            state.liberated.add(where)
        else:
            state.taken[where] = winner
            state.intents[where] = ""
    state.contested.add(where)
    return loser


def _dice(ctx: Context, unit: Unit) -> int:
    from ..settings import DICE, number

    return int(number(ctx, unit.type, unit.tech, DICE))
