"""Diplomacy-style land moves, all orders resolved at once (the DATC's rules, without convoys).

Every unit stands alone in its province and has exactly one order (the orders are the
board: give an idle unit a hold): hold, move, support a unit holding, support a unit moving,
or cut (attack a neighbour only to cut the supports it gives: the cutter never moves and never
dislodges). Strengths, after the DATC:

- a move's **attack** is 1 + its supports that are given; against a unit that stays where it
  is, supports from that unit's owner do not count, and against a unit of its own owner the
  attack is 0 (no unit dislodges, or helps dislodge, a unit of its own owner);
- a province's **hold** strength is 0 if empty or left, 1 for a unit whose move failed, else
  1 + the hold supports it is given;
- in a head-to-head battle (two units moving into each other's province; there are no
  convoys, so they never swap) an attack must beat the other move's **defend** strength,
  1 + its supports;
- every other move to the same province opposes it with its **prevent** strength, 1 + its
  supports, or 0 if it lost a head-to-head battle.

A move succeeds if its attack beats the hold (or defend) strength and every prevent strength.
A support is given unless the supported unit is not doing what it supports (a hold support
given to a unit ordered to move, a move support to a move not ordered), or it is cut: by an
attack of another owner's unit from any province other than the one the support is aimed at,
by another owner's cut order (from any province: ``CUT_RULE``), or by being dislodged. A
rotation of three or more units moves unless something enters it (the cycle goes to the
adjudicator's backup rule).

The module assumes valid orders: rejecting orders for absent units, and moves, supports and
cuts to provinces they cannot reach, is the caller's job. It raises ValueError on input no valid
turn has (two orders for one unit, two units in a province, a move to where the unit stands,
a province ``adjacent`` does not list next to it). Unit ids appear in the reasons, so use
readable ones ("Army B").
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sheetmaster.kit import Adjudicator, Cycle, Reason

CUT_RULE = ("Infantry blocks any support offered by the adjacent target forces. "
            "(Golden Age 1861, Cut Support)")
ENGAGED_RULE = ("Attacking an enemy force prevents that force from providing any support "
                "during that turn. (Golden Age 1861, Invade)")

MOVED = Reason("MOVED", "moved to {to}")
MOVED_DISLODGING = Reason("MOVED_DISLODGING", "moved to {to}, dislodging {unit}")
HELD = Reason("HELD", "held")
SUPPORTED_HOLD = Reason("SUPPORTED_HOLD", "support given to {unit} holding {at}")
SUPPORTED_MOVE = Reason("SUPPORTED_MOVE", "support given to {unit} moving to {to}")
CUT_DONE = Reason("CUT_DONE", "cut the support given by {unit} from {at}")
DISLODGED = Reason("DISLODGED", "dislodged by {unit} from {origin}")
BOUNCED_RIVAL = Reason("BOUNCED_RIVAL", "bounced: {unit} also moved to {to} {strength}{note}")
BOUNCED_HOLD = Reason("BOUNCED_HOLD", "bounced: {unit} held {to} {strength}{note}")
BOUNCED_STAYED = Reason("BOUNCED_STAYED",
                        "bounced: {unit} could not leave {to} and held it {strength}{note}")
BOUNCED_HEAD_ON = Reason("BOUNCED_HEAD_ON",
                         "bounced head-on: {unit} moved from {to} to {at} {strength}{note}")
TOO_WEAK = Reason("TOO_WEAK", "bounced: a strength of {strength} cannot enter {to}")
OWN_UNIT = Reason("OWN_UNIT", "bounced: {unit}, of the same owner, did not leave {to}")
OWN_HEAD_ON = Reason("OWN_HEAD_ON",
                     "bounced head-on: {unit}, of the same owner, moved from {to} to {at}")
NO_HELP = Reason("NO_HELP", " (support from {owner} does not count against its own unit)")
NO_UNIT_TO_SUPPORT = Reason("NO_UNIT_TO_SUPPORT", "supported unit is absent: no unit in {at}")
DID_NOT_HOLD = Reason("DID_NOT_HOLD",
                      "supported unit did not hold: {unit} was ordered to move to {to}")
DID_NOT_MOVE = Reason("DID_NOT_MOVE",
                      "supported unit did not move to {to}: {unit} was ordered to {did}")
CUT_BY_ATTACK = Reason("CUT_BY_ATTACK", "support cut by an attack from {origin}")
CUT_BY_ORDER = Reason("CUT_BY_ORDER", "support cut by {unit}'s cut order from {origin}")
CUT_BY_DISLODGEMENT = Reason("CUT_BY_DISLODGEMENT", "support cut: dislodged by {unit} from "
                             "{origin}")
NOTHING_TO_CUT = Reason("NOTHING_TO_CUT", "nothing to cut: {why}")


class Kind(str, enum.Enum):
    HOLD = "hold"
    MOVE = "move"
    SUPPORT_HOLD = "support hold"
    SUPPORT_MOVE = "support move"
    CUT = "cut"


SUPPORTS = (Kind.SUPPORT_HOLD, Kind.SUPPORT_MOVE)


@dataclass(frozen=True)
class LandOrder:
    """One unit's order. ``to``: where a move or a supported move goes, or the province a
    cut attacks. ``of``: where the supported unit stands."""

    unit: str
    owner: str
    at: str
    kind: Kind = Kind.HOLD
    to: str = ""
    of: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", Kind(self.kind))


def hold(unit: str, owner: str, at: str) -> LandOrder:
    return LandOrder(unit, owner, at)


def move(unit: str, owner: str, at: str, to: str) -> LandOrder:
    return LandOrder(unit, owner, at, Kind.MOVE, to=to)


def support_hold(unit: str, owner: str, at: str, of: str) -> LandOrder:
    return LandOrder(unit, owner, at, Kind.SUPPORT_HOLD, of=of)


def support_move(unit: str, owner: str, at: str, of: str, to: str) -> LandOrder:
    return LandOrder(unit, owner, at, Kind.SUPPORT_MOVE, to=to, of=of)


def cut(unit: str, owner: str, at: str, target: str) -> LandOrder:
    return LandOrder(unit, owner, at, Kind.CUT, to=target)


@dataclass(frozen=True)
class Outcome:
    """What became of one unit's order, and of the unit.

    ``succeeded``: a move moved; a support was given (not cut, and the supported unit did
    what it was supported to do); a cut cut a support; a hold was not dislodged.
    """

    order: LandOrder
    succeeded: bool
    #: a short reason for the order's result cell.
    reason: str
    #: the unit that dislodged this one (it still stands in ``order.at``, to retreat).
    dislodged_by: str | None = None

    @property
    def dislodged(self) -> bool:
        return self.dislodged_by is not None

    @property
    def ends_at(self) -> str:
        """Where the unit stands after the moves (before any retreat)."""
        return self.order.to if self.order.kind is Kind.MOVE and self.succeeded else self.order.at


def adjudicate(orders: Iterable[LandOrder], adjacent: Callable[[str, str], bool],
               bonus: Callable[[LandOrder], int] | None = None) -> dict[str, Outcome]:
    """Resolve every order at once: unit id -> :class:`Outcome`, in the orders' order.

    ``bonus(order)`` (called once per order, before anything is resolved; roll any dice
    before) is added to every strength the unit shows: attack, defend and prevent of a move,
    and its hold strength if it stays (entrenchment, a fort, a pre-rolled die). A strength
    never falls below 0.
    """
    board = _Board(list(orders), adjacent, bonus)
    adj = Adjudicator(board.decide, board.backup)
    adj.run(board.orders)
    return {unit: board.outcome(order, adj) for unit, order in board.orders.items()}


class _Board:
    """The orders indexed for adjudication; ``decide`` is the adjudicator's decision."""

    def __init__(self, orders: list[LandOrder], adjacent: Callable[[str, str], bool],
                 bonus: Callable[[LandOrder], int] | None) -> None:
        self.orders: dict[str, LandOrder] = {}
        self.at: dict[str, LandOrder] = {}
        self.moves_to: dict[str, list[LandOrder]] = {}
        #: moves and cuts aimed at a province
        self.attacks_on: dict[str, list[LandOrder]] = {}
        #: (supported unit's province, destination or "" for a hold) -> supports
        self.supports: dict[tuple[str, str], list[LandOrder]] = {}
        for order in orders:
            _check(order, adjacent)
            if order.unit in self.orders:
                raise ValueError(f"two orders for unit {order.unit}; give each unit one order")
            if order.at in self.at:
                raise ValueError(f"two units in {order.at} ({self.at[order.at].unit} and "
                                 f"{order.unit}); only one unit may stand in a province")
            self.orders[order.unit] = order
            self.at[order.at] = order
            if order.kind is Kind.MOVE:
                self.moves_to.setdefault(order.to, []).append(order)
            if order.kind in (Kind.MOVE, Kind.CUT):
                self.attacks_on.setdefault(order.to, []).append(order)
            if order.kind in SUPPORTS:
                self.supports.setdefault((order.of, order.to), []).append(order)
        self.bonus = {o.unit: bonus(o) if bonus else 0 for o in self.orders.values()}

    def decide(self, unit: str, adj: Adjudicator[str]) -> bool:
        """Move: it moves. Support: it is given. Cut: it cuts. Hold: not dislodged."""
        return self.why_not(self.orders[unit], adj) is None

    def backup(self, cycle: Cycle[str]) -> dict[str, bool]:
        """Circular movement (both answers consistent): the cycle's moves succeed. Land moves
        without convoys have no paradox; were one to arise, the cycle's moves would fail."""
        moves = [k for k in cycle.keys if self.orders[k].kind is Kind.MOVE] or cycle.keys
        return dict.fromkeys(moves, cycle.both_consistent)

    def why_not(self, order: LandOrder, adj: Adjudicator[str]) -> str | None:
        """Why the order fails, or None if it succeeds."""
        if order.kind is Kind.MOVE:
            return self._move_blocked(order, adj)
        if order.kind in SUPPORTS:
            return self._support_void(order, adj)
        if order.kind is Kind.CUT:
            return self._cut_void(order)
        attacker = self._dislodger(order, adj)
        return attacker and DISLODGED.say(unit=attacker.unit, origin=attacker.at)

    def outcome(self, order: LandOrder, adj: Adjudicator[str]) -> Outcome:
        problem = self.why_not(order, adj)
        moved = order.kind is Kind.MOVE and problem is None
        attacker = None if moved else self._dislodger(order, adj)
        reason = problem or self._done(order, adj)
        if attacker is not None:
            dislodged = DISLODGED.say(unit=attacker.unit, origin=attacker.at)
            if dislodged not in reason:
                reason = f"{reason}; {dislodged}"
        return Outcome(order, problem is None, reason, attacker and attacker.unit)

    def _done(self, order: LandOrder, adj: Adjudicator[str]) -> str:
        if order.kind is Kind.MOVE:
            ahead = self.at.get(order.to)
            if ahead is not None and self._dislodger(ahead, adj) is order:
                return MOVED_DISLODGING.say(to=order.to, unit=ahead.unit)
            return MOVED.say(to=order.to)
        if order.kind is Kind.SUPPORT_HOLD:
            return SUPPORTED_HOLD.say(unit=self.at[order.of].unit, at=order.of)
        if order.kind is Kind.SUPPORT_MOVE:
            return SUPPORTED_MOVE.say(unit=self.at[order.of].unit, to=order.to)
        if order.kind is Kind.CUT:
            return CUT_DONE.say(unit=self.at[order.to].unit, at=order.to)
        return HELD.say()

    def _move_blocked(self, m: LandOrder, adj: Adjudicator[str]) -> str | None:
        ahead = self.at.get(m.to)
        head_on = ahead is not None and ahead.kind is Kind.MOVE and ahead.to == m.at
        stays = ahead is not None and (ahead.kind is not Kind.MOVE or head_on
                                       or not adj.resolve(ahead.unit))
        if stays and ahead.owner == m.owner:
            return (OWN_HEAD_ON if head_on else OWN_UNIT).say(unit=ahead.unit, to=m.to, at=m.at)
        given = self._given(m, adj)
        counted = [s for s in given if not stays or s.owner != ahead.owner]
        attack = self._strength(m, len(counted))
        note = NO_HELP.say(owner=ahead.owner) if len(counted) < len(given) else ""
        if head_on:
            defend = self._strength(ahead, len(self._given(ahead, adj)))
            if attack <= defend:
                return BOUNCED_HEAD_ON.say(unit=ahead.unit, to=m.to, at=m.at,
                                           strength=_against(attack, defend), note=note)
        elif stays:
            held = self._hold_strength(ahead, adj)
            if attack <= held:
                bounced = BOUNCED_STAYED if ahead.kind is Kind.MOVE else BOUNCED_HOLD
                return bounced.say(unit=ahead.unit, to=m.to, strength=_against(attack, held),
                                   note=note)
        elif attack <= 0:
            return TOO_WEAK.say(strength=attack, to=m.to)
        rival, prevent = None, 0
        for other in self.moves_to[m.to]:
            if other is not m and (strength := self._prevent(other, adj)) > prevent:
                rival, prevent = other, strength
        if rival is not None and attack <= prevent:
            return BOUNCED_RIVAL.say(unit=rival.unit, to=m.to, strength=_against(attack, prevent),
                                     note=note)
        return None

    def _support_void(self, s: LandOrder, adj: Adjudicator[str]) -> str | None:
        target = self.at.get(s.of)
        if target is None:
            return NO_UNIT_TO_SUPPORT.say(at=s.of)
        if s.kind is Kind.SUPPORT_HOLD and target.kind is Kind.MOVE:
            return DID_NOT_HOLD.say(unit=target.unit, to=target.to)
        if s.kind is Kind.SUPPORT_MOVE and (target.kind is not Kind.MOVE or target.to != s.to):
            did = f"move to {target.to}" if target.kind is Kind.MOVE else target.kind.value
            return DID_NOT_MOVE.say(to=s.to, unit=target.unit, did=did)
        aimed_at = s.of if s.kind is Kind.SUPPORT_HOLD else s.to
        foes = [a for a in self.attacks_on.get(s.at, ()) if a.owner != s.owner]
        for foe in foes:
            if foe.kind is Kind.CUT:
                return CUT_BY_ORDER.say(unit=foe.unit, origin=foe.at)
            if foe.at != aimed_at:
                return CUT_BY_ATTACK.say(origin=foe.at)
        for foe in foes:  # from the province the support is aimed at: cuts by dislodging
            if adj.resolve(foe.unit):
                return CUT_BY_DISLODGEMENT.say(unit=foe.unit, origin=foe.at)
        return None

    def _cut_void(self, c: LandOrder) -> str | None:
        target = self.at.get(c.to)
        if target is None:
            return NOTHING_TO_CUT.say(why=f"no unit in {c.to}")
        if target.owner == c.owner:
            return NOTHING_TO_CUT.say(why=f"{target.unit} in {c.to} has the same owner")
        if target.kind not in SUPPORTS:
            return NOTHING_TO_CUT.say(why=f"{target.unit} in {c.to} gives no support")
        return None

    def _dislodger(self, unit: LandOrder, adj: Adjudicator[str]) -> LandOrder | None:
        """The move that entered the unit's province while it stayed, if any."""
        if unit.kind is Kind.MOVE and adj.resolve(unit.unit):
            return None
        return next((m for m in self.moves_to.get(unit.at, ()) if adj.resolve(m.unit)), None)

    def _given(self, unit: LandOrder, adj: Adjudicator[str]) -> list[LandOrder]:
        """The supports given to the unit's order (its move, or its holding)."""
        key = (unit.at, unit.to if unit.kind is Kind.MOVE else "")
        return [s for s in self.supports.get(key, ()) if adj.resolve(s.unit)]

    def _hold_strength(self, unit: LandOrder, adj: Adjudicator[str]) -> int:
        supports = 0 if unit.kind is Kind.MOVE else len(self._given(unit, adj))
        return self._strength(unit, supports)

    def _prevent(self, m: LandOrder, adj: Adjudicator[str]) -> int:
        ahead = self.at.get(m.to)
        if (ahead is not None and ahead.kind is Kind.MOVE and ahead.to == m.at
                and adj.resolve(ahead.unit)):
            return 0  # it lost a head-to-head battle
        return self._strength(m, len(self._given(m, adj)))

    def _strength(self, unit: LandOrder, supports: int) -> int:
        return max(0, 1 + supports + self.bonus[unit.unit])


