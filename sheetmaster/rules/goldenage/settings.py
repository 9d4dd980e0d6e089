"""The calendar, the Game-tab settings and the Settings tab: every number Golden Age 1861
leaves to the printed rulebook is a GM setting with no default. A turn that needs a blank
one stops before anything is written, naming it (digest 0.2).
"""

from __future__ import annotations

from typing import Any

from sheetmaster.kit import (
    Calendar,
    Column,
    Context,
    Date,
    Kind,
    MissingSetting,
    Problem,
    Setting,
    Table,
)

from . import data

SEASON, FIRST_YEAR, FIRST_SEASON = "season", "first year", "first season"


def season_label(date: Date) -> str:
    """'Spring 1861'; turn 0 is the setup turn."""
    return f"{date.season} {date.year}" if date.season else "setup (turn 0)"


CALENDAR = Calendar(
    seasons=data.SEASONS,
    first_year=FIRST_YEAR,
    first_year_default=data.FIRST_YEAR,
    first_season=FIRST_SEASON,
    setup_turn=True,
    label_setting=SEASON,
    label_help="the season being played now (written by sheetmaster from the turn)",
    label=season_label,
)

# Game-tab settings: numbers the rulebook prints and the notes withhold.
LAND_DIE = "land combat die"
NAVAL_DIE = "naval combat die"
ENTRENCH_BONUS = "entrenchment bonus"
FORT_BONUS = "fort bonus"
DEFENSIVE_SUPPORT = "defensive support bonus"
COASTAL_SUPPORT = "coastal support bonus"
NORTHERN_PENALTY = "northern winter attack penalty"
SHIPS_LOST = "ships lost by a defeated fleet"
BLOCKADE_ZONE = "ships to blockade a sea zone"
BLOCKADE_PORT = "ships to blockade a port"
LAND_SUPPLY_LIMIT = "land supply penalties before removal"
CAPTURE_ARTILLERY = "capture artillery chance %"
KILL_GENERAL = "kill general chance %"
NATIONALIST_CHANCE = "nationalist revolt chance %"
NATIONALIST_REBELS = "nationalist rebels per revolt"
REACTIONARY_CHANCE = "reactionary revolt chance %"
REACTIONARY_REBELS = "reactionary rebels per revolt"
TECH_UNREST = "tech unrest chance %"
PROGRAMS_COST = "displaced workers programs cost"
INTEGRATION_PAYMENT = "integration payment per season"
CANAL_START = "canal construction cost"
PRESTIGE_INCOME = "currency per prestige"
ZOC_IMMUNE = "immune to zones of control"


def _book(name: str, page: str, what: str, kind: Kind = Kind.WHOLE,
            at_most: int | None = None) -> Setting:
    return Setting(name, f"{what} (the rulebook's {page}; no default: fill it in)", kind,
                   at_most=at_most)


