"""1800's board tabs (Nations, Provinces, Improvements, Pops, Trade routes) and the row
objects they load into: the board's, the cards' and the war's."""

from __future__ import annotations

from dataclasses import dataclass, field

from sheetmaster.kit import Column, Kind, Table

from .data import DECKS, DEVELOPMENT, Effect

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


# -- 1800's card tabs: the catalogue (Cards), the development cards in play (Tableau), the

POLICY, TECHNOLOGY, INSTITUTION = "policy", "technology", "institution"
VARIETIES = (POLICY, TECHNOLOGY, INSTITUTION)
#: "one political, one economic, and one industrial"
POLICY_CATEGORIES = ("political", "economic", "industrial")
#: "one Food Technology, one Agricultural Technology, one Military Technology, one
#: Infrastructure Technology, and one Communication Technology"
TECH_CATEGORIES = ("food", "agricultural", "military", "infrastructure", "communication")
ERAS = ("I", "II", "III")
#: the rows of the Rows tab: the development draft's face-up cards, the round's global event
DRAFT_ROW, EVENT_ROW = "draft", "global event"
#: the piles a hand holds
ADMIN_PILE, MILITARY_PILE, AMBITION_PILE = "admin", "military", "ambition"
PILES = (ADMIN_PILE, MILITARY_PILE, AMBITION_PILE)


@dataclass(slots=True)
class Card:
    name: str
    row: int
    deck: str
    copies: int | None
    variety: str
    category: str
    era: str
    tier: int
    requires: tuple[str, ...]
    start: bool
    food_slots: int
    production_slots: int
    commerce_slots: int
    needs_text: str
    cost_text: str
    effects_text: str
    reward_text: str
    # -- read from the text columns by the loader --
    effects: tuple[Effect, ...] = ()
    reward: tuple[Effect, ...] = ()
    cost: tuple[Effect, ...] = ()
    #: resource -> tokens an activation needs; None: every slot full (F25)
    needs: dict[str, int] | None = None
    #: the requirements by tier: (tier, category) of a technology the nation must have in
    #: play, of that tier or higher ('any tier-2 military technology'); ``requires`` holds
    #: the ones by name
    requires_tiers: tuple[tuple[int, str], ...] = ()

    @property
    def development(self) -> bool:
        return self.deck == DEVELOPMENT

    def slots(self, resource: str) -> int:
        return getattr(self, f"{resource}_slots")

    @property
    def activatable(self) -> bool:
        """A development card "with arrows on them": one with a reward."""
        return self.development and bool(self.reward)

    def need(self, resource: str) -> int:
        return self.slots(resource) if self.needs is None else self.needs.get(resource, 0)


@dataclass(slots=True)
class InPlay:
    """A development card in a nation's tableau, with the tokens placed on it."""

    nation: str
    card: str
    food: int
    production: int
    commerce: int
    status: str
    activated: int
    since: int
    row: int = 0

    @property
    def in_play(self) -> bool:
        return not self.status

    def tokens(self, resource: str) -> int:
        return getattr(self, resource)

    def add(self, resource: str, amount: int) -> None:
        setattr(self, resource, getattr(self, resource) + amount)

    def clear(self) -> int:
        """Every token off the card (F26); how many there were."""
        n = self.food + self.production + self.commerce
        self.food = self.production = self.commerce = 0
        return n


@dataclass(slots=True)
class FaceUp:
    card: str
    place: str
    round: int
    status: str
    row: int = 0


@dataclass(slots=True)
class Held:
    """A card in a nation's hand. ``card`` is sealed in the sheet (see :mod:`.hands`); here
    it is the card's name."""

    nation: str
    pile: str
    slot: str
    card: str
    status: str
    revealed: str
    row: int = 0

    @property
    def held(self) -> bool:
        return not self.status

    @property
    def binding(self) -> str:
        return f"{self.nation} / {self.pile} / {self.slot}"


