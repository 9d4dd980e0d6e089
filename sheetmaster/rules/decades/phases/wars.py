"""Step 5: wars (§15, §13, §10, §5, §14). Declarations in posting order; each war's sides
with their allies, its odds by the ratio of military strength, the outcome and the conquest
rolled; the victors owe their choice of provinces. Then last turn's national uprisings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal

from sheetmaster.kit import Context, Order, Status, Timer, values

from .. import reasons
from ..orders import ANNEX_LIST, DECLARE_WAR, REBEL_STRENGTH
from ..tables import State, WarRecord
from ..world import DecadesWorld
from .common import GUARDS
from .conquest import (
    CONQUEST_RULE,
    CONQUEST_TABLE,
    NOTHING,
    SATELLITE_WORDS,
    Claim,
    claim_on,
    owe_conquest,
    take_choices,
)
from .economy import ev
from .happiness import UPRISING
from .turmoil import free_provinces

WAR_RULE = (
    "War is calculated automatically by the ratios of military strength between combatants. If "
    "the two sides are within 25% of one another, then the war operates on a 1/3 chance of "
    "either victory, defeat, or white peace. If one side has 25% or more, the it operates on a "
    "1/2 chance of victory, 1/4 chance of white peace, or 1/4 chance of defeat. [...] Only one "
    "war may be started per continent, per alliance. Allies will only be called into wars on "
    "different continents following Enlightenment."
)
FAVOURED = Decimal("1.25")
#: F73: a victor's share of the allowance is cut to the cent below, never rounded up.
CENT = Decimal("0.01")
WHITE_PEACE = "white peace"


ANNEX_LIST_RULE = (
    "Victory has a 1/10 chance of allowing 100% in conquests [...]. Converting them to a "
    "satellite requires only 50% or higher. [...] Capital provinces (those marked with a black "
    "dot) may not be annexed unless their is no other choice. Annexations must be contiguous."
)


@dataclass
class AnnexList:
    """What a state posted, with the war, to annex if it wins against ``enemy`` (issue 29):
    provinces in their order, 'X as satellite' or 'nothing'; taken as the war is won."""

    order: Order
    actor: State
    enemy: State
    entries: list[str]
    #: the wars this turn with ``actor`` and ``enemy`` on opposite sides, and what the list
    #: did in each.
    wars: list[str] = field(default_factory=list)
    said: list[str] = field(default_factory=list)
    taken: bool = False
    refused: bool = False


@dataclass
class Taking:
    """A victory whose victor posted its list: taken once every war of the turn is fought."""

    posted: AnnexList
    war: str
    continent: str
    claims: list[Claim]
    losers: list[str]
    satellites: list[str]


@dataclass
class War:
    id: str
    continent: str
    attackers: list[State]
    defenders: list[State]
    row: int = 0
    note: list[str] = field(default_factory=list)


def fight_wars(ctx: Context) -> None:
    world: DecadesWorld = ctx.world
    strengths = rebel_strengths(ctx)
    lists = annex_lists(ctx, world)
    takings: list[Taking] = []
    for war in declarations(ctx, world):
        takings += fight(ctx, world, war, lists)
    for taking in takings:  # in the order they were won, as decisions are owed
        take_posted(ctx, world, taking)
    for posted in lists:
        close_list(ctx, posted)
    if ctx.timers is not None:
        for timer in ctx.timers.due(UPRISING):
            independence_war(ctx, world, timer, strengths.get(timer.owner))


def declarations(ctx: Context, world: DecadesWorld) -> list[War]:
    """§10 no war in an interregnum; §15 one war per continent per alliance (a state alone
    counts as its own, F69); F68 the continent. No state is ever on both sides (F64): a state
    is in one alliance at most, and no war is declared on an ally."""
    started: dict[tuple[str, str], int] = {}
    wars: list[War] = []
    for order in ctx.orders(DECLARE_WAR):
        actor = GUARDS.acting(ctx, order)
        target = actor and GUARDS.other_player(ctx, order, actor)
        if target is None:
            continue
        continent = order.fields.get("continent") or \
            world.provinces[target.capital].continent
        why = _refusal(world, actor, target, continent)
        alliance = world.alliance_of(actor)
        key = (alliance.name if alliance else actor.name, continent)
        if not why and key in started:
            why = reasons.ONE_WAR.say(who=key[0], continent=continent, row=started[key])
        if why:
            ctx.resolve(order, Status.REJECTED, why)
            continue
        started[key] = order.row
        war = War(f"W{ctx.turn}-{len(wars) + 1}", continent, _side(world, actor, continent),
                  _side(world, target, continent), order.row)
        attackers, defenders = war.attackers, war.defenders
        wars.append(war)
        ctx.resolve(order, Status.APPLIED, f"war {war.id} on {continent}: "
                                           f"{_names(attackers)} against {_names(defenders)}")
    return wars


def _refusal(world: DecadesWorld, actor: State, target: State, continent: str) -> str:
    if actor.interregnum:
        return reasons.INTERREGNUM.say(state=actor.name)
    if not any(p.continent == continent for p in world.provinces_of(target)):
        return reasons.NO_LAND_THERE.say(state=target.name, continent=continent)
    if target in world.allies(actor):
        return reasons.FRIEND.say(state=target.name, how="an ally", actor=actor.name)
    if actor.name in (target.union_with, target.overlord) or target.name == actor.union_with:
        how = "a satellite" if target.overlord == actor.name else "in personal union with one"
        return reasons.FRIEND.say(state=target.name, how=how, actor=actor.name)
    return ""


def _side(world: DecadesWorld, state: State, continent: str) -> list[State]:
    """The state and the allies called in: §15 "Allies will only be called into wars on
    different continents following Enlightenment" (the ally's home: its capital's)."""
    out = [state]
    for ally in world.allies(state):
        home = world.provinces[ally.capital].continent if ally.capital else ""
        if home == continent or world.enlightened(ally):
            out.append(ally)
    return out