SETTINGS = (
    _book(LAND_DIE, "p.32", "sides of the die each land unit rolls in combat"),
    _book(NAVAL_DIE, "p.23-26", "sides of the die each fleet rolls in a naval engagement"),
    _book(ENTRENCH_BONUS, "p.32", "strength each entrenched Infantry (and garrison unit) "
            "adds when defending"),
    _book(FORT_BONUS, "p.29", "strength an active fort adds to its owner's defence"),
    _book(DEFENSIVE_SUPPORT, "p.20-21", "strength each defensive support adds to the "
            "supported forces in any engagement"),
    _book(COASTAL_SUPPORT, "p.25", "strength a warship's coastal support adds in one "
            "engagement"),
    _book(NORTHERN_PENALTY, "p.32", "strength taken from an attack into a Northern "
            "province in Winter"),
    _book(SHIPS_LOST, "p.23-26", "ships the loser of a naval battle loses before it "
            "retreats"),
    _book(BLOCKADE_ZONE, "p.12, 25", "ships of one nation needed to blockade a sea zone"),
    _book(BLOCKADE_PORT, "p.12, 25", "ships of one nation needed to blockade a port"),
    _book(LAND_SUPPLY_LIMIT, "p.8", "supply penalties at which a land unit is removed"),
    _book(CAPTURE_ARTILLERY, "p.22", "chance (0-100) an occupier captures each enemy "
            "Artillery", at_most=100),
    _book(KILL_GENERAL, "p.21", "chance (0-100) an occupier kills each enemy General",
            at_most=100),
    _book(NATIONALIST_CHANCE, "p.17", "chance (0-100) each Summer that a province under "
            "forceful annexation revolts", at_most=100),
    _book(NATIONALIST_REBELS, "p.17", "Nationalist Rebel units a nationalist revolt "
            "raises"),
    _book(REACTIONARY_CHANCE, "p.18", "chance (0-100), each Summer and Winter, that a "
            "province with reactionary unrest revolts", at_most=100),
    _book(REACTIONARY_REBELS, "p.18", "Reactionary Rebel units a reactionary revolt "
            "raises"),
    _book(TECH_UNREST, "p.5, 18", "chance (0-100) that each province of a nation whose "
            "tech goes up falls into reactionary unrest", at_most=100),
    _book(PROGRAMS_COST, "p.18", "currency the programs for displaced workers cost in one "
            "province"),
    _book(INTEGRATION_PAYMENT, "p.13-14", "currency each season of a diplomatic "
            "integration costs"),
    _book(CANAL_START, "p.12", "currency 'build-canal' costs to begin a canal"),
    _book(PRESTIGE_INCOME, "p.16", "currency each prestige achievement pays once a year"),
    Setting(ZOC_IMMUNE, "unit types immune to zones of control, comma-separated, or none "
            "(the rulebook's p.23-26)", default="none"),
)

#: The Settings tab: costs, build times, upkeep, strengths... by item and level.
ITEM, LEVEL = "item", "level"
COST, BUILD_SEASONS, UPKEEP, STRENGTH, DICE, ACTIONS, INCOME_COL, VALUE, CLASS = (
    "cost", "build seasons", "upkeep", "strength", "dice", "movement actions", "income",
    "value", "classification")

_LAND = (COST, BUILD_SEASONS, UPKEEP, STRENGTH, DICE, CLASS)
_SHIP = (COST, BUILD_SEASONS, UPKEEP, STRENGTH, ACTIONS, CLASS)
_BUILT = (COST, BUILD_SEASONS)
#: What a new game's Settings tab lists: (item, levels, the rulebook's page, the columns a
#: turn reads). A blank level serves every level.
STARTERS: tuple[tuple[str, tuple[int | None, ...], str, tuple[str, ...]], ...] = (
    (data.INFANTRY, (None,), "p.20-21, 32", _LAND),
    (data.CONSCRIPT, (None,), "p.22, 32", (*_LAND, VALUE)),
    (data.GENERAL, (None,), "p.21, 32", _LAND),
    (data.ARTILLERY, (None,), "p.22, 32", _LAND),
    (data.LANDSHIP, (None,), "p.32", _LAND),
    (data.NATIONALIST_REBEL, (None,), "p.17, 32", (STRENGTH, DICE)),
    (data.REACTIONARY_REBEL, (None,), "p.18, 32", (STRENGTH, DICE)),
    (data.WARSHIP, (None,), "p.23-26", _SHIP),
    (data.BATTLESHIP, (None,), "p.24", _SHIP),
    (data.SUBMARINE, (None,), "p.23-26", _SHIP),
    (data.PORT, (1, 2, 3, 4), "p.27-28", (*_BUILT, INCOME_COL)),
    (data.FACTORY, (None,), "p.28", _BUILT),
    (data.ACADEMY, (None,), "p.26-31", _BUILT),
    (data.FORT, (None,), "p.29", (*_BUILT, UPKEEP)),
    (data.RAILROAD, (None,), "p.26-31", _BUILT),
    (data.INCOME, (None,), "p.7", (VALUE,)),
    (data.TECH_UPGRADE, (2, 3, 4, 5), "p.5", (COST,)),
)


