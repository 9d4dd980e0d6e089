"""Phase F: wars are resolved with the dice players committed."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from sheetmaster.kit import Context, Order, Status, plural, values

from .. import reasons
from ..orders import COMMIT
from ..tables import WarResult
from ..world import ClaimsWorld, Side, War
from .supply import format_power

WAR_RULE = (
    "If a player's Total number of armies is equal to 'x', then only the first 'x' dice rolls "
    "a player makes during a turn are considered valid for purposes of resolving war. For "
    "every valid dice a player has dedicated to the conflict, the Game Master(s) multiply the "
    "value on that dice by that player's army power. Then, for every side of every currently "
    "active war, Game Master(s) sum the values (after multiplication) of all dice on that side. "
    "In every war, the side whose sum is highest is declared the winner, and all other sides "
    "involved are declared the loser(s)."
)


@dataclass
class Battle:
    """Dice committed to one war this turn: side key -> player -> values."""

    war: War
    dice: dict[str, dict[str, list[int]]] = field(default_factory=dict)


def resolve_wars(ctx: Context) -> None:
    world: ClaimsWorld = ctx.world
    battles = {key: Battle(war) for key, war in world.wars.items() if war.active}
    used: Counter[str] = Counter()
    for order in ctx.orders(COMMIT):
        _commit(ctx, order, battles, used)
    for battle in battles.values():
        _score(ctx, world, battle)


def _commit(ctx: Context, order: Order, battles: dict[str, Battle], used: Counter[str]) -> None:
    """Roll a commit order's valid dice for its war and side.

    "If it is not declared what a player is attacking with his dice roll, the Game Master(s)
    decide for them - if there is nothing that the player would obviously attack or defend
    against, the Armies are declared to be performing training exercises, and the dice rolls
    are wasted." The obvious war is the one active war the player is listed in, if only one.
    """
    world: ClaimsWorld = ctx.world
    player = world.players[order.player]
    asked = order.fields["amount"]
    war_name = order.fields["war"]
    if war_name is None:
        mine = [b for b in battles.values() if _listed_side(b.war, player.name)]
        if len(mine) != 1:
            valid = min(asked, max(player.armies - used[player.name], 0))
            used[player.name] += valid
            dice = plural(valid, "die", "dice")
            ctx.emit(player.name, "training", f"{dice} wasted on training exercises")
            ctx.resolve(order, Status.APPLIED, reasons.TRAINING.say(dice=dice))
            return
        battle = mine[0]
    else:
        battle = battles.get(values.fold(war_name))
        if battle is None:
            ctx.resolve(order, Status.REJECTED, reasons.WAR_ENDED.say(war=values.show(war_name)))
            return
    side = _pick_side(ctx, order, battle)
    if side is None:
        return
    remaining = player.armies - used[player.name]
    if remaining <= 0:
        ctx.resolve(order, Status.REJECTED, reasons.NO_DICE_LEFT.say(
            armies=plural(player.armies, "army")))
        return
    valid = min(asked, remaining)
    used[player.name] += valid
    rolls = battle.dice.setdefault(values.fold(side.name), {}).setdefault(player.name, [])
    for n in range(1, valid + 1):
        rolls.append(ctx.dice.roll(6, player.name, f"war {battle.war.name}, side {side.name}, "
                                                   f"die {n} of {valid} (order row {order.row})"))
    if valid < asked:
        ctx.resolve(order, Status.PARTIAL, reasons.SOME_DICE.say(
            valid=valid, asked=asked, armies=plural(player.armies, "army")))
    else:
        ctx.resolve(order, Status.APPLIED, f"{plural(valid, 'die', 'dice')} for {side.name} in "
                                           f"{battle.war.name}")


def _listed_side(war: War, player: str) -> Side | None:
    for side in war.sides.values():
        if player in side.members:
            return side
    return None


def _pick_side(ctx: Context, order: Order, battle: Battle) -> Side | None:
    """The side the order names, or the player's own; a player fights for one side only."""
    war = battle.war
    listed = _listed_side(war, order.player)
    joined = [k for k, by_player in battle.dice.items() if order.player in by_player]
    own = listed or (war.sides[joined[0]] if joined else None)
    named = order.fields["side"]
    if not named:
        if own is None:
            ctx.resolve(order, Status.REJECTED, reasons.NAME_SIDE.say(war=war.name))
        return own
    side = war.sides.get(values.fold(named))
    if side is None:
        ctx.resolve(order, Status.REJECTED, reasons.UNKNOWN_SIDE.say(
            war=war.name, side=values.show(named),
            sides=", ".join(s.name for s in war.sides.values())))
        return None
    if own is not None and own is not side:
        ctx.resolve(order, Status.REJECTED, reasons.OTHER_SIDE.say(
            listed=own.name, war=war.name, side=side.name))
        return None
    return side


def _score(ctx: Context, world: ClaimsWorld, battle: Battle) -> None:
    """Sum dice x power per side; a unique highest sum wins, a tie at the top wins nothing."""
    war = battle.war
    scores: dict[str, int] = {}
    for key in war.sides:
        rolled = battle.dice.get(key, {})
        scores[key] = sum(sum(v) * world.players[p].power_tenths for p, v in rolled.items())
    best = max(scores.values(), default=0)
    winners = [k for k, s in scores.items() if s == best]
    for key, side in war.sides.items():
        rolled = battle.dice.get(key, {})
        members = list(dict.fromkeys([*side.members, *rolled]))
        outcome = "tied" if len(winners) > 1 else ("won" if key in winners else "lost")
        dice = "; ".join(f"{p}: {' '.join(map(str, v))}" for p, v in rolled.items())
        power = "; ".join(f"{p}: {format_power(world.players[p].power_tenths)}" for p in rolled)
        score = format_power(scores[key])
        world.outcomes.append(WarResult(0, war.name, side.name, tuple(members), dice, power,
                                        score, outcome))
        for member in members:
            ctx.emit(member, "war", f"war {war.name}: side {side.name} {outcome} with score "
                                    f"{score} ({dice or 'no dice'})")