def _names(side: list[State]) -> str:
    return ", ".join(s.name for s in side)


def odds(attack: Decimal, defend: Decimal) -> tuple[list[tuple[str, int]], str]:
    """F70: favoured iff the stronger side has at least 1.25 times the weaker's strength."""
    strong, weak = ("attackers", "defenders") if attack >= defend else ("defenders", "attackers")
    high, low = max(attack, defend), min(attack, defend)
    if high > 0 and high >= FAVOURED * low:
        return ([(f"{strong} win", 2), (WHITE_PEACE, 1), (f"{weak} win", 1)],
                f"{strong} 25% or more stronger ({ev(high)} against {ev(low)}): 1/2 victory, "
                f"1/4 white peace, 1/4 defeat")
    return ([("attackers win", 1), ("defenders win", 1), (WHITE_PEACE, 1)],
            f"within 25% of one another ({ev(attack)} against {ev(defend)}): 1/3 each")


def fight(ctx: Context, world: DecadesWorld, war: War,
          lists: Sequence[AnnexList] = ()) -> list[Taking]:
    """The war's odds, outcome and conquest roll; what its victors take by the lists they
    posted (returned, taken once every war is fought) or owe as a decision."""
    concerned = _concerning(lists, war)
    attack = sum((s.military for s in war.attackers), Decimal(0))
    defend = sum((s.military for s in war.defenders), Decimal(0))
    table, told = odds(attack, defend)
    ctx.emit(war.attackers[0].name, "war", f"war {war.id} on {war.continent}: {told}")
    outcome = ctx.dice.pick(table, war.attackers[0].name,
                            f"war {war.id} ({_names(war.attackers)} against "
                            f"{_names(war.defenders)})", name=f"war {war.id}")
    record = WarRecord(ctx.turn, war.id, _strengths(war.attackers), _strengths(war.defenders),
                       war.continent, attack, defend, told, outcome, "")
    world.wars.append(record)
    if outcome == WHITE_PEACE:
        ctx.emit(war.attackers[0].name, "war", f"war {war.id} ends in a white peace")
        _say(concerned, f"war {war.id} ends in a white peace")
        return []
    attackers_won = outcome == "attackers win"
    winners, losers = (war.attackers, war.defenders) if attackers_won else \
        (war.defenders, war.attackers)
    ctx.emit(winners[0].name, "war", f"war {war.id} is won by {_names(winners)}")
    _free_satellites(ctx, winners, losers)
    beaten = {s.name for s in losers}
    _say([p for p in concerned if p.actor.name in beaten], f"war {war.id} is lost")
    concerned = [p for p in concerned if p.actor.name not in beaten]
    if not attackers_won and all(world.tribal(w) for w in winners):
        ctx.emit(winners[0].name, "conquest", f"{_names(winners)}: Tribal, it cannot profit "
                                              f"from a defensive war")
        _say(concerned, f"war {war.id}: a Tribal defender cannot profit from a defensive war")
        return []
    percent = int(ctx.dice.pick([(f"{p}%", w) for p, w in CONQUEST_TABLE], winners[0].name,
                                f"conquest in war {war.id} (of the losers' value)",
                                name=f"conquest {war.id}")[:-1])
    total = sum(world.economic_value(s) for s in losers)
    allowance = Decimal(total) * percent / 100
    record.conquest = f"{percent}% of {total} = {ev(allowance)}"
    return _spoils(ctx, world, war, winners, losers, percent, allowance,
                   defensive=not attackers_won, lists=concerned)


