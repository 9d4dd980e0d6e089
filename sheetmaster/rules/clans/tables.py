"""The clans game's state tabs: Clans, Provinces, Armies, Advisors and Independents."""

from __future__ import annotations

from sheetmaster.schema import Column, Kind, Table

CLANS = Table(
    "Clans",
    (
        Column("clan", Kind.NAME, "the clan's name, as its player writes it in the Orders tab"),
        Column("capital", Kind.TEXT, "the province with the clan's Palace; before the starting "
               "setup, the clan's starting province", owned=True),
        Column("religion", Kind.TEXT, "Spirits, Zen or Philosophers"),
        Column("coins", Kind.WHOLE, "coins in the treasury", owned=True),
        Column("techs", Kind.NAMES, "completed techs, comma-separated", owned=True),
        Column("researching", Kind.TEXT, "the tech being researched (blank = none)", owned=True),
        Column("research points", Kind.WHOLE, "research points gathered for it", owned=True),
        Column("extras", Kind.NAMES, "the starting extras taken (two per clan)", owned=True),
        Column("started on turn", Kind.WHOLE, "the turn of the clan's starting setup; blank: "
               "sheetmaster sets the clan up (Palace, Castle, 2 Spearmen, 10000 coins) at the "
               "start of the next turn resolved", owned=True),
        Column("capital moved on turn", Kind.WHOLE, "when the capital last moved (blank = never)",
               owned=True),
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
)

PROVINCES = Table(
    "Provinces",
    (
        Column("province", Kind.NAME, "the province's name, as players write it"),
        Column("flavour", Kind.TEXT, "Grassland (or blank), Riverplains, Forest or Mountain"),
        Column("owner", Kind.TEXT, "the clan holding it; blank = Independent", owned=True),
        Column("borders", Kind.NAMES, "provinces it shares a land border with, comma-separated "
               "(listed on both sides)"),
        Column("seas", Kind.NAMES, "the named Seas the province is adjacent to, comma-separated"),
        Column("improvements", Kind.NAMES, "its improvements, comma-separated (at most 4); a "
               "Mine names what it mines: Mine (Iron)", owned=True),
        Column("resources found", Kind.NAMES, "resources prospecting found here", owned=True),
        Column("times prospected", Kind.WHOLE, "how often it was prospected", owned=True),
    ),
    key="province",
    help="One row a province. Borders must be listed on both sides.",
)

ARMIES = Table(
    "Armies",
    (
        Column("army", Kind.NAME, "the army's name (unique), as players write it in move "
               "orders", owned=True),
        Column("clan", Kind.TEXT, "the clan it belongs to; blank = Independent", owned=True),
        Column("type", Kind.NAME, "Spearmen, Archers or Cavalry", owned=True),
        Column("province", Kind.NAME, "where it stands", owned=True),
        Column("status", Kind.TEXT, "blank while in the field; 'gone (...)' once destroyed or "
               "disbanded (the row is kept; the GM may delete it)", owned=True),
    ),
    help="One row an army. New armies are added at the bottom; an army that is no more is "
         "marked gone.",
)

ADVISORS = Table(
    "Advisors",
    (
        Column("clan", Kind.NAME, "whose court", owned=True),
        Column("skill", Kind.NAME, "the advisor's skill, e.g. Scholar", owned=True),
        Column("great", Kind.FLAG, "yes for a Great Advisor", owned=True),
        Column("second skill", Kind.TEXT, "a Great Advisor's bonus of another advisor",
               owned=True),
        Column("status", Kind.TEXT, "blank = at court; 'offered' = a travelling advisor "
               "offering his services this turn; 'gone (...)' = no longer (the row is kept; "
               "the GM may delete it)", owned=True),
        Column("since turn", Kind.WHOLE, "when he joined (or showed up)", owned=True),
    ),
    help="One row an advisor. New ones are added at the bottom.",
)

INDEPENDENTS = Table(
    "Independents",
    (
        Column("provinces", Kind.NAMES, "the provinces this row is for, comma-separated; "
               "blank or 'all' = every Independent province (later rows win)"),
        Column("starting armies", Kind.TEXT, "Spearmen each gets at the start of the game "
               "(blank = 1)"),
        Column("raise chance %", Kind.TEXT, "chance each season that each raises 1 Spearmen "
               "(blank = 0, never)"),
        Column("army limit", Kind.TEXT, "it raises no more Spearmen than this "
               "(blank = its starting armies)"),
        Column("castle chance %", Kind.TEXT, "chance each season that one without a Castle "
               "builds one (blank = 0, never)"),
    ),
    help="How Independents behave (the game's setup for them). Empty tab: 1 Spearmen each "
         "at the start, no raising, no building.",
)

TABLES = (CLANS, PROVINCES, ARMIES, ADVISORS, INDEPENDENTS)
