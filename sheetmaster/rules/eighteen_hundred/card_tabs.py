"""1800's card tabs: the catalogue (Cards), the development cards in play (Tableau), the
face-up cards (Rows) and the sealed hands (Hands), and the row objects they load into."""

from __future__ import annotations

from dataclasses import dataclass

from sheetmaster.kit import Column, Kind, Table

from .tables import RESOURCES
from .vocabulary import DECKS, DEVELOPMENT, Effect

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
        Column("requires", Kind.REFS, "technologies: the technologies a nation must have in "
               "play to pick it", ref="Cards"),
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
               "dealt in the game)", owned=True),
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