def _starter_rows() -> tuple[dict[str, Any], ...]:
    """A new game's Settings rows: every item a turn may need, its numbers blank."""
    rows = []
    for item, levels, page, columns in STARTERS:
        for level in levels:
            which = "every level; add a row per level where they differ" if level is None \
                else f"level {level}"
            rows.append({ITEM: item, LEVEL: level, **dict.fromkeys(columns),
                         "help": f"the rulebook's {page}: fill in "
                                 f"{', '.join(c + ' (optional)' * (c == CLASS) for c in columns)} "
                                 f"({which})"})
    return tuple(rows)

SETTINGS_TAB = Table("Settings", (
    Column(ITEM, Kind.NAME, "a unit type, Port, Factory, Academy, Fort, Railroad, Income or "
           "Tech upgrade"),
    Column(LEVEL, Kind.WHOLE, "the tech level it applies at (a Port: its level); blank = "
           "every level"),
    Column(COST, Kind.WHOLE, "currency to build, muster or upgrade to this level",
           blank=None),
    Column(BUILD_SEASONS, Kind.WHOLE, "seasons it takes to build or muster", blank=None),
    Column(UPKEEP, Kind.WHOLE, "currency each Spring", blank=None),
    Column(STRENGTH, Kind.INTEGER, "a unit's combat strength (a ship's in naval battles)",
           blank=None),
    Column(DICE, Kind.WHOLE, "dice a land unit rolls in combat", blank=None),
    Column(ACTIONS, Kind.WHOLE, "a ship's movement actions (and supply range)", blank=None),
    Column(INCOME_COL, Kind.WHOLE, "a port's seasonal income at this level", blank=None),
    Column(VALUE, Kind.WHOLE, "Income: currency per economic value point; Conscript: economic "
           "value per Conscript mustered", blank=None),
    Column(CLASS, Kind.TEXT, "the unit's class name at this level, e.g. Ironclad"),
    Column("help", Kind.TEXT, "notes", optional=True),
), help="The printed rulebook's numbers, by item and level: fill in what your game uses. "
   "A turn that needs a blank cell stops before anything is written and names it.",
   keys=(ITEM, LEVEL), starter_rows=_starter_rows())


def number(ctx: Context, item: str, level: int, column: str) -> Any:
    """A number from the Settings tab: the row for ``item`` at ``level``, else its row with
    a blank level (every level); a blank cell or a missing row stops the turn. Read once a
    turn (a season asks for the same numbers thousands of times)."""
    cache = ctx.world.settings_cache
    key = (item, level, column)
    if key not in cache:
        cache[key] = _number(ctx, item, level, column)
    return cache[key]


def _number(ctx: Context, item: str, level: int, column: str) -> Any:
    table = ctx.settings_table(SETTINGS_TAB.tab)
    for lvl in (level, 0):
        if table.has(item, lvl):
            try:
                return table.get(item, lvl, column=column)
            except MissingSetting as exc:
                which = f"level {level}" if lvl else "every level (its level is blank)"
                raise MissingSetting(Problem(
                    exc.problem.tab, exc.problem.row, exc.problem.column,
                    f"is blank, and this turn needs it ({item} at {which})")) from None
    return ctx.require(Problem(SETTINGS_TAB.tab, None, None, f"this turn needs a row for "
                               f"{item} at level {level} (or one with a blank level for "
                               f"every level); add it"),
                       next((c for c in SETTINGS_TAB.columns if c.name == column), None))


def has_number(ctx: Context, item: str, level: int, column: str) -> bool:
    """Whether the Settings tab gives this number (without stopping the turn)."""
    try:
        number(ctx, item, level, column)
    except MissingSetting:
        return False
    return True