def _slots(resource: str) -> Column:
    return Column(f"{resource} slots", Kind.WHOLE, f"squares for {resource} tokens "
                  "(development cards)")


CARDS = Table(
    "Cards",
    (
        Column("card", Kind.NAME, "the card's name", bind="name"),
        Column("deck", Kind.CHOICE, "development, admin, military, global event or ambition",
               choices=DECKS, noun="a deck", required=True),
        Column("copies", Kind.WHOLE, "copies in its deck (blank: 1)", blank=None),
        Column("variety", Kind.CHOICE, "development cards: policy, technology or institution",
               choices=VARIETIES, noun="a variety"),
        Column("category", Kind.CHOICE, "policies: political, economic or industrial; "
               "technologies: food, agricultural, military, infrastructure or communication",
               choices=(*POLICY_CATEGORIES, *TECH_CATEGORIES), noun="a category"),
        Column("era", Kind.CHOICE, "technologies: I, II or III", choices=ERAS, noun="an era"),
        Column("tier", Kind.WHOLE, "technologies: a new one must have a higher tier than the "
               "one it replaces (0: a starting technology)"),
        Column("requires", Kind.NAMES, "technologies: the technologies a nation must have in "
               "play to pick it, each by name or by tier ('any tier-2 military technology': "
               "one of that category of tier 2 or higher)"),
        Column("start", Kind.FLAG, "yes: every nation starts with it in play (the three basic "
               "policies, the play mat's technologies)"),
        *(_slots(r) for r in RESOURCES),
        Column("needs", Kind.TEXT, "what an activation needs on the card, e.g. 'production 3' "
               "(blank: every slot full)", bind="needs_text"),
        Column("cost", Kind.TEXT, "what an activation costs, e.g. 'discard admin 1'",
               bind="cost_text"),
        Column("effects", Kind.TEXT, "what it does while in play (see the vocabulary)",
               bind="effects_text"),
        Column("reward", Kind.TEXT, "what activating it (or playing an admin card) gives",
               bind="reward_text"),
        Column("text", Kind.TEXT, "the card's own words, for the players", optional=True),
    ),
    key="card",
    help="The card catalogue: every card of the game, written in the effect vocabulary.",
    noun="card",
    entity=Card,
)

TABLEAU = Table(
    "Tableau",
    (
        Column("nation", Kind.REF, "whose card it is", ref="Nations", required=True,
               owned=True),
        Column("card", Kind.REF, "a development card", ref="Cards", required=True, owned=True),
        *(Column(r, Kind.WHOLE, f"{r} tokens on it", owned=True) for r in RESOURCES),
        Column("status", Kind.TEXT, "blank while in play; 'replaced (round N)' once a newer "
               "policy or technology replaced it", owned=True),
        Column("activated", Kind.WHOLE, "the round it was last activated (0: never)",
               owned=True),
        Column("since", Kind.WHOLE, "the round it came into play", owned=True),
    ),
    help="Development cards in play, one row each, with the tokens on them.",
    noun="card in play",
    entity=InPlay,
    retired=("status", "replaced"),
)

ROWS = Table(
    "Rows",
    (
        Column("card", Kind.REF, "a face-up card", ref="Cards", required=True, owned=True),
        Column("row", Kind.CHOICE, "draft (the development cards to pick from) or global "
               "event (the one in force this round)", choices=(DRAFT_ROW, EVENT_ROW),
               noun="a row", required=True, owned=True, bind="place"),
        Column("round", Kind.WHOLE, "the round it was laid out", owned=True),
        Column("status", Kind.TEXT, "blank while face up (or in force); what became of it",
               owned=True),
    ),
    help="Face-up cards, written by sheetmaster: the draft row and the global event.",
    noun="face-up card",
    entity=FaceUp,
)

