"""1800's calendar: a setup turn, then three eras of eight rounds, each round resolved in
stages (draft, turns, war), from 1800 to 1920."""

from __future__ import annotations

from sheetmaster.kit import Calendar, Date

from .tables import ERAS

DRAFT, TURNS, WAR = "draft", "turns", "war"
STAGES = (DRAFT, TURNS, WAR)
ROUNDS_PER_ERA, ERA_COUNT = 8, 3
LAST_ROUND = ROUNDS_PER_ERA * ERA_COUNT
YEAR_SETTING = "year"


def year(rnd: int) -> int:
    """F62: "For 120 years (starting in 1800, divided into three eras with eight rounds each)":
    five years a round, 1800 for round 1; the game ends in 1920, after round 24."""
    return 1800 + 5 * (rnd - 1)


def era_of(rnd: int) -> int:
    return (rnd - 1) // ROUNDS_PER_ERA + 1


def label(date: Date) -> str:
    """What the Game tab's 'year' says of the turn to be resolved next."""
    if date.over:
        return f"{year(LAST_ROUND + 1)}: the game is over"
    if date.setup:
        return "setup, before 1800 (decks, ambitions, the first round laid out)"
    rnd = date.round or 1
    return (f"{year(rnd)}: era {ERAS[era_of(rnd) - 1]}, round {(rnd - 1) % ROUNDS_PER_ERA + 1} "
            f"of {ROUNDS_PER_ERA}, the {date.stage} stage")


CALENDAR = Calendar(
    setup_turn=True,
    stages=STAGES,
    rounds_per_era=ROUNDS_PER_ERA,
    eras=ERA_COUNT,
    label_setting=YEAR_SETTING,
    label_help="the year, era, round and stage to be resolved next (written by sheetmaster); "
               "'round' counts 1-24 through the three eras",
    label=label,
)
