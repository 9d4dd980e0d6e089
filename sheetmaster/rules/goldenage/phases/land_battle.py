"""Step 8: land actions and movement by foot or landship, all at once.

Every move is decided together, after Diplomacy's rules generalised to forces (all the units
of one nation in one province doing one thing): a move enters its destination if its attack
beats the strength of the forces there it attacks (and a capital's garrison), the defence of
a hostile force coming the other way, and every hostile move into the same province. Dice
are rolled before anything is decided: one set per unit that may fight. A move that meets
none of these is no combat: it rolls nothing, needs no combat setting and enters whatever
its strength (digest F33: "without a combat roll ... combat needs two sides").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sheetmaster.kit import Adjudicator, Context, Status

from .. import data
from ..settings import (
    COASTAL_SUPPORT,
    DEFENSIVE_SUPPORT,
    DICE,
    ENTRENCH_BONUS,
    FORT_BONUS,
    LAND_DIE,
    NORTHERN_PENALTY,
    STRENGTH,
    number,
)
from ..tables import Unit
from ..world import GoldenWorld
from .common import turn_state
from .land_orders import INVADE, MARCH, Cut, LandPlan, Move, Support, plan_move, side

LAND_RULE = (
    "Land actions and movement by foot or landship (marching and invading). Invade: Hostile "
    "movement. Infantry enter a tile and initiate combat. Attacking an enemy force prevents "
    "that force from providing any support during that turn. Offensive Support: Infantry "
    "supports an invasion order executed by another unit by performing a supporting attack on "
    "forces in an adjacent province, without moving. If the supported forces do not invade, "
    "no supporting attack occurs. If the supporting Infantry are engaged by another force, "
    "the support order is blocked. Defensive Support: Infantry support targeted forces in an "
    "adjacent province. Targeted forces receive a positive combat modifier during any "
    "engagements that turn.")


@dataclass
class Battlefield:
    """Every move and staying force of the turn, indexed for the adjudicator."""

    ctx: Context
    moves: list[Move]
    plan: LandPlan
    #: province -> side -> the units of that side staying there.
    stays: dict[str, dict[str, list[Unit]]] = field(default_factory=dict)
    into: dict[str, list[Move]] = field(default_factory=dict)
    out_of: dict[str, list[Move]] = field(default_factory=dict)
    by_unit: dict[str, Move] = field(default_factory=dict)
    rolls: dict[str, list[int]] = field(default_factory=dict)
    garrisons: dict[str, tuple[str, str, int, list[int]]] = field(default_factory=dict)
    success: dict[str, bool] = field(default_factory=dict)
    #: move key -> why it did not enter (None if it did).
    reasons: dict[str, str | None] = field(default_factory=dict)
    #: move key -> (strength it had to beat where it went, whose), as last decided.
    opposition: dict[str, tuple[int, list[str]]] = field(default_factory=dict)
    _strength: dict[str, int] = field(default_factory=dict)
    _settings: dict[str, int] = field(default_factory=dict)
    #: read once, not for each move (issue 26.1): the supports by the unit they support,
    #: the first cut of each (side, province), the first nation whose capital each is
    _supports_of: dict[str, list[Support]] | None = None
    _cuts: dict[tuple[str, str], Cut] | None = None
    _capitals: dict[str, str] | None = None

    def __post_init__(self) -> None:
        world: GoldenWorld = self.ctx.world
        for move in self.moves:
            self.into.setdefault(move.dest, []).append(move)
            self.out_of.setdefault(move.origin, []).append(move)
            for unit in move.units:
                self.by_unit[unit] = move
        for unit in world.units.values():
            if unit.at_sea or unit.aboard or unit.name in self.by_unit:
                continue
            self.stays.setdefault(unit.at, {}).setdefault(side(unit), []).append(unit)

    # -- settings, read only when a fight needs them ----------------------------------------
    def setting(self, name: str) -> int:
        if name not in self._settings:
            self._settings[name] = int(self.ctx.setting(name))
        return self._settings[name]

    # -- who fights whom ----------------------------------------------------------------------
    def fight(self, a: Move, b: Move) -> bool:
        """Two moves fight when they meet: at war, or one attacks the other's nation."""
        return a.nation != b.nation and (self.ctx.world.at_war(a.nation, b.nation) or
                                         b.nation in a.targets or a.nation in b.targets)

    def opposed(self, move: Move) -> bool:
        """Whether anything may stand against the move where it goes: forces there that it
        attacks (staying, or leaving but perhaps bounced back), a capital's garrison of at
        least one unit, a hostile force coming the other way, a hostile move into the same
        province. A move that is not opposed cannot fail, so it never fights, not even at
        home (it has left)."""
        where = move.dest
        if any(who in move.targets for who in self.stays.get(where, {})):
            return True
        if any(o.nation in move.targets or (o.dest == move.origin and self.fight(move, o))
               for o in self.out_of.get(where, ())):
            return True
        if any(self.fight(move, o) for o in self.into[where] if o is not move):
            return True
        return self.garrison_of(where) in move.targets

    def garrison_of(self, where: str) -> str:
        """The nation whose capital ``where`` is, if its garrison has a unit ('' if not):
        "Number of garrison units is equal to the economic value of the province" (F33)."""
        world: GoldenWorld = self.ctx.world
        if self._capitals is None:  # no capital moves while the moves are decided
            self._capitals = {}
            for nation in world.nations.values():
                self._capitals.setdefault(nation.capital, nation.name)
        found = self._capitals.get(where)
        if found is None:
            return ""
        return found if world.economic_value(where) > 0 else ""

    def engaged(self) -> list[Unit]:
        """The units that may fight this turn (their dice are rolled before anything is
        decided): opposed moves, the forces they attack, and offensive supports of opposed
        invasions."""
        world: GoldenWorld = self.ctx.world
        out: set[str] = set()
        opposed = {m.key for m in self.moves if self.opposed(m)}
        for move in self.moves:
            if move.key not in opposed:
                continue
            out.update(move.units)
            for who, units in self.stays.get(move.dest, {}).items():
                if who in move.targets:
                    out.update(u.name for u in units)
        for support in self.plan.supports:
            move = self.by_unit.get(support.of)
            if support.offensive and move is not None and move.key in opposed and \
                    move.mode == INVADE and move.dest == support.to:
                out.add(support.unit.name)
        return [u for u in world.unit_rows if u.name in out]

    def roll_dice(self) -> None:
        """One roll per die of every unit that may fight, and of every garrison that may."""
        world: GoldenWorld = self.ctx.world
        for unit in self.engaged():
            dice = int(number(self.ctx, unit.type, unit.tech, DICE))
            self.rolls[unit.name] = [
                self.ctx.dice.roll(self.setting(LAND_DIE), side(unit),
                                   f"combat: {unit.name} ({unit.type})",
                                   name=f"combat {unit.name}") for _ in range(dice)]
        for nation in world.nations.values():
            where = nation.capital
            if where and self.garrison_of(where) == nation.name and \
                    any(nation.name in m.targets for m in self.into.get(where, ())):
                kind = data.INFANTRY if nation.tech <= 2 else data.CONSCRIPT
                count = world.economic_value(where)
                dice = int(number(self.ctx, kind, nation.tech, DICE)) * count
                rolls = [self.ctx.dice.roll(self.setting(LAND_DIE), nation.name,
                                            f"combat: the garrison of {where}",
                                            name=f"garrison {where}") for _ in range(dice)]
                self.garrisons[where] = (nation.name, kind, count, rolls)

    # -- strengths ------------------------------------------------------------------------------
    def unit_value(self, unit: Unit) -> int:
        rolls = self.rolls.get(unit.name, [])
        penalty = data.LANDING_PENALTY * len(rolls) if unit.penalised else 0
        return int(number(self.ctx, unit.type, unit.tech, STRENGTH)) + sum(rolls) - penalty

    def support_cut(self, support: Support) -> str:
        """Why a support is cut ('' if it is not): its unit is attacked, or cut."""
        unit = support.unit
        for move in self.into.get(unit.at, ()):
            if unit.nation in move.targets:
                return f"support cut: {unit.name} was attacked by {move.nation} from " \
                       f"{move.origin}"
        if self._cuts is None:  # the orders are read: the cuts are all known
            self._cuts = {}
            for each in self.plan.cuts:
                self._cuts.setdefault((each.side, each.province), each)
        cut = self._cuts.get((unit.nation, unit.at))
        if cut is not None:
            return f"support cut by {cut.unit.name} ({cut.unit.nation}) from {cut.unit.at}"
        return ""

    def supports_of(self, names: Iterable[str]) -> list[Support]:
        """The supports given to these units (each once), however many supports there are."""
        if self._supports_of is None:
            self._supports_of = {}
            for support in self.plan.supports:
                self._supports_of.setdefault(support.of, []).append(support)
        return [s for name in dict.fromkeys(names) for s in self._supports_of.get(name, ())]

    def offensive_given(self, support: Support) -> str:
        """Why an offensive support gives nothing ('' if it is given)."""
        move = self.by_unit.get(support.of)
        if move is None or move.mode != INVADE or move.dest != support.to:
            return f"the supported forces ({support.of}) did not invade {support.to}, so no " \
                   "supporting attack occurs"
        return self.support_cut(support)

    def _bonuses(self, units: list[Unit]) -> int:
        names = {u.name for u in units}
        out = 0
        given = [s for s in self.supports_of(names) if not s.offensive and
                 not self.support_cut(s)]
        if given:
            out += self.setting(DEFENSIVE_SUPPORT) * len(given)
        coastal = sum(len(turn_state(self.ctx).coastal_support.get(n, ())) for n in names)
        if coastal:
            out += self.setting(COASTAL_SUPPORT) * coastal
        return out

    def move_strength(self, move: Move) -> int:
        """A move's attack (and defence in a head-on battle, and its strength against other
        moves into the same province)."""
        if move.key not in self._strength:
            world: GoldenWorld = self.ctx.world
            units = [world.units[u] for u in move.units]
            total = sum(self.unit_value(u) for u in units) + self._bonuses(units)
            for support in self.supports_of(move.units):
                if support.offensive and not self.offensive_given(support):
                    total += self.unit_value(support.unit)
            if world.provinces[move.dest].northern and self.ctx.date.season == "Winter":
                total -= self.setting(NORTHERN_PENALTY)
            self._strength[move.key] = max(0, total)
        return self._strength[move.key]

    def fought(self, move: Move) -> bool:
        """Whether the move met someone: its strength was weighed against another's."""
        return move.key in self._strength

    def hold_strength(self, where: str, who: str, units: list[Unit]) -> int:
        world: GoldenWorld = self.ctx.world
        total = sum(self.unit_value(u) for u in units) + self._bonuses(units)
        dug_in = sum(u.type == data.INFANTRY and u.posture == "entrenched" for u in units)
        if dug_in:
            total += self.setting(ENTRENCH_BONUS) * dug_in
        fort = world.fort(where)
        province = world.provinces[where]
        if fort is not None and fort.active and province.owner == who and \
                not province.occupied_by:
            total += self.setting(FORT_BONUS)
        return max(0, total)

    def bounced_strength(self, move: Move) -> int:
        units = [self.ctx.world.units[u] for u in move.units]
        return max(0, sum(self.unit_value(u) for u in units) + self._bonuses(units))

    def garrison_strength(self, where: str) -> int:
        nation, kind, count, rolls = self.garrisons[where]
        tech = self.ctx.world.nations[nation].tech
        return count * (int(number(self.ctx, kind, tech, STRENGTH)) +
                        self.setting(ENTRENCH_BONUS)) + sum(rolls)

    def holders(self, move: Move, adj: Adjudicator[str] | None, exclude: Move | None = None
                ) -> tuple[int, list[str]]:
        """The strength of what ``move`` must beat where it goes, and whose it is: the forces
        there it attacks, those of them whose own move failed, a capital's garrison."""
        where = move.dest
        total, names = 0, []
        for who, units in self.stays.get(where, {}).items():
            if who in move.targets:
                total += self.hold_strength(where, who, units)
                names.append(who)
        for other in self.out_of.get(where, ()):
            if other is not exclude and other.nation in move.targets and \
                    (adj is None or not adj.resolve(other.key)):
                total += self.bounced_strength(other)
                names.append(other.nation)
        if where in self.garrisons and self.garrisons[where][0] in move.targets:
            total += self.garrison_strength(where)
            names.append(f"the garrison of {where}")
        return total, list(dict.fromkeys(names))

    # -- the decision -----------------------------------------------------------------------
    def head_on(self, move: Move) -> Move | None:
        return next((n for n in self.out_of.get(move.dest, ()) if n.dest == move.origin and
                     self.fight(move, n)), None)

    def why_not(self, move: Move, adj: Adjudicator[str]) -> str | None:
        """Why the move does not enter its destination (None if it does). Its strength is
        worked out only against something that stands against it: with no defender and no
        rival it enters, whatever its strength (digest F33)."""
        head = self.head_on(move)
        if head is not None:
            attack, defend = self.move_strength(move), self.move_strength(head)
            if attack <= defend:
                return f"bounced head-on: {head.nation}'s forces moved from {move.dest} to " \
                       f"{move.origin} ({_against(attack, defend)})"
        hold, names = self.holders(move, adj, exclude=head)
        self.opposition[move.key] = (hold, names)
        if names and self.move_strength(move) <= hold:
            attack = self.move_strength(move)
            return f"bounced: {', '.join(names)} held {move.dest} ({_against(attack, hold)})"
        for other in self.into[move.dest]:
            if other is move or not self.fight(move, other):
                continue
            attack = self.move_strength(move)
            prevent = 0 if self._lost_head_on(other, adj) else self.move_strength(other)
            if attack <= prevent:
                return f"bounced: {other.nation}'s forces also moved into {move.dest} " \
                       f"({_against(attack, prevent)})"
        return None

    def _lost_head_on(self, move: Move, adj: Adjudicator[str]) -> bool:
        head = self.head_on(move)
        return head is not None and adj.resolve(head.key)


