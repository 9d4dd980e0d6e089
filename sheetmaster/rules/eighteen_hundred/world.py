"""The 1800 game in memory: nations, the board, the cards in play, face up and in hand.

Phases change this model; :meth:`EighteenWorld.to_tables` turns it back into the tabs.
Keyed tabs keep their rows; the others only grow (a replaced card, a played one, keep their
row with a status), so no row the GM can see ever vanishes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sheetmaster.kit import (
    Context,
    MapGraph,
    Names,
    World,
    from_dealers_left,
)

from .data import GLOBAL_EVENT, Effect, total
from .phases import hands
from .tables import (
    AMBITION_PILE,
    DRAFT_ROW,
    EVENT_ROW,
    FACTORY,
    INSTITUTION,
    RESOURCES,
    TECHNOLOGY,
    Aggression,
    Battle,
    Card,
    FaceUp,
    Held,
    ImprovementType,
    InPlay,
    Nation,
    Pops,
    Province,
    TradeRoute,
    War,
)


@dataclass
class BattleHere:
    """A battle started in the war step, fought after the last action."""

    province: str
    attacker: str
    defender: str
    #: where the attacking regiment came from, and whether it was conscripted (never: those
    #: cannot move) - kept for the log.
    came_from: str


@dataclass
class EighteenWorld(World):
    #: what the hands are sealed with: the engine's ``Loaded.key``, from the dice secret
    key: str = ""
    round: int = 1
    #: the stage being resolved ('' on the setup turn)
    stage: str = ""
    nations: dict[str, Nation] = field(default_factory=dict)
    provinces: dict[str, Province] = field(default_factory=dict)
    improvement_types: dict[str, ImprovementType] = field(default_factory=dict)
    pops: list[Pops] = field(default_factory=list)
    cards: dict[str, Card] = field(default_factory=dict)
    tableau: list[InPlay] = field(default_factory=list)
    rows: list[FaceUp] = field(default_factory=list)
    hands: list[Held] = field(default_factory=list)
    routes: dict[str, TradeRoute] = field(default_factory=dict)
    wars: list[War] = field(default_factory=list)
    aggressions: list[Aggression] = field(default_factory=list)
    battles: list[Battle] = field(default_factory=list)
    map: MapGraph = field(default_factory=MapGraph)
    province_names: Names = field(default_factory=lambda: Names(()))
    card_names: Names = field(default_factory=lambda: Names(()))
    # -- this resolve only --
    fighting: list[BattleHere] = field(default_factory=list)
    #: nation -> military cards played in this war: (bonus effect, marked province or '')
    war_cards: dict[str, list[tuple[Effect, str]]] = field(default_factory=dict)
    _at: dict[tuple[str, str], Pops] = field(default_factory=dict)
    #: province -> its Pops rows in the tab's order (built when first asked: issue 26.1)
    _in: dict[str, list[Pops]] | None = None
    #: nation -> its Pops rows, each with its Province, in the tab's order (built when first
    #: asked: issue 26.1, a scan of the whole tab and a look-up of each row's province five
    #: times a nation in each collection step)
    _of: dict[str, list[tuple[Pops, Province | None]]] | None = None

    # -- reading orders ------------------------------------------------------------------
    def names(self) -> dict[str, Names]:
        return {"player": Names(self.nations), "province": self.province_names,
                "card": self.card_names, "improvement": Names(self.improvement_types),
                "route": Names(self.routes), "resource": Names(RESOURCES)}

    def emails(self) -> dict[str, str]:
        return {n.name: n.email for n in self.nations.values() if n.email}

    # -- seats and the dealer chip ---------------------------------------------------------
    def seating(self) -> list[str]:
        return [n.name for n in sorted(self.nations.values(), key=lambda n: (n.seat, n.row))]

    def dealer(self) -> str:
        """Whoever holds the chip in the Nations tab (the first seat if nobody does)."""
        return next((n.name for n in self.nations.values() if n.dealer), self.seating()[0])

    def turn_order(self, dealer: str | None = None) -> list[str]:
        """Every nation from the dealer's left, the dealer last."""
        return from_dealers_left(self.seating(), dealer or self.dealer())

    def left_of(self, nation: str) -> str:
        order = self.turn_order(nation)
        return order[0]

    # -- the board -----------------------------------------------------------------------
    def index_pops(self) -> None:
        self._at = {(p.province, p.nation): p for p in self.pops}
        self._in = self._of = None

    def pops_row(self, province: str, nation: str) -> Pops:
        """The nation's pops row in the province (a new, empty one if it has none)."""
        row = self._at.get((province, nation))
        if row is None:
            row = Pops(province, nation, 0, 0, 0)
            self.pops.append(row)
            self._at[(province, nation)] = row
            if self._in is not None:
                self._in.setdefault(province, []).append(row)
            if self._of is not None:
                self._of.setdefault(nation, []).append((row, self.provinces.get(province)))
        return row

    def _rows_in(self, province: str) -> list[Pops]:
        """The province's Pops rows, empty ones too, in the tab's order (a scan of the whole
        tab for each province would grow with the square of the map)."""
        if self._in is None:
            self._in = {}
            for p in self.pops:
                self._in.setdefault(p.province, []).append(p)
        return self._in.get(province, [])

    def pops_at(self, province: str, nation: str) -> Pops | None:
        return self._at.get((province, nation))

    def pops_in(self, province: str) -> list[Pops]:
        return [p for p in self._rows_in(province) if p.pops]

    def pops_of(self, nation: str) -> list[Pops]:
        """The nation's Pops rows with pops, in the tab's order."""
        return [p for p, _ in self.pops_where(nation)]

    def pops_where(self, nation: str) -> list[tuple[Pops, Province]]:
        """Each of the nation's Pops rows with pops, with its province, in the tab's order
        (None for a province the map lacks, which the loading reports)."""
        if self._of is None:
            self._of = {}
            provinces = self.provinces
            for p in self.pops:
                self._of.setdefault(p.nation, []).append((p, provinces.get(p.province)))
        return [entry for entry in self._of.get(nation, ()) if entry[0].pops]

    def pop_count(self, province: str, nation: str) -> int:
        row = self._at.get((province, nation))
        return row.pops if row else 0

    def controller(self, province: str) -> str:
        """The regiment's nation; else the nation with strictly more pops than any other
        (L43, L45); else none (a tie, or nobody: F8, F9)."""
        here = self.provinces[province]
        if here.regiment:
            return here.regiment
        return most_pops({p.nation: p.pops for p in self.pops_in(province)})

    def regiments_of(self, nation: str) -> list[Province]:
        return [p for p in self.provinces.values() if p.regiment == nation]

    def free_factories(self, province: str) -> int:
        here = self.provinces[province]
        worked = sum(p.laborers for p in self._rows_in(province))
        return here.count(FACTORY) - worked

    def by_seat(self, nations: list[str], first: str = "") -> list[str]:
        """``nations`` in seat order, ``first`` (e.g. the controller) ahead of the rest."""
        seats = {n: i for i, n in enumerate(self.seating())}
        return sorted(nations, key=lambda n: (n != first, seats.get(n, 99)))

    # -- cards ---------------------------------------------------------------------------
    def in_play(self, nation: str) -> list[InPlay]:
        return [c for c in self.tableau if c.nation == nation and c.in_play]

    def event_in_force(self) -> Card | None:
        row = next((r for r in self.rows if r.place == EVENT_ROW and not r.status), None)
        return self.cards.get(row.card) if row else None

    def face_up(self) -> list[FaceUp]:
        return [r for r in self.rows if r.place == DRAFT_ROW and not r.status]

    def effects(self, nation: str, *, event: bool = True) -> list[Effect]:
        """The static effects in force for ``nation``: its cards in play, and the round's
        global event (which binds every nation)."""
        out = [e for c in self.in_play(nation) for e in self.cards[c.card].effects]
        held = self.event_in_force() if event else None
        if held is not None and held.deck == GLOBAL_EVENT:
            out += held.effects
        return out

    def in_play_of(self, nation: str, category: str, variety: str) -> InPlay | None:
        for c in self.in_play(nation):
            card = self.cards[c.card]
            if card.variety == variety and card.category == category:
                return c
        return None

    def counts_of(self, nation: str, variety: str) -> int:
        return sum(self.cards[c.card].variety == variety for c in self.in_play(nation))

    def hand(self, nation: str, pile: str) -> list[Held]:
        return [h for h in self.hands if h.nation == nation and h.pile == pile and h.held]

    def ambition(self, nation: str) -> Card | None:
        held = [h for h in self.hands if h.nation == nation and h.pile == AMBITION_PILE]
        return self.cards.get(held[0].card) if held else None

    def deal(self, nation: str, pile: str, card: str) -> Held:
        """A card into ``nation``'s hand, in the next slot of its pile."""
        held = Held(nation, pile, hands.next_slot(self.hands, pile), card, "", "")
        self.hands.append(held)
        return held

    # -- reports ---------------------------------------------------------------------------
    def notes(self) -> dict[str, list[str]]:
        """Each nation's own hand and ambition, for its own report only."""
        return hands.notes(self)

    def revealed_ambition(self, nation: Nation) -> str:
        """Its ambition's name once the game is over (F61), else blank."""
        card = self.ambition(nation.name) if nation.place else None
        return card.name if card is not None else ""


#: what every phase of 1800 gets: the engine's context, its ``ctx.world`` the EighteenWorld.
Ctx = Context[EighteenWorld]


def most_pops(counts: dict[str, int]) -> str:
    """The nation with strictly more pops than any other; none on a tie (L43, L45, F8, F9).
    (Issue 26.1: a max over a province's few nations, not a Counter for each province.)"""
    if not counts:
        return ""
    top = max(counts.values())
    leaders = [nation for nation, n in counts.items() if n == top]
    return leaders[0] if len(leaders) == 1 else ""


def war_actions(world: EighteenWorld, nation: str) -> int:
    """"Each player may make a number of actions determined by their communication
    technology": the 'war actions' of its cards in play and the global event, added up."""
    return max(0, total(world.effects(nation), "war actions"))


def is_technology(card: Card) -> bool:
    return card.development and card.variety == TECHNOLOGY


def is_institution(card: Card) -> bool:
    return card.development and card.variety == INSTITUTION


__all__ = ["BattleHere", "Ctx", "EighteenWorld", "is_institution", "is_technology", "war_actions"]