def _against(ours: int, theirs: int) -> str:
    if ours == theirs:
        return "with equal strength"
    return f"with greater strength ({theirs} against {ours})"


def _check(order: LandOrder, adjacent: Callable[[str, str], bool]) -> None:
    """Refuse input no valid turn has; the caller filters invalid orders before."""
    needs = {Kind.HOLD: (), Kind.MOVE: ("to",), Kind.CUT: ("to",),
             Kind.SUPPORT_HOLD: ("of",), Kind.SUPPORT_MOVE: ("of", "to")}[order.kind]
    for name in needs:
        where = getattr(order, name)
        if not where or where == order.at:
            raise ValueError(f"{order.unit} in {order.at}: a {order.kind.value} order needs "
                             f"'{name}' to name another province (got {where!r})")
    if order.kind is Kind.SUPPORT_MOVE and order.of == order.to:
        raise ValueError(f"{order.unit} in {order.at}: supports a move from {order.of} to "
                         "itself")
    reach = order.of if order.kind is Kind.SUPPORT_HOLD else order.to
    if reach and not adjacent(order.at, reach):
        raise ValueError(f"{order.unit} in {order.at}: its {order.kind.value} order reaches "
                         f"{reach}, which is not adjacent; reject invalid orders before "
                         "adjudicating")
