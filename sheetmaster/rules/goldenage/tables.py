"""The Golden Age 1861 state tabs and the row objects they load into.

Nations, Provinces, Sea zones, Units (one row a unit, with its id), Buildings, Railroads,
Canals, Canal investments (one row a canal, year and investor) and Agreements; the Settings
tab of withheld numbers is in settings.py. Unbound fields (after ``row``) are the turn's
working state and are never written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sheetmaster.kit import Column, Kind, Table

from . import data

NEUTRAL_WORDS = ("neutral", "none")
PERMANENT, PROVISIONAL = "permanent", "provisional"
OPEN, BUILDING, COMPLETE = "open", "building", "complete"
LOAN, TRADE = "loan", "trade"


@dataclass(slots=True)
class Nation:
    name: str
    player: str
    leader: str
    currency: int
    tech: int
    capital: str
    capital_kind: str
    original_capital: str
    income_halved: bool
    at_war: tuple[str, ...]
    prestige: int
    to_deploy: str
    email: str
    row: int = 0
    # -- this turn --------------------------------------------------------------------------
    #: its orders were refused whole at the Spring disband gate (digest F12).
    gated: bool = False
    #: units whose upkeep is not charged this Spring (ordered disbanded in step 2, F36).
    relieved: set[str] = field(default_factory=set)
    #: provinces where displaced-worker programs were instituted this turn.
    programs: set[str] = field(default_factory=set)
    upgraded_tech: bool = False


@dataclass(slots=True)
class Province:
    name: str
    title: str
    owner: str
    controller: str
    core: bool
    overseas: bool
    deep_africa: bool
    northern: bool
    base_value: int
    upgraded: bool
    occupied_by: str
    occupation_timer: str
    annexed: bool
    puppeted: bool
    nationalist_revolt: bool
    reactionary_unrest: bool
    controls_strait: str
    controls_canal: str
    borders: tuple[str, ...]
    seas: tuple[str, ...]
    row: int = 0
    #: who holds it: its occupier, else its owner ('' = neutral).
    @property
    def holder(self) -> str:
        return self.occupied_by or self.owner


@dataclass(slots=True)
class SeaZone:
    name: str
    borders: tuple[str, ...]
    strait: bool
    canal: bool
    open: bool
    row: int = 0
    #: nations blockading the zone this turn (digest F48).
    blockaders: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Unit:
    name: str
    nation: str
    type: str
    tech: int
    at: str
    aboard: tuple[str, ...]
    supply_penalties: int
    posture: str
    status: str
    title: str
    row: int = 0
    # -- this turn --------------------------------------------------------------------------
    #: the order row that gave it its order this turn (0: none yet).
    ordered: int = 0
    #: why it may take no orders this turn ('' if it may).
    no_orders: str = ""
    #: landed without a friendly port: -3 to each die roll this turn.
    penalised: bool = False
    disbanding: bool = False
    #: ships: the land units aboard, in the order they embarked.
    cargo: list[str] = field(default_factory=list)
    #: a ship left abandoned at sea: its running 'abandoned ship' timer says so (no nation).
    abandoned: bool = False

    @property
    def at_sea(self) -> bool:
        return self.type in data.SEA_TYPES

    @property
    def alive(self) -> bool:
        return not self.status.startswith("gone")



@dataclass(slots=True)
class Building:
    name: str
    type: str
    province: str
    sea_zone: str
    level: int
    state: str
    blockaded: bool
    title: str
    row: int = 0

    @property
    def active(self) -> bool:
        return self.state in ("", data.ACTIVE)


@dataclass(slots=True)
class Railroad:
    name: str
    a: str
    b: str
    owner: str
    row: int = 0

    def ends(self) -> tuple[str, str]:
        return self.a, self.b


@dataclass(slots=True)
class Canal:
    name: str
    sea_zone: str
    cost: int | None
    owner: str
    state: str
    row: int = 0
    #: invested so far: the sum of its Canal investments rows (written to 'invested').
    total: int = 0


@dataclass(slots=True)
class CanalInvestment:
    canal: str
    year: int
    nation: str
    amount: int
    row: int = 0


@dataclass(slots=True)
class Agreement:
    name: str
    kind: str
    payer: str
    payee: str
    payment: int
    payments_left: int
    next_due: int
    missed: int
    status: str
    terms: str
    row: int = 0


NATIONS = Table("Nations", (
    Column("nation", Kind.NAME, "the nation's name; its player writes it in the Orders tab's "
           "'player' column (the source's `as` order)", bind="name"),
    Column("player", Kind.TEXT, "who plays it (for the GM)"),
    Column("leader", Kind.TEXT, "the current leader's name ('succession' changes it)",
           owned=True),
    Column("currency", Kind.WHOLE, "reserve currency", owned=True),
    Column("tech", Kind.WHOLE, "tech level, 1 to 5", owned=True, at_most=data.MAX_TECH),
    Column("capital", Kind.REF, "the province of its current capital (blank after it fell, "
           "until a provisional capital is named)", owned=True, ref="Provinces"),
    Column("capital kind", Kind.CHOICE, "permanent or provisional", owned=True,
           choices=(PERMANENT, PROVISIONAL), noun="a kind of capital"),
    Column("original capital", Kind.REF, "its permanent capital while it uses a provisional "
           "one", owned=True, ref="Provinces"),
    Column("income halved", Kind.FLAG, "yes while its capital is lost or provisional: each "
           "seasonal income is halved", owned=True),
    Column("at war with", Kind.REFS, "the nations it is at war with, comma-separated (listed "
           "on both sides)", owned=True, both_sides=True, bind="at_war"),
    Column("prestige", Kind.WHOLE, "prestige achievements (the GM's; paid once a year)"),
    Column("to deploy", Kind.TEXT, "turn 0: the starting resources still to deploy, e.g. "
           "'Infantry x3, Warship, Factory'", owned=True),
    Column("email", Kind.TEXT, "the player's e-mail, for form intake (optional)",
           optional=True),
    Column("provinces", Kind.WHOLE, "provinces owned (written by sheetmaster)", owned=True,
           optional=True),
    Column("units", Kind.WHOLE, "units in play (written by sheetmaster)", owned=True,
           optional=True),
), key="nation", help="One row a nation.", lists_players=True, noun="nation", entity=Nation)

PROVINCES = Table("Provinces", (
    Column("province", Kind.NAME, "its id, as orders name it", bind="name"),
    Column("name", Kind.TEXT, "its name as shown ('rename-province' changes it)", owned=True,
           bind="title"),
    Column("owner", Kind.REF, "the nation owning it; blank = neutral", owned=True,
           ref="Nations", none_words=NEUTRAL_WORDS),
    Column("controller", Kind.REF, "the nation exerting dominant influence (p.16; the GM's, "
           "and a puppet's master)", owned=True, ref="Nations", none_words=NEUTRAL_WORDS),
    Column("core", Kind.FLAG, "a core province of its owner", owned=True),
    Column("overseas", Kind.FLAG, "overseas (the GM's)"),
    Column("deep africa", Kind.FLAG, "Deep Africa (the GM's)"),
    Column("northern", Kind.FLAG, "attacks into it in Winter are penalised"),
    Column("base value", Kind.WHOLE, "the printed base value"),
    Column("upgraded", Kind.FLAG, "its value was upgraded (+1)", owned=True),
    Column("occupied by", Kind.TEXT, "the nation occupying it, or Rebels; blank = not "
           "occupied", owned=True),
    Column("occupation timer", Kind.TEXT, "the timer of its occupation (Timers tab)",
           owned=True),
    Column("annexed", Kind.FLAG, "annexed", owned=True),
    Column("puppeted", Kind.FLAG, "a puppet state", owned=True),
    Column("nationalist revolt", Kind.FLAG, "nationalist rebels stand in it (written by "
           "sheetmaster)", owned=True),
    Column("reactionary unrest", Kind.FLAG, "reactionary unrest: it may revolt when revenue "
           "is collected", owned=True),
    Column("controls strait", Kind.REF, "the strait it controls", ref="Sea zones"),
    Column("controls canal", Kind.REF, "the canal it controls", ref="Sea zones"),
    Column("borders", Kind.REFS, "land borders, comma-separated (listed on both sides)",
           both_sides=True),
    Column("seas", Kind.REFS, "the sea zones its coast touches, comma-separated",
           ref="Sea zones"),
    Column("economic value", Kind.WHOLE, "base + upgrade + factories + railroads (written "
           "by sheetmaster)", owned=True, optional=True),
), key="province", help="One row a province.", noun="province", entity=Province)

SEA_ZONES = Table("Sea zones", (
    Column("sea zone", Kind.NAME, "its id, as orders name it", bind="name"),
    Column("borders", Kind.REFS, "the sea zones next to it (listed on both sides)",
           both_sides=True),
    Column("strait", Kind.FLAG, "a strait"),
    Column("canal", Kind.FLAG, "a canal"),
    Column("open", Kind.FLAG, "a strait or canal ships may pass (a canal opens when it is "
           "finished)", owned=True),
    Column("blockaded by", Kind.TEXT, "the nations blockading it this season (written by "
           "sheetmaster)", owned=True, optional=True),
), key="sea zone", help="One row a sea zone.", noun="sea zone", entity=SeaZone)

UNITS = Table("Units", (
    Column("unit", Kind.NAME, "its id, as orders name it (unique)", owned=True, bind="name"),
    Column("nation", Kind.REF, "whose it is; blank for rebels and abandoned ships",
           owned=True, ref="Nations", none_words=NEUTRAL_WORDS),
    Column("type", Kind.CHOICE, ", ".join(data.UNIT_TYPES), owned=True,
           choices=data.UNIT_TYPES, noun="a unit type", required=True),
    Column("tech", Kind.WHOLE, "its tech level (blank: its nation's)", owned=True,
           at_most=data.MAX_TECH),
    Column("at", Kind.TEXT, "where it is: a province, a sea zone, or (a ship) the province "
           "whose port it is in", owned=True),
    Column("aboard", Kind.REFS, "land units at sea: the ship(s) carrying it", owned=True,
           ref="Units"),
    Column("supply penalties", Kind.WHOLE, "supply penalties so far", owned=True),
    Column("posture", Kind.CHOICE, "entrenched, or blank", owned=True,
           choices=("entrenched",), noun="a posture"),
    Column("status", Kind.TEXT, "blank in play; 'gone (...)' once it is no more (the row "
           "stays). An abandoned ship is in play: its Timers row says it is abandoned",
           owned=True),
    Column("name", Kind.TEXT, "its given name", bind="title"),
    Column("classification", Kind.TEXT, "its class at its tech level (written by "
           "sheetmaster from the Settings tab)", owned=True, optional=True),
), key="unit", help="One row a unit. New units are added at the bottom; a unit that is no "
   "more keeps its row, marked gone.", noun="unit", entity=Unit, retired=("status", "gone"))

BUILDINGS = Table("Buildings", (
    Column("building", Kind.NAME, "its id", owned=True, bind="name"),
    Column("type", Kind.CHOICE, "Port, Factory, Academy or Fort", owned=True,
           choices=data.BUILDING_TYPES, noun="a building type", required=True),
    Column("province", Kind.REF, "where it stands", owned=True, ref="Provinces",
           required=True),
    Column("sea zone", Kind.REF, "a port's sea zone", owned=True, ref="Sea zones"),
    Column("level", Kind.WHOLE, "a port's level", owned=True),
    Column("state", Kind.CHOICE, "active (or blank) or mothballed (forts; one being "
           "reactivated stays mothballed: its Timers row says so)",
           owned=True, choices=data.FORT_STATES, noun="a state"),
    Column("blockaded", Kind.FLAG, "a port blockaded this season (written by sheetmaster)",
           owned=True),
    Column("name", Kind.TEXT, "its given name", bind="title"),
), key="building", help="One row a finished building; buildings under construction are "
   "timers until they are done.", noun="building", entity=Building)

RAILROADS = Table("Railroads", (
    Column("railroad", Kind.NAME, "its id", owned=True, bind="name"),
    Column("from", Kind.REF, "one end", owned=True, ref="Provinces", required=True, bind="a"),
    Column("to", Kind.REF, "the other end (adjacent)", owned=True, ref="Provinces",
           required=True, bind="b"),
    Column("owner", Kind.REF, "the nation that built it (until another fully controls both "
           "ends)", owned=True, ref="Nations", none_words=NEUTRAL_WORDS),
), key="railroad", help="One row a finished railroad between two adjacent provinces.",
    noun="railroad", entity=Railroad)

CANALS = Table("Canals", (
    Column("canal", Kind.NAME, "its name, as orders name it", bind="name"),
    Column("sea zone", Kind.REF, "the canal's sea zone", ref="Sea zones", required=True),
    Column("cost", Kind.WHOLE, "the investment that finishes it (the GM's, p.12)",
           blank=None),
    Column("owner", Kind.REF, "the nation building it", owned=True, ref="Nations",
           none_words=NEUTRAL_WORDS),
    Column("state", Kind.CHOICE, "blank (not begun), building or open", owned=True,
           choices=(BUILDING, OPEN), noun="a canal state"),
    Column("invested", Kind.WHOLE, "invested so far: the sum of its rows in the Canal "
           "investments tab (written by sheetmaster)", owned=True, optional=True),
), key="canal", help="One row a canal site.", noun="canal", entity=Canal)

CANAL_INVESTMENTS = Table("Canal investments", (
    Column("canal", Kind.REF, "the canal invested in", owned=True, ref="Canals",
           required=True),
    Column("year", Kind.WHOLE, "the calendar year of the investments (at most 50 a year "
           "from each nation in each canal)", owned=True),
    Column("nation", Kind.REF, "the nation investing", owned=True, ref="Nations",
           required=True),
    Column("amount", Kind.WHOLE, "what it invested in that canal that year", owned=True),
), help="One row a canal, year and investing nation: what it invested (sheetmaster adds and "
   "updates rows). A canal's 'invested' is the sum of its rows.", noun="investment",
    entity=CanalInvestment)

AGREEMENTS = Table("Agreements", (
    Column("agreement", Kind.NAME, "its name, as orders name it", owned=True, bind="name"),
    Column("kind", Kind.CHOICE, "loan or trade", owned=True, choices=(LOAN, TRADE),
           noun="a kind of agreement"),
    Column("payer", Kind.REF, "who pays each instalment", owned=True, ref="Nations"),
    Column("payee", Kind.REF, "who receives it", owned=True, ref="Nations"),
    Column("payment", Kind.WHOLE, "currency each instalment", owned=True),
    Column("payments left", Kind.WHOLE, "instalments still to pay", owned=True),
    Column("next due on turn", Kind.WHOLE, "the turn the next instalment falls due",
           owned=True, bind="next_due"),
    Column("missed", Kind.WHOLE, "instalments not authorized when due", owned=True),
    Column("status", Kind.CHOICE, "open or complete", owned=True, choices=(OPEN, COMPLETE),
           noun="a status"),
    Column("terms", Kind.TEXT, "the terms as agreed (the GM's notes)"),
), key="agreement", help="Loans and trade agreements: their payment schedules.",
    noun="agreement", entity=Agreement)

STATE_TABLES = (NATIONS, PROVINCES, SEA_ZONES, UNITS, BUILDINGS, RAILROADS, CANALS,
                CANAL_INVESTMENTS, AGREEMENTS)
