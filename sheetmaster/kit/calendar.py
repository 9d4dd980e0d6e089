"""A ruleset's calendar: what a turn number means (year, season, era, round, stage).

Each resolve is one turn. A ruleset declares how turns map onto its game's time: seasons of a
year (clans, Golden Age), years per turn (decades), eras of rounds, and stages within a round
that resolve one after another (1800: draft, turns, war); a stage nobody acts in is resolved
in the same turn as the stage before it (``Ruleset.nobody_acts``). Turn 0 may be a setup turn
with its own order kinds. Phases may run only on some dates (:func:`in_seasons`, :func:`in_stages`,
:func:`on_setup`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sheetmaster.kit import values
from sheetmaster.kit.schema import Kind
from sheetmaster.kit.settings import Setting, Settings

ROUND, STAGE, OVER = "round", "stage", "over"


@dataclass(frozen=True)
class Date:
    """When a turn happens. Fields a calendar does not use are None or ''."""

    turn: int
    year: int | None = None
    season: str = ""
    era: int | None = None
    round: int | None = None
    stage: str = ""
    #: the stages this turn resolved before this one (0: the turn's own stage; 1 and on: a
    #: stage nobody acts in, resolved in the same turn as the stage before it).
    chained: int = 0

    @property
    def setup(self) -> bool:
        """Turn 0 of a calendar that has a setup turn (not a stage chained after it)."""
        return self.turn == 0 and not self.chained

    @property
    def over(self) -> bool:
        return self.stage == OVER


@dataclass(frozen=True)
class Calendar:
    """How turns map onto the game's time. The default is a bare turn number."""

    #: the seasons of a year, in order from the one that starts a year; each turn is the
    #: next season.
    seasons: tuple[str, ...] = ()
    #: years a turn lasts (decades: 10); with seasons, a year is len(seasons) turns.
    years_per_turn: int = 0
    #: the Game setting that gives the year (with seasons: of turn 1; else of turn 1's start).
    first_year: str = ""
    #: what a new game's first year is (None: the GM must set it before the first turn).
    first_year_default: int | None = None
    #: the Game setting that gives turn 1's season (blank: the first season).
    first_season: str = ""
    #: turn 0 is a setup turn, with its own order kinds.
    setup_turn: bool = False
    #: stages of a round, each resolved by its own turn unless nobody acts in it (1800:
    #: draft, turns, war).
    stages: tuple[str, ...] = ()
    rounds_per_era: int = 0
    eras: int = 0
    #: a Game setting sheetmaster writes each turn with :attr:`label` of the next turn.
    label_setting: str = ""
    label_help: str = "written by sheetmaster from the turn"
    label: Callable[[Date], str] = field(default=lambda date: str(date.turn))

    def settings(self) -> tuple[Setting, ...]:
        """The Game settings this calendar reads and writes."""
        out = []
        if self.label_setting:
            out.append(Setting(self.label_setting, self.label_help, written=True))
        if self.first_year:
            out.append(Setting(self.first_year, "the year of turn 1", Kind.INTEGER,
                               default=self.first_year_default))
        if self.first_season:
            out.append(Setting(self.first_season, f"the season of turn 1: "
                               f"{values.or_list(self.seasons)}", Kind.CHOICE,
                               default=self.seasons[0], choices=self.seasons))
        if self.stages:
            out.append(Setting(ROUND, "the round being played (written by sheetmaster)",
                               Kind.WHOLE, default=1, written=True))
            out.append(Setting(STAGE, f"the stage the next resolve runs: "
                               f"{values.or_list(self.stages)} (written by sheetmaster)",
                               Kind.CHOICE, default=self.stages[0],
                               choices=(*self.stages, OVER), written=True))
        return tuple(out)

    def date(self, turn: int, settings: Settings) -> Date:
        """The date of ``turn``; stages and rounds come from the Game tab (they are not a
        fixed function of the turn number: a stage may be skipped)."""
        year = season = None
        if self.seasons and turn > 0:
            first = self.seasons.index(settings.get(self.first_season)) if self.first_season \
                else 0
            index = first + turn - 1
            season = self.seasons[index % len(self.seasons)]
            if self.first_year:
                year = settings.get(self.first_year) + index // len(self.seasons)
        elif self.first_year and turn > 0:
            year = settings.get(self.first_year) + (turn - 1) * max(self.years_per_turn, 1)
        if not self.stages:
            return Date(turn, year, season or "")
        rnd = settings.get(ROUND)
        era = (rnd - 1) // self.rounds_per_era + 1 if self.rounds_per_era else None
        return Date(turn, year, season or "", era, rnd, settings.get(STAGE))

    def next_date(self, date: Date, settings: Settings, next_stage: str = "") -> Date:
        """The date of the next turn; ``next_stage`` overrides the stage that follows."""
        if not self.stages:
            return self.date(date.turn + 1, settings)
        if date.setup:  # the setup turn leads into the first round's first stage
            stage, rnd = next_stage or self.stages[0], date.round or 1
            return Date(date.turn + 1, date.year, date.season,
                        (rnd - 1) // self.rounds_per_era + 1 if self.rounds_per_era else None,
                        rnd, stage)
        current = self.stages.index(date.stage) if date.stage in self.stages else -1
        stage = next_stage or self.stages[(current + 1) % len(self.stages)]
        rnd = (date.round or 1) + (self.stages.index(stage) <= current)  # a new round begins
        if self.eras and rnd > self.rounds_per_era * self.eras:
            stage = OVER
        era = (rnd - 1) // self.rounds_per_era + 1 if self.rounds_per_era else None
        return Date(date.turn + 1, date.year, date.season, era, rnd, stage)

    def written(self, date: Date) -> dict[str, Any]:
        """The Game settings sheetmaster writes for the turn of ``date``."""
        out: dict[str, Any] = {}
        if self.label_setting:
            out[self.label_setting] = self.label(date)
        if self.stages:
            out[ROUND] = date.round
            out[STAGE] = date.stage
        return out

    def turns(self, *, seasons: int = 0, years: int = 0) -> int:
        """How many turns a duration in seasons or years lasts (whole turns, rounded up)."""
        if self.seasons:
            return seasons + years * len(self.seasons)
        return -(-years // self.years_per_turn) if self.years_per_turn else years


def in_seasons(*seasons: str) -> Callable[[Date], bool]:
    """A phase's ``when``: only in these seasons."""
    wanted = {values.fold(s) for s in seasons}
    return lambda date: values.fold(date.season) in wanted


def in_stages(*stages: str) -> Callable[[Date], bool]:
    """A phase's ``when``: only in these stages of a round (never on a setup turn)."""
    return lambda date: not date.setup and date.stage in stages


def on_setup(date: Date) -> bool:
    """A phase's ``when``: only on the setup turn (turn 0)."""
    return date.setup


def first_round_of_era(rounds_per_era: int) -> Callable[[Date], bool]:
    """A phase's ``when``: only on the first round of an era (never on a setup turn)."""
    return lambda date: not date.setup and date.round is not None and \
        (date.round - 1) % rounds_per_era == 0


PLAIN = Calendar()

__all__ = ["Calendar", "Date", "PLAIN", "first_round_of_era", "in_seasons", "in_stages",
           "on_setup"]