def _strengths(side: list[State]) -> str:
    return ", ".join(f"{s.name} ({ev(s.military)})" for s in side)


def _shares(side: list[State]) -> dict[str, Decimal]:
    """§13 "liable for defeat or victory according to their contribution" (F63: strength)."""
    total = sum((s.military for s in side), Decimal(0))
    if not total:
        return {s.name: Decimal(1) / len(side) for s in side}
    return {s.name: s.military / total for s in side}


def _spoils(ctx: Context, world: DecadesWorld, war: War, winners: list[State],
            losers: list[State], percent: int, allowance: Decimal, *, defensive: bool,
            lists: Sequence[AnnexList] = ()) -> list[Taking]:
    """Each victor's claims on each loser: the allowance x both strength shares; a Tribal
    defender gains nothing (§5, F25); a satellite beating its overlord goes free (§14). A
    victor that posted its list takes by it (returned); any other owes its choice."""
    win_share, lose_share = _shares(winners), _shares(losers)
    takings: list[Taking] = []
    for winner in winners:
        mine = [p for p in lists if p.actor is winner]
        posted = mine[0] if mine else None
        _say(mine[1:], f"war {war.id}: taken by the list of row {posted.order.row}"
             if posted else "")
        if defensive and world.tribal(winner):
            ctx.emit(winner.name, "conquest", f"{winner.name} is Tribal and cannot profit from "
                                              f"a defensive war")
            _say([posted] if posted else [], f"war {war.id}: {winner.name} is Tribal and "
                                             f"cannot profit from a defensive war")
            continue
        claims = [claim_on(world, loser, (allowance * win_share[winner.name] *
                                          lose_share[loser.name]).quantize(CENT, ROUND_DOWN),
                           percent)
                  for loser in losers if loser.alive]
        claims = [c for c in claims if c.allowance > 0 or (percent >= 50 and c.single)]
        satellites = [loser.name for loser in losers if percent >= 50 and loser.alive
                      and loser.overlord != winner.name and not loser.overlord]
        if posted is None:
            owe_conquest(ctx, war.id, winner, claims, war.continent, satellites)
        else:
            takings.append(Taking(posted, war.id, war.continent, claims,
                                  [loser.name for loser in losers], satellites))
    return takings


def annex_lists(ctx: Context, world: DecadesWorld) -> list[AnnexList]:
    """The lists posted with the wars, their entries read: provinces, 'X as satellite',
    'nothing' (issue 29)."""
    names = world.names()
    out: list[AnnexList] = []
    for order in ctx.orders(ANNEX_LIST):
        actor = GUARDS.acting(ctx, order)
        enemy = actor and GUARDS.other_player(ctx, order, actor)
        if enemy is None:
            continue
        entries: list[str] = []
        for entry in values.name_list(order.fields["province"]):
            folded = values.fold(entry)
            state = names["player"].get(entry[:-len(SATELLITE_WORDS)]) \
                if folded.endswith(SATELLITE_WORDS) else None
            read = NOTHING if folded == NOTHING else \
                f"{state}{SATELLITE_WORDS}" if state else names["province"].get(entry)
            if read is None:
                ctx.resolve(order, Status.REJECTED, reasons.NOT_A_CHOICE.say(entry=entry))
                break
            entries.append(read)
        else:
            out.append(AnnexList(order, actor, enemy, entries))
    return out


def take_posted(ctx: Context, world: DecadesWorld, taking: Taking) -> None:
    """The victor's list, taken as its answer would be (:func:`take_choices`): its entries
    on the war's continent, of its losers; the rest is for another war, or nothing."""
    posted = taking.posted
    ours = [e for e in posted.entries if e == NOTHING or (
        e[:-len(SATELLITE_WORDS)] in taking.losers if e.endswith(SATELLITE_WORDS)
        else world.provinces[e].continent == taking.continent)]
    ctx.emit(posted.actor.name, "conquest", f"{posted.actor.name} takes what it posted with "
                                            f"war {taking.war}: {', '.join(ours) or NOTHING}")
    taken, refused = take_choices(ctx, posted.actor, {c.loser: c for c in taking.claims},
                                  taking.continent, f"war {taking.war}", ours,
                                  taking.satellites)
    posted.taken = posted.taken or bool(taken) or NOTHING in ours
    posted.refused = posted.refused or bool(refused)
    said = f"war {taking.war}: {', '.join(taken) or 'nothing'} taken"
    posted.said.append(said + (f"; not {'; '.join(refused)}" if refused else ""))


