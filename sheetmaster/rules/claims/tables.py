"""The claims game's state tabs: Territories, Players, Wars and War results."""

from __future__ import annotations

from sheetmaster.schema import Column, Kind, Table

#: "1 Iron/Rubber/Coal/Oil/Uranium ... for each ... resource territory he controls"
STANDARD_RESOURCES = ("iron", "rubber", "coal", "oil", "uranium")
GOLD = "gold"

TERRITORIES = Table(
    "Territories",
    (
        Column("territory", Kind.NAME, "the territory's name, as players write it"),
        Column("owner", Kind.TEXT, "the player who owns it; blank = neutral", owned=True),
        Column("resource", Kind.TEXT,
               "blank, Gold, Iron, Rubber, Coal, Oil, Uranium, or a special resource's name"),
        Column("capital of", Kind.TEXT, "the player whose capital this is (blank if none)"),
        Column("borders", Kind.NAMES, "territories it shares a land border with, comma-separated"),
        Column("waterways", Kind.NAMES, "territories it reaches by waterway, comma-separated"),
    ),
    key="territory",
    help="One row a territory. Borders and waterways must be listed on both sides.",
)

PLAYERS = Table(
    "Players",
    (
        Column("player", Kind.NAME, "the player's (nation's) name"),
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
)

WARS = Table(
    "Wars",
    (
        Column("war", Kind.NAME, "the war's name"),
        Column("side", Kind.NAME, "one side of that war"),
        Column("members", Kind.NAMES, "players on that side, comma-separated"),
        Column("ended", Kind.FLAG, "yes once the war is over (blank = active)"),
    ),
    help="One row per side of each war. Players commit dice to a side with 'commit dice'.",
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
        Column("outcome", Kind.TEXT, "won, lost or tied", owned=True),
    ),
    help="Written by sheetmaster: every war's result, every turn. Winners may claim the "
         "losers' territories next turn.",
)

TABLES = (TERRITORIES, PLAYERS, WARS, WAR_RESULTS)
