"""The clans game's state tabs (Clans, Provinces, Armies, Advisors, Independents) and the row
objects they load into."""

from __future__ import annotations

from dataclasses import dataclass

from sheetmaster.kit import Column, Kind, Table

from . import data

INDEPENDENT_WORDS = ("independent", "independents")


@dataclass(slots=True)
class Province:
    name: str
    row: int
    flavour: str
    owner: str  # '' = Independent
    borders: tuple[str, ...]
    seas: tuple[str, ...]
    #: improvement names as data.IMPROVEMENTS spells them; a Mine's resource is in ``mine``.
    improvements: list[str]
    found: list[str]
    prospected: int
    mine: str = ""

    def count(self, improvement: str) -> int:
        return self.improvements.count(improvement)

    def improvements_text(self) -> str:
        return ", ".join(f"{i} ({self.mine})" if i == data.MINE and self.mine else i
                         for i in self.improvements)


@dataclass(slots=True)
class Clan:
    name: str
    row: int
    capital: str
    religion: str
    coins: int
    techs: list[str]
    researching: str
    points: int
    extras: list[str]
    started: int  # 0 = not set up yet
    capital_moved: int  # 0 = never
    destroyed: str
    victory: str
    email: str = ""
    # -- this turn only --
    #: the order rows that used this turn's one army, one hire and one Ninja (0 = unused).
    raised: int = 0
    hired: int = 0
    ninja: int = 0
    free_builds_used: int = 0
    #: the court held more advisors than slots when the turn began (dismissal is due).
    over_slots_at_start: bool = False

    @property
    def alive(self) -> bool:
        return not self.destroyed

    def has(self, tech: str) -> bool:
        return tech in self.techs


@dataclass(slots=True)
class Army:
    name: str
    clan: str  # '' = Independent
    type: str
    province: str
    #: its row in the Armies tab (0: raised this turn, a new row at the bottom).
    row: int = 0
    #: blank while in the field; 'gone (destroyed at Kozu, turn 5)' once it is not.
    status: str = ""
    raised_now: bool = False
    moved: bool = False


OFFERED = "offered"


@dataclass(slots=True)
class Advisor:
    clan: str
    skill: str
    great: bool
    second: str
    #: '' = at court, 'offered' = a travelling advisor's offer, 'gone (...)' = left
    status: str
    since: int
    #: its row in the Advisors tab (0: new this turn).
    row: int = 0

    @property
    def at_court(self) -> bool:
        return not self.status

    @property
    def offering(self) -> bool:
        return self.status == OFFERED

    def skills(self) -> tuple[str, ...]:
        return (self.skill, self.second) if self.great and self.second else (self.skill,)


@dataclass
class IndependentRule:
    """How the Independents of some provinces behave (None: every province)."""

    provinces: frozenset[str] | None
    starting: int | None = None
    raise_chance: int | None = None
    limit: int | None = None
    castle_chance: int | None = None
    row: int = 0


CLANS = Table(
    "Clans",
    (
        Column("clan", Kind.NAME, "the clan's name, as its player writes it in the Orders tab",
               bind="name"),
        Column("capital", Kind.REF, "the province with the clan's Palace; before the starting "
               "setup, the clan's starting province", owned=True, ref="Provinces"),
        Column("religion", Kind.CHOICE, "Spirits, Zen or Philosophers", choices=data.RELIGIONS,
               noun="a religion"),
        Column("coins", Kind.WHOLE, "coins in the treasury", owned=True),
        Column("techs", Kind.NAMES, "completed techs, comma-separated", owned=True,
               choices=tuple(data.TECHS), noun="a tech"),
        Column("researching", Kind.CHOICE, "the tech being researched (blank = none)",
               owned=True, choices=tuple(data.TECHS), noun="a tech"),
        Column("research points", Kind.WHOLE, "research points gathered for it", owned=True,
               bind="points"),
        Column("extras", Kind.NAMES, "the starting extras taken (two per clan)", owned=True),
        Column("started on turn", Kind.WHOLE, "the turn of the clan's starting setup; blank: "
               "sheetmaster sets the clan up (Palace, Castle, 2 Spearmen, 10000 coins) at the "
               "start of the next turn resolved", owned=True, bind="started"),
        Column("capital moved on turn", Kind.WHOLE, "when the capital last moved (blank = never)",
               owned=True, bind="capital_moved"),
        Column("destroyed", Kind.TEXT, "when and by whom the clan was destroyed (blank = alive)",
               owned=True),
        Column("victory", Kind.TEXT, "victory conditions met, and when", owned=True),
        Column("provinces", Kind.WHOLE, "provinces held (written by sheetmaster)", owned=True,
               optional=True),
        Column("armies", Kind.WHOLE, "armies (written by sheetmaster)", owned=True,
               optional=True),
        Column("army limit", Kind.WHOLE, "Max Army Limit (written by sheetmaster)", owned=True,
               optional=True),
        Column("advisor slots", Kind.WHOLE, "advisors the court holds (written by sheetmaster)",
               owned=True, optional=True),
        Column("research per season", Kind.WHOLE, "research points a season (written by "
               "sheetmaster)", owned=True, optional=True),
        Column("piety coverage", Kind.TEXT, "% of provinces covered by Temples (written by "
               "sheetmaster)", owned=True, optional=True),
        Column("resource supply", Kind.TEXT, "% of provinces each resource supplies; * = "
               "bonus (66% or more) (written by sheetmaster)", owned=True, optional=True),
        Column("email", Kind.TEXT, "the player's e-mail, for form intake (optional)",
               optional=True),
    ),
    key="clan",
    help="One row a clan (player).",
    lists_players=True,
    noun="clan",
    entity=Clan,
)

