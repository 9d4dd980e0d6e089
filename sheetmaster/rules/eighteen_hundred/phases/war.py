"""Round step 4, the war: the nations at war take turns making actions, from the dealer's
left, each up to its war actions; battles begun by moves are fought after the last action
(:mod:`.battles`)."""

from __future__ import annotations

from sheetmaster.kit import WARNING, Order, Status, round_robin

from .. import reasons as r
from ..data import GLOBAL_EVENT
from ..orders import CONSCRIPT, PASS, PLAY_MILITARY, WAR_KINDS, WAR_MOVE
from ..tables import MILITARY_PILE
from ..world import BattleHere, Ctx, EighteenWorld, war_actions
from .board import conscript, free_pops
from .piles import leave_hand
from .rewards import record_aggression

WAR_RULE = (
    "During a war, players involved in a war take turns making actions, starting with the "
    "player to the left of the dealer. Each player may make a number of actions determined by "
    "their communication technology. ... When a player runs out of actions, if other players "
    "still have actions, that player must pass their turn while other players continue to play "
    "in the same order."
)
MOVE_RULE = (
    "Move a regiment to an adjacent province. You may not move a regiment onto a province with "
    "a regiment belonging to you or to a nation that is not involved in the war. You may, "
    "however, move your regiment onto a province in which there is one regiment belonging to "
    "another player involved in the war. If you do this, a battle is initiated. You may not "
    "move a regiment involved in a battle."
)


def enemies(world: EighteenWorld) -> dict[str, set[str]]:
    """Who is at war with whom this round: each declarer and its target (F45); in a Great
    War, every nation with every other."""
    event = world.event_in_force()
    if event is not None and event.deck == GLOBAL_EVENT and \
            any(e.name == "great war" for e in event.effects):
        names = set(world.nations)
        return {n: names - {n} for n in names}
    out: dict[str, set[str]] = {}
    for war in world.wars:
        if war.round == world.round:
            out.setdefault(war.declarer, set()).add(war.target)
            out.setdefault(war.target, set()).add(war.declarer)
    return out


def war_order(world: EighteenWorld) -> list[str]:
    """The involved nations, from the dealer's left (L103)."""
    foes = enemies(world)
    return [n for n in world.turn_order() if foes.get(n)]


def fight_the_war(ctx: Ctx) -> None:
    """F48: every posted action takes its turn in the schedule, a rejected one too (it is a
    pass); a nation that posted fewer passes the rest; rows beyond its actions are
    rejected."""
    world = ctx.world
    foes, order = enemies(world), war_order(world)
    actions = {n: war_actions(world, n) for n in order}
    posted = ctx.orders(*WAR_KINDS)
    for o in posted:
        if o.player not in actions:
            ctx.resolve(o, Status.REJECTED, r.NOT_AT_WAR.say())
    ctx.emit("", "war", f"the war of round {world.round}: " + (", ".join(
        f"{n} ({actions[n]} actions)" for n in order) or "nobody fights"))
    warn_the_unarmed(ctx, actions)
    for o in round_robin(posted, order, actions):
        _act(ctx, o.player, o, foes[o.player])
    for o in posted:
        if ctx.resolved(o) is None:
            ctx.resolve(o, Status.REJECTED, r.BEYOND.say(actions=actions[o.player]))


def warn_the_unarmed(ctx: Ctx, actions: dict[str, int]) -> None:
    """A nation at war whose cards and global event give it no war actions can do nothing in
    the war: ``check`` says so (a public warning, from public cards alone), not only by
    refusing its war orders (issue 29.9)."""
    for nation, count in actions.items():
        if count < 1:
            ctx.emit(nation, WARNING, f"{nation} is at war in round {ctx.world.round} but has "
                     f"no war actions (its communication technology and the global event give "
                     f"it none): it can take no action in this war, and its war orders are "
                     f"refused")


def _act(ctx: Ctx, nation: str, order: Order, foes: set[str]) -> None:
    handler = {WAR_MOVE: _move, CONSCRIPT: _conscript, PLAY_MILITARY: _play,
               PASS: lambda *_: "passed"}[order.kind]
    outcome = handler(ctx, nation, order, foes)
    if outcome.startswith("!"):
        ctx.resolve(order, Status.REJECTED, outcome[1:])
    else:
        ctx.resolve(order, Status.APPLIED, outcome)


def _battle_at(world: EighteenWorld, province: str) -> BattleHere | None:
    return next((b for b in world.fighting if b.province == province), None)


def _move(ctx: Ctx, nation: str, order: Order, foes: set[str]) -> str:
    world = ctx.world
    start, to = order.fields["province"], order.fields["to"]
    here, there = world.provinces[start], world.provinces[to]
    fight = _battle_at(world, start)
    problem = (
        r.IN_BATTLE.say(province=start) if fight and nation in (fight.attacker, fight.defender)
        else r.NO_OWN_REGIMENT.say(province=start) if here.regiment != nation else
        r.CONSCRIPTED.say() if here.conscripted else
        r.NOT_ADJACENT.say(to=to, province=start) if not world.map.adjacent(start, to) else
        r.BATTLE_THERE.say(to=to) if _battle_at(world, to) else
        r.OCCUPIED.say(holder="yours", to=to, why="") if there.regiment == nation else
        r.NOT_INVOLVED.say(holder=there.regiment, to=to)
        if there.regiment and there.regiment not in foes else "")
    if problem:
        return "!" + problem
    held_by = world.controller(to)
    here.regiment = ""
    if held_by and held_by != nation:
        record_aggression(ctx, nation, held_by, f"a regiment entered {to}")
    if there.regiment:
        world.fighting.append(BattleHere(to, nation, there.regiment, start))
        ctx.emit(nation, "battle", f"{nation} moves a regiment from {start} into {to}, held "
                 f"by {there.regiment}'s regiment: a battle")
        return f"moved from {start} into {to}: a battle with {there.regiment}"
    there.regiment, there.conscripted = nation, False
    ctx.emit(nation, "war move", f"{nation} moves a regiment from {start} to {to}")
    return f"moved from {start} to {to}"


def _conscript(ctx: Ctx, nation: str, order: Order, foes: set[str]) -> str:
    """F51: on an own pop not conscripted yet, where no regiment stands."""
    world = ctx.world
    province = order.fields["province"]
    row = world.pops_at(province, nation)
    here = world.provinces[province]
    if row is None or free_pops(row) < 1:
        return "!" + r.NO_POP.say(province=province)
    if here.regiment:
        return "!" + r.OCCUPIED.say(holder=here.regiment, to=province, why="")
    conscript(world, nation, province)
    ctx.emit(nation, "conscript", f"{nation} conscripts a regiment in {province}")
    return f"a conscripted regiment stands in {province}"


def _play(ctx: Ctx, nation: str, order: Order, foes: set[str]) -> str:
    world = ctx.world
    name, province = order.fields["card"], order.fields.get("province") or ""
    held = next((h for h in world.hand(nation, MILITARY_PILE) if h.card == name), None)
    if held is None:
        return "!" + r.NOT_IN_HAND.say(pile="military", card=name)
    bonuses = [e for e in world.cards[name].effects if e.name == "battle bonus"]
    if any(e.word == "marked" for e in bonuses) and not province:
        return "!" + r.MARKS.say(card=name)
    leave_hand(ctx, held, "played")
    for bonus in bonuses:
        world.war_cards.setdefault(nation, []).append((bonus, province))
    where = f", marking {province}" if province else ""
    ctx.emit(nation, "military card", f"{nation} plays {name}{where}")
    return f"played {name}{where}"
