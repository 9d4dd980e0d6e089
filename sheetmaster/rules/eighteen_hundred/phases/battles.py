"""The battles begun in the war, fought after every action (L109-115): scores from support,
technology and cards; ties by pops, then by who acted first; the loser's regiment removed,
and a military card for the loser. Then the round ends."""

from __future__ import annotations

from ..data import Effect
from ..tables import MILITARY_PILE, Battle
from ..world import BattleHere, Ctx, EighteenWorld
from .board import lose_regiment
from .piles import deal
from .rounds import end_round
from .war import war_order

BATTLE_RULE = (
    "Each player calculates their battle score as follows: Count the number of supporting "
    "regiments, where a supporting regiment is defined as a regiment that is adjacent to the "
    "battle but is *not* adjacent to any other battles involving your regiments. Add any "
    "bonuses from you Military Technology. Add any bonuses from Military Cards. The player with "
    "the highest score wins the battle. If both players have the same score, the player with "
    "the most pops in the province (not including regiments) wins. If both players have the "
    "same score and the same number of pops in the province, the player who took their action "
    "first in the war wins. The losing regiment is removed from the board. If it was a "
    "conscripted regiment, remove the conscripted pop as well. Then, the losing player draws a "
    "military card."
)


def support(world: EighteenWorld, nation: str, battle: BattleHere) -> int:
    """F52: the nation's regiments next to the battle, in no battle themselves and next to no
    other battle its regiments fight; the two battling nations' only, each for itself."""
    mine = {b.province for b in world.fighting if nation in (b.attacker, b.defender)}
    fought = {b.province for b in world.fighting}
    count = 0
    for province in world.map.neighbours(battle.province):
        if world.provinces[province].regiment != nation or province in fought:
            continue
        others = mine - {battle.province}
        if not any(world.map.adjacent(province, o) for o in others):
            count += 1
    return count


def bonus(world: EighteenWorld, nation: str, battle: BattleHere, attacking: bool) -> int:
    """F56: technology (and the global event) in every battle, 'attack' / 'defence' ones on
    that side only; military cards in every battle of the war, 'marked' ones in the marked
    province only."""
    side = "attack" if attacking else "defence"

    def counts(effect: Effect, marked: str = "") -> bool:
        if effect.name != "battle bonus":
            return False
        if effect.word == "marked":
            return marked == battle.province
        return effect.word in ("", side)

    tech = sum(e.amount for e in world.effects(nation) if counts(e))
    cards = sum(e.amount for e, where in world.war_cards.get(nation, ()) if counts(e, where))
    return tech + cards


def resolve_battles(ctx: Ctx) -> None:
    """F53: every score is worked out on the board as the last action left it, then every
    loser is removed."""
    world = ctx.world
    order = war_order(world)
    outcomes = []
    for battle in world.fighting:
        a = support(world, battle.attacker, battle) + bonus(world, battle.attacker, battle, True)
        d = support(world, battle.defender, battle) + bonus(world, battle.defender, battle,
                                                            False)
        pops = {n: world.pop_count(battle.province, n) for n in (battle.attacker,
                                                                  battle.defender)}
        if a != d:
            winner, how = (battle.attacker, battle.defender)[a < d], f"score {a} to {d}"
        elif pops[battle.attacker] != pops[battle.defender]:
            winner = max(pops, key=pops.get)
            how = f"score {a} to {d}; more pops in {battle.province} ({pops[battle.attacker]} " \
                  f"to {pops[battle.defender]})"
        else:
            winner = min((battle.attacker, battle.defender), key=order.index)
            how = f"score {a} to {d}, pops {pops[winner]} each; {winner} acted first in the war"
        outcomes.append((battle, a, d, winner, how))
    for battle, a, d, winner, how in outcomes:
        loser = battle.defender if winner == battle.attacker else battle.attacker
        lost = "its regiment"
        if loser == battle.defender:
            lost = lose_regiment(world, battle.province)
            world.provinces[battle.province].regiment = battle.attacker
        world.battles.append(Battle(world.round, battle.province, battle.attacker,
                                    battle.defender, a, d, winner, loser, how))
        ctx.emit(winner, "battle won", f"{winner} wins the battle for {battle.province} "
                 f"({how}); {loser} loses {lost}")
        deal(ctx, loser, MILITARY_PILE, 1, f"the battle lost in {battle.province}")
    world.fighting.clear()


def end_the_war(ctx: Ctx) -> None:
    end_round(ctx)
