"""1800's board tabs (Nations, Provinces, Improvements, Pops, Trade routes) and the row
objects they load into. The cards' tabs are in :mod:`.card_tabs`, the war's in
:mod:`.war_tabs`."""

from __future__ import annotations

from dataclasses import dataclass, field

from sheetmaster.kit import Column, Kind, Table

CITY, COUNTRYSIDE, EITHER = "city", "countryside", "either"
FACTORY, FARM, MARKET = "Factory", "Farm", "Market"
FOOD, PRODUCTION, COMMERCE = "food", "production", "commerce"
RESOURCES = (FOOD, PRODUCTION, COMMERCE)
EUROPEAN, OVERSEAS = "European", "overseas"

#: "Cities can support 5 improvements, while countrysides can support two."
CAPS = {CITY: 5, COUNTRYSIDE: 2}
#: "A countryside can have no more than two pops in it, while a city can have any number"
COUNTRYSIDE_POPS = 2


@dataclass(slots=True)
class Nation:
    name: str
    row: int
    player: str
    seat: int
    dealer: bool
    prosperity: int
    email: str
    # -- written by sheetmaster --
    food: int = 0
    production: int = 0
    commerce: int = 0
    ambition_points: int | None = None
    score: int | None = None
    place: str = ""
    #: tokens collected this turn and not placed yet (0 between turns: F20).
    unplaced: dict[str, int] = field(default_factory=dict)
    #: the moves of pops and regiments used at the end of this turn.
    moved: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class Province:
    name: str
    row: int
    type: str
    adjacent: tuple[str, ...]
    #: improvement names, one per improvement, as the Improvements tab spells them.
    improvements: list[str]
    regiment: str  # '' = none
    conscripted: bool

    @property
    def city(self) -> bool:
        return self.type == CITY

    def count(self, improvement: str) -> int:
        return self.improvements.count(improvement)

    def improvements_text(self) -> str:
        out = []
        for name in dict.fromkeys(self.improvements):
            n = self.improvements.count(name)
            out.append(name if n == 1 else f"{name} x{n}")
        return ", ".join(out)


@dataclass(slots=True)
class ImprovementType:
    name: str
    row: int
    where: str
    output: str


@dataclass(slots=True)
class Pops:
    """A nation's pops in one province: ``laborers`` work factories (cities); a
    ``conscripted`` pop stands under its nation's conscripted regiment."""

    province: str
    nation: str
    pops: int
    laborers: int
    conscripted: int
    row: int = 0


@dataclass(slots=True)
class TradeRoute:
    name: str
    row: int
    kind: str
    holders: tuple[str, ...]


NATIONS = Table(
    "Nations",
    (
        Column("nation", Kind.NAME, "the nation's name, as its player writes it in the Orders "
               "tab", bind="name"),
        Column("player", Kind.TEXT, "who plays it (for the GM)"),
        Column("seat", Kind.WHOLE, "clockwise seat, 1 up: a nation's left is the next seat, "
               "the last seat's left the first (F7)"),
        Column("dealer", Kind.FLAG, "yes for the nation holding the dealer chip (one only); "
               "sheetmaster passes it left at the end of each round", owned=True),
        Column("prosperity", Kind.WHOLE, "the prosperity track (the GM fills in the start)",
               owned=True),
        Column("email", Kind.TEXT, "for authenticated (form) intake only", optional=True),
        Column("food", Kind.WHOLE, "food collected at its last turn (written by sheetmaster)",
               owned=True, optional=True),
        Column("production", Kind.WHOLE, "production collected at its last turn", owned=True,
               optional=True),
        Column("commerce", Kind.WHOLE, "commerce collected at its last turn", owned=True,
               optional=True),
        Column("war actions", Kind.WHOLE, "actions in a war, from its cards (written by "
               "sheetmaster)", owned=True, optional=True),
        Column("admin cards", Kind.WHOLE, "admin cards in hand (how many; which is secret)",
               owned=True, optional=True),
        Column("military cards", Kind.WHOLE, "military cards in hand (how many)", owned=True,
               optional=True),
        Column("ambition", Kind.TEXT, "its national ambition, revealed at the end of the game",
               owned=True, optional=True),
        Column("ambition points", Kind.WHOLE, "victory points of its ambition, at the end",
               owned=True, optional=True, blank=None),
        Column("score", Kind.WHOLE, "prosperity + ambition points, at the end", owned=True,
               optional=True, blank=None),
        Column("place", Kind.TEXT, "its place at the end (1st, 2nd...; 'shared' on a tie)",
               owned=True, optional=True),
    ),
    key="nation",
    lists_players=True,
    help="One row per nation (player).",
    noun="nation",
    entity=Nation,
)

