"""The orders a clan can give, and the Orders tab's columns for them."""

from __future__ import annotations

from sheetmaster.kit import Column, Field, Kind, OrderKind

EXTRA_TECH, EXTRA_PROVINCE, EXTRA_COINS = "take extra tech", "take extra province", \
    "take extra coins"
RAISE, MOVE, BUILD = "raise army", "move army", "build improvement"
DEMOLISH, PROSPECT = "demolish improvement", "prospect"
HIRE, ACCEPT, DISMISS = "hire advisor", "accept travelling advisor", "dismiss advisor"
RESEARCH, MOVE_CAPITAL = "research", "move capital"
GIVE_COINS, GIVE_TECH = "give coins", "give tech"
ASSASSINATE, INCRIMINATE, SABOTAGE = "assassinate advisor", "incriminate", \
    "sabotage improvement"

EXTRAS = (EXTRA_TECH, EXTRA_PROVINCE, EXTRA_COINS)
OTHER_ACTIONS = (DEMOLISH, PROSPECT, HIRE, ACCEPT, DISMISS, RESEARCH, MOVE_CAPITAL, GIVE_COINS,
                 GIVE_TECH)
NINJAS = (ASSASSINATE, INCRIMINATE, SABOTAGE)

ORDER_COLUMNS = (
    Column("army", Kind.RAW, "the army to move (its name in the Armies tab), or a name for a "
                             "new army"),
    Column("type", Kind.RAW, "army type: Spearmen, Archers or Cavalry"),
    Column("province", Kind.RAW, "the province the order is about"),
    Column("to", Kind.RAW, "where the army moves"),
    Column("improvement", Kind.RAW, "an improvement, e.g. Castle, Rice Farm, Dock"),
    Column("resource", Kind.RAW, "what a Mine mines, or what prospecting looks for"),
    Column("skill", Kind.RAW, "an advisor's skill, e.g. Scholar"),
    Column("tech", Kind.RAW, "a research topic, e.g. Masonry"),
    Column("clan", Kind.RAW, "the other clan: who receives a gift, or a Ninja's target"),
    Column("amount", Kind.RAW, "coins given"),
    Column("blame", Kind.RAW, "incriminate: the clan the false report names as the hirer"),
    Column("details", Kind.RAW, "incriminate: what the false report says the Ninja tried"),
)


def _kind(name: str, fields: tuple[Field, ...], text: str, example: dict,
          aliases: tuple[str, ...] = (), repeatable: bool = False, secret: bool = False
          ) -> OrderKind:
    return OrderKind(name, fields, text, {"player": "Amana", **example}, aliases, repeatable,
                     secret=secret)


PROVINCE = Field("province", names="province")
ORDER_KINDS = (
    _kind(EXTRA_TECH, (Field("tech", names="tech"),),
          "Starting extra: a free tech without prerequisites (two extras per clan).",
          {"tech": "Alchemy"}, ("extra tech",)),
    _kind(EXTRA_PROVINCE, (PROVINCE,),
          "Starting extra: an Independent province bordering your capital.",
          {"province": "Kozu"}, ("extra province",)),
    _kind(EXTRA_COINS, (), "Starting extra: 2500 coins.", {}, ("extra coins",),
          repeatable=True),
    _kind(RAISE, (Field("type", names="army type"), PROVINCE,
                        Field("army", required=False)),
          "Raise 1 army a turn at your Palace, an Army Camp or a Castle (a name is optional).",
          {"type": "Spearmen", "province": "Manakura"}, ("raise", "recruit army")),
    _kind(MOVE, (Field("army"), Field("to", names="province")),
          "Move an army 1 province (or across a Sea from a Dock); into an enemy or Independent "
          "province with armies, it fights.", {"army": "Amana Spearmen 1", "to": "Kozu"},
          ("move", "attack")),
    _kind(BUILD, (Field("improvement", names="improvement"), PROVINCE,
                        Field("resource", names="resource", required=False)),
          "Build an improvement (the first each turn is free). A Mine names its resource.",
          {"improvement": "Castle", "province": "Manakura"}, ("build",), repeatable=True),
    _kind(DEMOLISH, (Field("improvement", names="improvement"), PROVINCE),
          "Demolish one of your improvements for 100 coins.",
          {"improvement": "Fishery", "province": "Manakura"}, ("demolish",), repeatable=True),
    _kind(PROSPECT, (PROVINCE, Field("resource", names="resource", required=False)),
          "Prospect a Mountain province (d100); name a resource to look for it only "
          "(double price, 50%).", {"province": "Ishiyama"}, (), repeatable=True),
    _kind(HIRE, (Field("skill", names="skill"),),
          "Hire 1 advisor a turn (1000 coins; 200 a turn in wages; 1 in 10 is Great).",
          {"skill": "Scholar"}, ("hire",)),
    _kind(ACCEPT, (), "Take the travelling advisor offering you his services (200 coins).",
          {}, ("accept advisor",)),
    _kind(DISMISS, (Field("skill", names="skill"),), "Dismiss an advisor.",
          {"skill": "Geomancer"}, ("dismiss",), repeatable=True),
    _kind(RESEARCH, (Field("tech", names="tech"),),
          "Research a tech; switching halves the points gathered so far.",
          {"tech": "Masonry"}, ("research tech",)),
    _kind(MOVE_CAPITAL, (PROVINCE,),
          "Move your capital (Palace) for 2500 coins, once a year.", {"province": "Kozu"}),
    _kind(GIVE_COINS, (Field("clan", names="player"), Field("amount", count=True)),
          "Give coins to another clan.", {"clan": "Haspen", "amount": 500}),
    _kind(GIVE_TECH, (Field("clan", names="player"), Field("tech", names="tech")),
          "Give a completed tech to another clan (you keep it).",
          {"clan": "Haspen", "tech": "Masonry"}),
    _kind(ASSASSINATE, (Field("clan", names="player"), Field("skill", names="skill")),
          "Ninja (1 a turn, at the end of the season): kill an advisor at an enemy's court.",
          {"clan": "Haspen", "skill": "Spymaster"}, secret=True),
    _kind(INCRIMINATE, (Field("clan", names="player"), Field("blame", names="player"),
                             Field("details", required=False)),
          "Ninja: a false 'ninja caught!' report naming 'blame' is sent to 'clan'.",
          {"clan": "Haspen", "blame": "Kuroda", "details": "poison the Daimyo"}, secret=True),
    _kind(SABOTAGE, (PROVINCE, Field("improvement", names="improvement")),
          "Ninja: destroy an improvement (not a Castle) in an enemy's province.",
          {"province": "Kozu", "improvement": "Library"}, ("sabotage",), secret=True),
)