def close_list(ctx: Context, posted: AnnexList) -> None:
    """A list's result: taken (in part), refused, or not needed when no war was won."""
    if not posted.wars:
        ctx.resolve(posted.order, Status.REJECTED, reasons.NO_SUCH_WAR.say(
            state=posted.actor.name, enemy=posted.enemy.name))
        return
    status = Status.NOT_NEEDED if not (posted.taken or posted.refused) else \
        Status.REJECTED if not posted.taken else \
        Status.PARTIAL if posted.refused else Status.APPLIED
    ctx.resolve(posted.order, status, "; ".join(posted.said))


def _concerning(lists: Sequence[AnnexList], war: War) -> list[AnnexList]:
    """The lists posted by a state of one side of the war against one of the other; each
    notes the war."""
    attackers = {s.name for s in war.attackers}
    defenders = {s.name for s in war.defenders}
    out = [p for p in lists if (p.actor.name in attackers and p.enemy.name in defenders)
           or (p.actor.name in defenders and p.enemy.name in attackers)]
    for posted in out:
        posted.wars.append(war.id)
    return out


def _say(lists: Sequence[AnnexList], text: str) -> None:
    for posted in lists:
        posted.said.append(text)


def _free_satellites(ctx: Context, winners: list[State], losers: list[State]) -> None:
    """§14 "winning a war against them counts as consent"."""
    beaten = {s.name for s in losers}
    for winner in winners:
        if winner.overlord in beaten:
            ctx.emit(winner.name, "satellite", f"{winner.name} beat its overlord "
                                               f"{winner.overlord}: it is a satellite no more")
            ctx.world.set_overlord(winner, "")


def rebel_strengths(ctx: Context) -> dict[str, Decimal]:
    """GM: the rebels' strength in a state's independence war this turn (F40)."""
    due = {t.owner for t in ctx.timers.due(UPRISING)} if ctx.timers is not None else set()
    out: dict[str, Decimal] = {}
    for order in ctx.orders(REBEL_STRENGTH):
        state = GUARDS.acting(ctx, order)
        if state is None:
            continue
        if state.name not in due:
            ctx.resolve(order, Status.REJECTED, reasons.NO_UPRISING.say(state=state.name))
            continue
        out[state.name] = order.fields["amount"]
        said = f"the rebels fight {state.name} with {ev(order.fields['amount'])}"
        ctx.resolve(order, Status.APPLIED, said)
        ctx.emit(state.name, "war", f"the GM: {said}")
    return out


def independence_war(ctx: Context, world: DecadesWorld, timer: Timer,
                     strength: Decimal | None) -> None:
    """F40: the risen provinces still held fight as a rebel side of their value (or the GM's
    figure), by the same odds; if they win they form a new state (F5)."""
    state = world.states.get(timer.owner)
    names = [n for n in timer.details.get("provinces", "").split(", ") if n]
    rebels = [world.provinces[n] for n in names if n in world.provinces
              and state is not None and world.provinces[n].owner == state.name]
    if state is None or not state.alive or not rebels:
        ctx.timers.complete(timer, "the rising is over: none of its provinces is held")
        return
    if strength is None:
        strength = Decimal(sum(world.value(p) for p in rebels))
    table, told = odds(strength, state.military)
    ctx.emit(state.name, "war", f"the rebels of {', '.join(p.name for p in rebels)} against "
                                f"{state.name}: {told}")
    outcome = ctx.dice.pick(table, state.name, f"the independence war in {state.name}",
                            name=f"independence war {state.name}")
    war_id = f"W{ctx.turn}-rebels-{state.name}"
    world.wars.append(WarRecord(ctx.turn, war_id, f"rebels of {', '.join(p.name for p in rebels)}"
                                f" ({ev(strength)})", _strengths([state]), rebels[0].continent,
                                strength, state.military, told, outcome, ""))
    if outcome == "attackers win":
        made = free_provinces(ctx, state, rebels, "won their independence war")
        ctx.timers.complete(timer, f"the rebels win: {_names(made)}")
    else:
        ctx.timers.complete(timer, f"the rebels lose ({outcome})" if outcome != WHITE_PEACE
                            else "white peace: nothing changes")


__all__ = ["CONQUEST_RULE", "WAR_RULE", "fight_wars", "odds"]