PROVINCES = Table(
    "Provinces",
    (
        Column("province", Kind.NAME, "the province's name", bind="name"),
        Column("type", Kind.CHOICE, "city or countryside", choices=(CITY, COUNTRYSIDE),
               noun="a province type", required=True),
        Column("adjacent", Kind.REFS, "the provinces next to it (land and sea links), "
               "comma-separated, listed on both sides", both_sides=True),
        Column("improvements", Kind.TEXT, "e.g. 'Factory x2, Market' (a city holds 5, a "
               "countryside 2)", owned=True),
        Column("regiment", Kind.REF, "the nation whose regiment stands here (one at most)",
               owned=True, ref="Nations", none_words=("none",)),
        Column("conscripted", Kind.FLAG, "yes if that regiment is a conscripted one, standing "
               "on one of its nation's pops", owned=True),
        Column("controller", Kind.REF, "who controls it: the regiment's nation, else the one "
               "with most pops (written by sheetmaster)", owned=True, ref="Nations",
               optional=True),
        Column("start", Kind.TEXT, "whose standard start it is (for the GM)", optional=True),
    ),
    key="province",
    help="The map: one row per province.",
    noun="province",
    entity=Province,
)

IMPROVEMENTS = Table(
    "Improvements",
    (
        Column("improvement", Kind.NAME, "an improvement type: Factory, Farm, Market, or the "
               "GM's own", bind="name"),
        Column("where", Kind.CHOICE, "where it may be built", choices=(CITY, COUNTRYSIDE,
                                                                       EITHER),
               noun="a place", required=True),
        Column("output", Kind.CHOICE, "what it makes when worked: production (Factory), food "
               "(Farm), commerce (Market), or none", choices=(PRODUCTION, FOOD, COMMERCE,
                                                              "none"),
               noun="an output", required=True),
    ),
    key="improvement",
    help="Improvement types: Factory, Farm and Market are the rules' own (list them or not); "
         "add the GM's own here (the source names four types and describes three).",
    noun="improvement type",
    entity=ImprovementType,
)

POPS = Table(
    "Pops",
    (
        Column("province", Kind.REF, "where they live", ref="Provinces", required=True,
               owned=True),
        Column("nation", Kind.REF, "whose pops they are", ref="Nations", required=True,
               owned=True),
        Column("pops", Kind.WHOLE, "how many", owned=True),
        Column("laborers", Kind.WHOLE, "how many of them work a factory (cities: one pop a "
               "factory); the others in a city are bourgeois", owned=True),
        Column("conscripted", Kind.WHOLE, "1 if one of them stands under a conscripted "
               "regiment", owned=True),
    ),
    help="One row per nation and province it has pops in.",
    noun="pops row",
    entity=Pops,
)

TRADE_ROUTES = Table(
    "Trade routes",
    (
        Column("route", Kind.NAME, "the trade route's name", bind="name"),
        Column("kind", Kind.CHOICE, "European (1 commerce each holder) or overseas (1 commerce "
               "for a holder alone on it)", choices=(EUROPEAN, OVERSEAS), noun="a route kind",
               required=True),
        Column("holders", Kind.REFS, "the nations with a trade token on it", owned=True,
               ref="Nations"),
    ),
    key="route",
    help="Trade routes and the nations holding a trade token on them.",
    noun="trade route",
    entity=TradeRoute,
)
