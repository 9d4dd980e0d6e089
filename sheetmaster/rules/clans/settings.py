"""The clans game's calendar and Game settings."""

from __future__ import annotations

from sheetmaster.kit import Calendar, Date, Kind, Setting

from . import data

SEASON, FIRST_YEAR, FIRST_SEASON = "season", "first year", "first season"
NINJA_COST, TRAVELLER_CHANCE = "ninja cost", "travelling advisor chance %"


def season_label(date: Date) -> str:
    """ "Each Global Turn represents one Season ... and thus 4 Global Turns make a Year." """
    return f"{date.season} of year {date.year}"


CALENDAR = Calendar(
    seasons=data.SEASONS,
    first_year=FIRST_YEAR,
    first_year_default=1,
    first_season=FIRST_SEASON,
    label_setting=SEASON,
    label_help="the season being played now (written by sheetmaster from the turn)",
    label=season_label,
)

SETTINGS = (
    Setting(NINJA_COST, "coins a Ninja costs (clans.txt names no price)", Kind.WHOLE,
            default=0),
    Setting(TRAVELLER_CHANCE, "chance each season (0-100) that a travelling advisor shows up "
            "at a random clan's court", Kind.WHOLE, default=10, at_most=100),
)