PROVINCES = Table(
    "Provinces",
    (
        Column("province", Kind.NAME, "the province's name, as players write it", bind="name"),
        Column("flavour", Kind.CHOICE, "Grassland (or blank), Riverplains, Forest or Mountain",
               choices=data.FLAVOURS, choice_aliases=tuple(data.FLAVOUR_ALIASES.items()),
               noun="a flavour"),
        Column("owner", Kind.REF, "the clan holding it; blank = Independent", owned=True,
               ref="Clans", none_words=INDEPENDENT_WORDS),
        Column("borders", Kind.REFS, "provinces it shares a land border with, comma-separated "
               "(listed on both sides)", both_sides=True),
        Column("seas", Kind.NAMES, "the named Seas the province is adjacent to, comma-separated"),
        Column("improvements", Kind.TEXT, "its improvements, comma-separated (at most 4); a "
               "Mine names what it mines: Mine (Iron)", owned=True),
        Column("resources found", Kind.NAMES, "resources prospecting found here", owned=True,
               choices=data.MOUNTAIN_RESOURCES, noun="a Mountain resource", bind="found"),
        Column("times prospected", Kind.WHOLE, "how often it was prospected", owned=True,
               bind="prospected"),
    ),
    key="province",
    help="One row a province. Borders must be listed on both sides.",
    noun="province",
    entity=Province,
)

ARMIES = Table(
    "Armies",
    (
        Column("army", Kind.NAME, "the army's name (unique), as players write it in move "
               "orders", owned=True, bind="name"),
        Column("clan", Kind.REF, "the clan it belongs to; blank = Independent", owned=True,
               ref="Clans", none_words=INDEPENDENT_WORDS),
        Column("type", Kind.CHOICE, "Spearmen, Archers or Cavalry", owned=True,
               choices=tuple(data.ARMY_TYPES), choice_aliases=tuple(data.ARMY_ALIASES.items()),
               noun="an army type", required=True),
        Column("province", Kind.REF, "where it stands", owned=True, ref="Provinces",
               required=True),
        Column("status", Kind.TEXT, "blank while in the field; 'gone (...)' once destroyed or "
               "disbanded (the row is kept; the GM may delete it)", owned=True),
    ),
    help="One row an army. New armies are added at the bottom; an army that is no more is "
         "marked gone.",
    noun="army",
    entity=Army,
    retired=("status", "gone"),
    unique=("army",),
)

ADVISORS = Table(
    "Advisors",
    (
        Column("clan", Kind.REF, "whose court", owned=True, ref="Clans", required=True),
        Column("skill", Kind.CHOICE, "the advisor's skill, e.g. Scholar", owned=True,
               choices=data.SKILLS, noun="an advisor's skill", required=True),
        Column("great", Kind.FLAG, "yes for a Great Advisor", owned=True),
        Column("second skill", Kind.CHOICE, "a Great Advisor's bonus of another advisor",
               owned=True, choices=data.SKILLS, noun="an advisor's skill", bind="second"),
        Column("status", Kind.TEXT, "blank = at court; 'offered' = a travelling advisor "
               "offering his services this turn; 'gone (...)' = no longer (the row is kept; "
               "the GM may delete it)", owned=True),
        Column("since turn", Kind.WHOLE, "when he joined (or showed up)", owned=True,
               bind="since"),
    ),
    help="One row an advisor. New ones are added at the bottom.",
    noun="advisor",
    entity=Advisor,
    retired=("status", "gone"),
)

INDEPENDENTS = Table(
    "Independents",
    (
        Column("provinces", Kind.NAMES, "the provinces this row is for, comma-separated; "
               "blank or 'all' = every Independent province (later rows win)"),
        Column("starting armies", Kind.WHOLE, "Spearmen each gets at the start of the game "
               "(blank = 1)", blank=None, bind="starting"),
        Column("raise chance %", Kind.WHOLE, "chance each season that each raises 1 Spearmen "
               "(blank = 0, never)", blank=None, at_most=100),
        Column("army limit", Kind.WHOLE, "it raises no more Spearmen than this "
               "(blank = its starting armies)", blank=None, bind="limit"),
        Column("castle chance %", Kind.WHOLE, "chance each season that one without a Castle "
               "builds one (blank = 0, never)", blank=None, at_most=100),
    ),
    help="How Independents behave (the game's setup for them). Empty tab: 1 Spearmen each "
         "at the start, no raising, no building.",
    entity=IndependentRule,
)

TABLES = (CLANS, PROVINCES, ARMIES, ADVISORS, INDEPENDENTS)
