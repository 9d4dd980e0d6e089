"""The decades game's tabs (States, Provinces, Governments, Technologies, Alliances, Wars)
and the row objects they load into."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from sheetmaster.kit import Column, Kind, Table

REVOLUTION, CIVIL_WAR = "revolution", "civil war"


@dataclass(slots=True)
class State:
    """One state, player or non-player (§1 "A state is defined as a unit which is defacto
    independent"); ``happiness`` is political happiness, None for a Tribal state."""

    name: str
    row: int
    player: str
    government: str
    religion: str
    culture: str
    capital: str
    stability: int
    happiness: int | None
    national: int | None
    religious: int | None
    economic_crisis: bool
    pestilence: bool
    collapse: bool
    techs: tuple[str, ...]
    stalled_at: str
    overlord: str
    union_with: str
    at_one: str
    conquests: int
    interregnum: bool
    income: Decimal
    spendable: Decimal
    military: Decimal
    status: str
    email: str = ""
    income_note: str = ""
    # -- this turn only --
    #: ev invested in the military this turn, and whether any spending order was given.
    invested: Decimal = Decimal(0)
    ordered: bool = False
    #: the state whose subsidy it gave this turn ('' = none).
    subsidised: str = ""
    #: a revolution or civil war already happened in this resolve (at most one).
    upheaval: bool = False
    #: the civilization roll was made this turn.
    tried_civilizing: bool = False
    #: the modifier came this turn (by civil war or event): no roll to lose it (F45).
    crisis_gained: bool = False
    pestilence_gained: bool = False

    @property
    def alive(self) -> bool:
        return not self.status


@dataclass(slots=True)
class Province:
    name: str
    row: int
    owner: str
    value: int
    unsettled: bool
    religion: str
    culture: str
    continent: str
    borders: tuple[str, ...]
    sea_links: tuple[str, ...]


@dataclass(slots=True)
class Government:
    name: str
    row: int
    tribal: bool
    monarchy: bool
    feudal: bool
    civil_war_first: bool
    income_bonus: int
    income_percent: int
    military_percent: int
    trait: str


@dataclass(slots=True)
class Technology:
    name: str
    row: int
    year: int
    governments: tuple[str, ...]


@dataclass(slots=True)
class Alliance:
    name: str
    row: int
    members: list[str]
    note: str


@dataclass(slots=True)
class WarRecord:
    turn: int
    war: str
    attackers: str
    defenders: str
    continent: str
    attacker_strength: Decimal
    defender_strength: Decimal
    odds: str
    outcome: str
    conquest: str
    row: int = 0


def _happiness(name: str, what: str) -> Column:
    return Column(name, Kind.WHOLE, f"{what} happiness, 0-5 (5 the happiest; blank: 5)",
                  owned=True, blank=None, at_most=5, bind=what)


STATES = Table(
    "States",
    (
        Column("state", Kind.NAME, "the state's name, as its orders name it in 'player'",
               owned=True, bind="name"),
        Column("player", Kind.TEXT, "who plays it; blank: a non-player state the GM runs"),
        Column("government", Kind.REF, "its government (a row of the Governments tab)",
               owned=True, ref="Governments", required=True),
        Column("religion", Kind.NAME, "the state religion", owned=True),
        Column("culture", Kind.NAME, "the state culture", owned=True),
        Column("capital", Kind.REF, "its capital province (the black dot)", owned=True,
               ref="Provinces"),
        Column("stability", Kind.WHOLE, "1-4, 4 the most stable (Tribal: 2)", owned=True,
               at_most=4, blank=None),
        Column("happiness", Kind.WHOLE, "political happiness, 1-5 (5 the happiest; 1 is "
               "revolution); blank for a Tribal state", owned=True, blank=None, at_most=5,
               bind="happiness"),
        _happiness("national happiness", "national"),
        _happiness("religious happiness", "religious"),
        Column("economic crisis", Kind.FLAG, "yes while the Economic Crisis modifier holds",
               owned=True),
        Column("pestilence", Kind.FLAG, "yes while the Pestilence modifier holds", owned=True),
        Column("collapse penalty", Kind.FLAG, "yes while the collapse penalty holds (-50% "
               "income): written by sheetmaster for a state at stability 1 holding a single "
               "province; type it only for a state at stability 1 that fell there holding one "
               "province and holds more now (it keeps the penalty until its stability "
               "improves)", owned=True, bind="collapse"),
        Column("techs", Kind.REFS, "technologies it has, comma-separated", owned=True,
               ref="Technologies"),
        Column("stalled at", Kind.REF, "the first technology it failed to gain (no later one "
               "until its government changes); blank: not stalled", owned=True,
               ref="Technologies"),
        Column("overlord", Kind.REF, "the senior partner of this satellite (blank: none)",
               owned=True, ref="States"),
        Column("union with", Kind.REF, "the state whose player controls this one in a "
               "personal union (blank: none)", owned=True, ref="States"),
        Column("at happiness 1", Kind.CHOICE, "what happens at political happiness 1: "
               "revolution (blank) or civil war", owned=True,
               choices=(REVOLUTION, CIVIL_WAR), noun="revolution or civil war",
               bind="at_one"),
        Column("civilized conquests", Kind.WHOLE, "a Tribal state's provinces taken from "
               "civilized states (3 civilize it)", owned=True, bind="conquests"),
        Column("interregnum", Kind.FLAG, "yes: an interregnum this turn, no war may be "
               "declared", owned=True),
        Column("income", Kind.DECIMAL, "this turn's income in economic value (written at the "
               "start of the turn; blank: reckoned when the turn is resolved)", owned=True,
               blank=None),
        Column("spendable", Kind.DECIMAL, "what it may spend this turn: income less tribute "
               "paid, plus tribute received (blank: reckoned when the turn is resolved)",
               owned=True, blank=None),
        Column("military", Kind.DECIMAL, "military strength in the last turn's wars",
               owned=True),
        Column("status", Kind.TEXT, "blank while it exists; 'gone (...)' once annexed or "
               "dissolved (the row is kept)", owned=True),
        Column("email", Kind.TEXT, "the player's e-mail, for form intake (optional)",
               optional=True),
        Column("income note", Kind.TEXT, "how this turn's income was reckoned (written by "
               "sheetmaster)", owned=True, optional=True),
        Column("economic value", Kind.DECIMAL, "the sum of its provinces' values (written by "
               "sheetmaster)", owned=True, optional=True, blank=None),
        Column("max happiness", Kind.DECIMAL, "5 less its share of provinces of another "
               "religion or culture (written by sheetmaster)", owned=True, optional=True,
               blank=None),
        Column("anarchy", Kind.FLAG, "yes at stability 2 or less (written by sheetmaster)",
               owned=True, optional=True),
        Column("techs behind", Kind.WHOLE, "technologies available that it lacks: -25% "
               "military each (written by sheetmaster)", owned=True, optional=True, blank=None),
    ),
    key="state",
    help="One row a state: player states and non-player states alike.",
    lists_players=True,
    noun="state",
    entity=State,
    retired=("status", "gone"),
)

PROVINCES = Table(
    "Provinces",
    (
        Column("province", Kind.NAME, "the province's name", bind="name"),
        Column("owner", Kind.REF, "the state controlling it", owned=True, ref="States",
               required=True),
        Column("value", Kind.WHOLE, "its economic value on the province map (1 or more)"),
        Column("unsettled", Kind.FLAG, "yes: a red dot on the map, uncolonized and worth 1 "
               "until colonized", owned=True),
        Column("religion", Kind.NAME, "its religion", owned=True),
        Column("culture", Kind.NAME, "its culture", owned=True),
        Column("continent", Kind.NAME, "the continent it lies on"),
        Column("borders", Kind.REFS, "provinces it shares a land border with (listed on both "
               "sides)", both_sides=True),
        Column("sea links", Kind.REFS, "provinces it reaches over water (listed on both sides)",
               both_sides=True),
        Column("colonization paid", Kind.DECIMAL, "paid toward colonizing it so far (written "
               "by sheetmaster from the Timers tab)", owned=True, optional=True, blank=None),
        Column("religion conversion paid", Kind.DECIMAL, "paid toward converting its religion "
               "(written by sheetmaster from the Timers tab)", owned=True, optional=True,
               blank=None),
        Column("culture conversion paid", Kind.DECIMAL, "paid toward converting its culture "
               "(written by sheetmaster from the Timers tab)", owned=True, optional=True,
               blank=None),
    ),
    key="province",
    help="One row a province. Borders and sea links are listed on both sides.",
    noun="province",
    entity=Province,
)

GOVERNMENTS = Table(
    "Governments",
    (
        Column("government", Kind.NAME, "the government's name, e.g. Feudal Monarchy",
               bind="name"),
        Column("tribal", Kind.FLAG, "yes for a Tribal government (x5 military capped at 60, "
               "stability 2, no happiness, no alliances)"),
        Column("monarchy", Kind.FLAG, "yes for a Monarchy (1 in 50 interregnum a turn)"),
        Column("feudal", Kind.FLAG, "yes for a Feudal Monarchy (1 in 20 personal union a "
               "turn)"),
        Column("civil war before enlightenment", Kind.FLAG, "yes: at happiness 1 it must take "
               "a civil war until it has Enlightenment (Feudal and Despotic Monarchies)",
               bind="civil_war_first"),
        Column("income bonus", Kind.INTEGER, "trait: economic value added to income each "
               "turn (may be negative)"),
        Column("income %", Kind.INTEGER, "trait: percent added to income after the modifiers "
               "(may be negative)", bind="income_percent"),
        Column("military %", Kind.INTEGER, "trait: percent added to military strength (may be "
               "negative)", bind="military_percent"),
        Column("trait", Kind.TEXT, "the trait in words, for the players"),
    ),
    key="government",
    help="The GM's list of governments and their traits (the rulebook's Appendix).",
    noun="government",
    entity=Government,
)

TECHNOLOGIES = Table(
    "Technologies",
    (
        Column("tech", Kind.NAME, "the technology's name (one is Enlightenment)", bind="name"),
        Column("year", Kind.INTEGER, "the year it becomes available"),
        Column("acceptable governments", Kind.REFS, "the governments that gain it, "
               "comma-separated (blank: every government)", ref="Governments",
               bind="governments"),
    ),
    key="tech",
    help="The GM's list of technologies, gained in order of year (then of this tab).",
    noun="technology",
    entity=Technology,
)

ALLIANCES = Table(
    "Alliances",
    (
        Column("alliance", Kind.NAME, "the alliance's name", owned=True, bind="name"),
        Column("members", Kind.REFS, "its member states, comma-separated", owned=True,
               ref="States"),
        Column("note", Kind.TEXT, "when it was formed or dissolved (written by sheetmaster)",
               owned=True),
    ),
    key="alliance",
    help="Alliances officially declared in game; a state belongs to one at most.",
    noun="alliance",
    entity=Alliance,
)

WARS = Table(
    "Wars",
    (
        Column("turn", Kind.WHOLE, owned=True),
        Column("war", Kind.NAME, "the war's id", owned=True),
        Column("attackers", Kind.TEXT, "the attacking side, with each state's strength",
               owned=True),
        Column("defenders", Kind.TEXT, "the defending side", owned=True),
        Column("continent", Kind.TEXT, owned=True),
        Column("attacker strength", Kind.DECIMAL, owned=True),
        Column("defender strength", Kind.DECIMAL, owned=True),
        Column("odds", Kind.TEXT, "the odds the ratio gave", owned=True),
        Column("outcome", Kind.TEXT, "the roll and what it gave", owned=True),
        Column("conquest", Kind.TEXT, "the conquest roll and what the victors may take",
               owned=True),
    ),
    help="Written by sheetmaster: every war's result, every turn.",
    noun="war",
    entity=WarRecord,
)

TABLES = (STATES, PROVINCES, GOVERNMENTS, TECHNOLOGIES, ALLIANCES, WARS)

__all__ = ["ALLIANCES", "Alliance", "CIVIL_WAR", "GOVERNMENTS", "Government", "PROVINCES",
           "Province", "REVOLUTION", "STATES", "State", "TABLES", "TECHNOLOGIES", "Technology",
           "WARS", "WarRecord"]
