"""The decades game's calendar (ten years a turn, a setup turn) and its Game settings: the
numbers decades.txt withholds, which the GM fills in (never invented here)."""

from __future__ import annotations

import re

from sheetmaster.kit import Calendar, Date, Kind, Setting

TIMESCALE_RULE = "Each turn represents ten years in time."

DECADE, START_YEAR = "decade", "start year"
STABILITY_COST, STABILITY_UPKEEP = "stability cost", "stability upkeep"
HAPPINESS_DRIFT = "happiness drift"


def decade_label(date: Date) -> str:
    """ "Each turn represents ten years in time": turn 1 is the start year and nine more."""
    if date.setup or date.year is None:
        return "setup (before the first decade)"
    return f"{date.year}-{date.year + 9}"


CALENDAR = Calendar(
    years_per_turn=10,
    first_year=START_YEAR,
    first_year_default=None,
    setup_turn=True,
    label_setting=DECADE,
    label_help="the ten years being played now (written by sheetmaster from the turn)",
    label=decade_label,
)

SETTINGS = (
    Setting(STABILITY_COST, "economic value that one more level of stability costs "
            "(decades.txt says stability can be bought, but names no price)", Kind.DECIMAL),
    Setting(STABILITY_UPKEEP, "economic value each civilized state pays every turn to maintain "
            "its stability, or takes a stability hit (0: none; decades.txt names no price)",
            Kind.DECIMAL, default=0),
    Setting(HAPPINESS_DRIFT, "the die each happiness moves by every turn, e.g. d3-2 for -1, "
            "0 or +1, or 0 for none (decades.txt: 'determined semi-randomly')", Kind.TEXT),
)

_DRIFT = re.compile(r"d\s*([1-9][0-9]*)\s*(?:([+-])\s*([0-9]+))?")


def parse_drift(text: str) -> tuple[int, int] | None:
    """'d3-2' -> (3, -2); '0' -> None (no drift). Raises ValueError for anything else."""
    cleaned = text.strip().casefold()
    if cleaned in ("0", "none"):
        return None
    match = _DRIFT.fullmatch(cleaned)
    if match is None:
        raise ValueError(f"'{text}' is not a die like d3-2 (or 0 for no drift)")
    offset = int(match[3] or 0) * (-1 if match[2] == "-" else 1)
    return int(match[1]), offset
