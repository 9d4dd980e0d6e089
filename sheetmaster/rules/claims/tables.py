"""The claims game's state tabs (Territories, Players, Wars and War results) and the row
objects they load into."""

from __future__ import annotations

from dataclasses import dataclass, field

from sheetmaster.kit import Column, Kind, Table

#: "1 Iron/Rubber/Coal/Oil/Uranium ... for each ... resource territory he controls"
STANDARD_RESOURCES = ("iron", "rubber", "coal", "oil", "uranium")
GOLD = "gold"


@dataclass(slots=True)
class Territory:
    name: str
    row: int
    owner: str  # '' = neutral
    #: as typed; the world folds it to '' | 'gold' | a standard resource | a special one's name
    resource: str
    capital_of: str
    borders: tuple[str, ...]
    waterways: tuple[str, ...]


@dataclass(slots=True)
class Player:
    name: str
    row: int
    gold: int
    iron: int
    rubber: int
    coal: int
    oil: int
    uranium: int
    other_resources: str
    armies: int
    in_exile: bool
    territories: int
    email: str
    #: resource name -> units held (standard ones lower-case, special ones as written).
    resources: dict[str, int] = field(default_factory=dict)
    exiled_this_turn: bool = False
    #: army power x 10, set in phase D: 10 + one per distinct resource held.
    power_tenths: int = 10


@dataclass(slots=True)
class WarRow:
    war: str
    side: str
    members: tuple[str, ...]
    ended: bool
    row: int


@dataclass(slots=True)
class WarResult:
    turn: int
    war: str
    side: str
    members: tuple[str, ...]
    dice: str
    power: str
    score: str
    outcome: str
    row: int = 0


TERRITORIES = Table(
    "Territories",
    (
        Column("territory", Kind.NAME, "the territory's name, as players write it",
               bind="name"),
        Column("owner", Kind.REF, "the player who owns it; blank = neutral", owned=True,
               ref="Players"),
        Column("resource", Kind.TEXT,
               "blank, Gold, Iron, Rubber, Coal, Oil, Uranium, or a special resource's name"),
        Column("capital of", Kind.REF, "the player whose capital this is (blank if none)",
               ref="Players"),
        Column("borders", Kind.REFS, "territories it shares a land border with, comma-separated",
               both_sides=True),
        Column("waterways", Kind.REFS, "territories it reaches by waterway, comma-separated",
               both_sides=True),
    ),
    key="territory",
    help="One row a territory. Borders and waterways must be listed on both sides.",
    noun="territory",
    entity=Territory,
)

PLAYERS = Table(
    "Players",
    (
        Column("player", Kind.NAME, "the player's (nation's) name", bind="name"),
        Column("gold", Kind.WHOLE, "gold in the treasury", owned=True),
        *(Column(r, Kind.WHOLE, f"{r.title()} held (reset to 0 every turn)", owned=True)
          for r in STANDARD_RESOURCES),
        Column("other resources", Kind.TEXT,
               "special resources held, e.g. 'Spice: 1, Silk: 2' (reset every turn)", owned=True),
        Column("armies", Kind.WHOLE, "total armies", owned=True),
        Column("in exile", Kind.FLAG, "yes while the player is in exile", owned=True),
        Column("territories", Kind.WHOLE, "territories owned (filled in by sheetmaster)",
               owned=True, optional=True),
        Column("email", Kind.TEXT, "the player's e-mail, for form intake (optional)",
               optional=True),
    ),
    key="player",
    help="One row a player.",
    noun="player",
    entity=Player,
)

WARS = Table(
    "Wars",
    (
        Column("war", Kind.NAME, "the war's name"),
        Column("side", Kind.NAME, "one side of that war"),
        Column("members", Kind.REFS, "players on that side, comma-separated", ref="Players"),
        Column("ended", Kind.FLAG, "yes once the war is over (blank = active)"),
    ),
    help="One row per side of each war. Players commit dice to a side with 'commit dice'.",
    entity=WarRow,
)

WAR_RESULTS = Table(
    "War results",
    (
        Column("turn", Kind.WHOLE, owned=True),
        Column("war", Kind.NAME, owned=True),
        Column("side", Kind.NAME, owned=True),
        Column("members", Kind.NAMES, "players on that side this turn", owned=True),
        Column("dice", Kind.TEXT, "each player's valid dice", owned=True),
        Column("power", Kind.TEXT, "each player's army power", owned=True),
        Column("score", Kind.TEXT, "sum of dice x power", owned=True),
        Column("outcome", Kind.CHOICE, "won, lost or tied", owned=True,
               choices=("won", "lost", "tied"), noun="an outcome"),
    ),
    help="Written by sheetmaster: every war's result, every turn. Winners may claim the "
         "losers' territories next turn.",
    entity=WarResult,
)

TABLES = (TERRITORIES, PLAYERS, WARS, WAR_RESULTS)