HANDS = Table(
    "Hands",
    (
        Column("nation", Kind.REF, "whose hand", ref="Nations", required=True, owned=True),
        Column("pile", Kind.CHOICE, "admin, military or ambition", choices=PILES,
               noun="a pile", required=True, owned=True),
        Column("slot", Kind.TEXT, "the card's place in the hand (A3: the third admin card "
               "dealt in the game; blank beside a card typed in plain: the next run names "
               "it)", owned=True),
        Column("card", Kind.TEXT, "the card, sealed with the game's dice secret: only its "
               "holder's report names it (a name typed here is sealed by the next resolve)",
               owned=True),
        Column("status", Kind.TEXT, "blank while held; 'played (round N)'...", owned=True),
        Column("revealed", Kind.TEXT, "the card's name once it left the hand", owned=True),
    ),
    help="The cards in the nations' hands, sealed: everyone sees how many, only its holder "
         "which.",
    noun="card in hand",
    entity=Held,
)


# -- 1800's war tabs, written by sheetmaster: the wars declared (Wars), the aggressive acts a

CONQUEST, DIPLOMATIC, GREAT_WAR = "conquest", "diplomatic action", "great war"
#: what the Wars tab says of a declaration by Conquest: it reveals no ambition (F43)
DECLARED = "declared"


@dataclass(slots=True)
class War:
    round: int
    declarer: str
    target: str
    by: str
    responding_to: str
    row: int = 0


@dataclass(slots=True)
class Aggression:
    """An aggressive act (F44): ``step`` is the actor's place in the round's turn order
    (1 up), or 0 for the war step, after every turn."""

    round: int
    step: int
    by: str
    against: str
    act: str
    row: int = 0


@dataclass(slots=True)
class Battle:
    round: int
    province: str
    attacker: str
    defender: str
    attacker_score: int
    defender_score: int
    winner: str
    loser: str
    how: str
    row: int = 0


def _owned(name: str, kind: Kind, text: str, **kw) -> Column:
    return Column(name, kind, text, owned=True, **kw)


WARS = Table(
    "Wars",
    (
        _owned("round", Kind.WHOLE, "the round the war is fought"),
        _owned("declarer", Kind.REF, "who declared it", ref="Nations"),
        _owned("target", Kind.REF, "on whom", ref="Nations"),
        _owned("by", Kind.TEXT, "'diplomatic action', 'great war', or 'declared' (a declaration "
               "whose grounds are its declarer's secret)"),
        _owned("responding to", Kind.TEXT, "the aggressive act a Diplomatic Action answers"),
    ),
    help="Wars declared, written by sheetmaster; each is fought in its round's war step.",
    noun="war",
    entity=War,
)

AGGRESSIONS = Table(
    "Aggressions",
    (
        _owned("round", Kind.WHOLE, "the round of the act"),
        _owned("step", Kind.WHOLE, "the actor's place in that round's turns (0: the war step)"),
        _owned("by", Kind.REF, "who did it", ref="Nations"),
        _owned("against", Kind.REF, "against whom", ref="Nations"),
        _owned("act", Kind.TEXT, "what was done"),
    ),
    help="Aggressive acts (F44), written by sheetmaster: a Diplomatic Action may answer one "
         "done since its player's last turn.",
    noun="aggressive act",
    entity=Aggression,
)

BATTLES = Table(
    "Battles",
    (
        _owned("round", Kind.WHOLE, "the round of the war"),
        _owned("province", Kind.REF, "where it was fought", ref="Provinces"),
        _owned("attacker", Kind.REF, "who moved in", ref="Nations"),
        _owned("defender", Kind.REF, "whose regiment stood there", ref="Nations"),
        _owned("attacker score", Kind.WHOLE, "supporting regiments + technology + cards"),
        _owned("defender score", Kind.WHOLE, "supporting regiments + technology + cards"),
        _owned("winner", Kind.REF, "who won", ref="Nations"),
        _owned("loser", Kind.REF, "whose regiment was removed", ref="Nations"),
        _owned("how", Kind.TEXT, "how it was decided"),
    ),
    help="Battles fought, written by sheetmaster.",
    noun="battle",
    entity=Battle,
)