def _against(ours: int, theirs: int) -> str:
    return f"{ours} against {theirs}" if ours != theirs else f"{ours} against {theirs}, " \
                                                             "equal strength"


def move_land_units(ctx: Context) -> None:
    """Landings from the sea join the land moves; dice are rolled; every move is decided at
    once; units that entered move (step 9 settles the battles' losers)."""
    state = turn_state(ctx)
    plan: LandPlan = state.land
    moves = list(plan.moves.values()) + _landings(ctx)
    _declare_wars(ctx, moves)
    field_ = Battlefield(ctx, moves, plan)
    state.battlefield = field_
    if not moves:
        return
    field_.roll_dice()
    keyed = {m.key: m for m in moves}
    adj = Adjudicator(lambda key, a: field_.why_not(keyed[key], a) is None)
    field_.success = adj.run(keyed)
    field_.reasons = {k: field_.why_not(keyed[k], adj) for k in keyed}


def _declare_wars(ctx: Context, moves: list[Move]) -> None:
    """ "An `attack` or `invade` against a nation at peace puts both at war from that turn"
    (digest F32)."""
    world: GoldenWorld = ctx.world
    for move in moves:
        for target in sorted(move.targets):
            if world.declare_war(move.nation, target):
                ctx.emit(move.nation, "war", f"{move.nation} is at war with {target}: it "
                         f"invades {move.dest}")


def _landings(ctx: Context) -> list[Move]:
    """Troops put ashore without a friendly port land as a march or an invasion, take no
    orders, and fight at -3 to each die (the source's Disembark Land Forces)."""
    world: GoldenWorld = ctx.world
    out: list[Move] = []
    for landing in turn_state(ctx).landings:
        units = [u for u in landing.units if u in world.units and world.units[u].aboard]
        if not units:
            ctx.resolve(landing.order, Status.BLOCKED, "no troops left aboard to land")
            continue
        mode = INVADE if landing.intent == "invade" else MARCH
        province = world.provinces[landing.to]
        if mode == INVADE and province.holder == landing.nation and not any(
                world.at_war(landing.nation, side(u)) for u in world.land_units_in(landing.to)):
            mode = MARCH
        move, why = plan_move(world, landing.nation, landing.zone, landing.to, mode,
                              landing.order, units, target=landing.target)
        if why:
            ctx.resolve(landing.order, Status.REJECTED, why)
            continue
        move.landing = landing
        for name in units:
            world.units[name].penalised = True
            world.units[name].no_orders = "landed without a friendly port"
        out.append(move)
    return out
