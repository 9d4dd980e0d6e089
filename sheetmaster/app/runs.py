"""Running a turn against a store: the imperative shell around the pure engine.

The same steps for a local workbook and for a Google Sheet: lock, read, decide whether the
turn is due, resolve (or check), write. The CLI and the nightly job call these.
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sheetmaster import rules
from sheetmaster.engine import collector
from sheetmaster.engine.checking import PRACTICE_SEED, check
from sheetmaster.engine.turn import resolve
from sheetmaster.kit import values
from sheetmaster.kit.model import GameState, TurnResult
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import Problems, match_columns
from sheetmaster.kit.tabs import (
    DICE_COMMITMENT,
    GAME,
    GAME_TAB,
    all_tables,
    find_tab,
    game_settings,
    refuse_game_tab,
)


class NotDue(Exception):
    """The turn's deadline has not passed and the run was not forced (exit 4)."""


class SeedRefused(Exception):
    """A resolve was given its own dice seed for a turn whose dice are committed (exit 2)."""


class Mode(enum.Enum):
    CHECK = "check"
    RESOLVE = "resolve"  # a GM's run: refuses before the deadline unless forced
    SCHEDULED = "scheduled"  # the nightly job: quietly waits until the deadline has passed


@dataclass
class RunOutcome:
    """What a run did: ``result`` is None when nothing was resolved (``waiting`` says why)."""

    ruleset: Ruleset | None
    result: TurnResult | None
    waiting: str = ""
    written: bool = False
    #: a dry run whose dice are not the turn's own: practice dice before the deadline, or the
    #: dice of a seed given by hand.
    practice: bool = False


def deadline_problem(meta: dict[str, Any], now: datetime | None = None, *,
                     force_hint: bool = True) -> str:
    """Why the current turn must not be resolved yet ('' if it may be); ``force_hint`` says
    how to resolve anyway (a command that has ``--force``)."""
    deadline = meta.get("deadline_at")
    if deadline is None:
        return ""
    now = now or datetime.now(timezone.utc)
    if now < deadline:
        hint = " (use --force to resolve anyway)" if force_hint else ""
        return (f"turn {meta['turn']}'s deadline is {deadline.isoformat(sep=' ')}; orders may "
                f"still arrive{hint}")
    return ""


def ruleset_of(state: GameState) -> Ruleset:
    """The ruleset a game plays by, from its Game tab's 'ruleset' setting."""
    tab = find_tab(state.tables, GAME_TAB)
    if tab is None:
        refuse_game_tab(f"the game has no '{GAME_TAB}' tab, so its ruleset is unknown "
                        f"(tabs: {', '.join(state.tables) or 'none'})")
    problems = Problems()
    game = match_columns(GAME, state.tables[tab], problems)  # headers as the engine reads them
    if "setting" not in game.columns or "value" not in game.columns:
        problems.raise_if_any()
    named = [(int(row), r.get("value")) for row, r in zip(game.index, game.to_dict("records"))
             if values.fold(values.text(r.get("setting", ""))) == "ruleset"]
    for row, _ in named[1:]:
        problems.add(GAME_TAB, row, "setting",
                     f"'ruleset' is listed twice (also on row {named[0][0]})")
    problems.raise_if_any()
    name = values.text(named[0][1]) if named else ""
    if not name:
        refuse_game_tab("there is no 'ruleset' setting")
    try:
        return rules.get(name)
    except KeyError as exc:
        refuse_game_tab(f"setting 'ruleset': {exc.args[0]}")


def refuse_merged_cells(ruleset: Ruleset, state: GameState) -> None:
    """Merged cells in the game's own tabs would read as blanks but the first: refuse them.

    A store that knows of merged ranges lists them in a table's ``attrs["merged"]`` as
    (row, column, range).
    """
    problems = Problems()
    for table in all_tables(ruleset):
        tab = find_tab(state.tables, table.tab)
        for row, column, where in state.tables[tab].attrs.get("merged", ()) if tab else ():
            problems.add(table.tab, row, column,
                         f"cells {where} are merged; unmerge them (each cell of a game tab "
                         f"holds its own value, and merged cells read as blank but the first)")
    problems.raise_if_any()


def decide(state: GameState, mode: Mode, *, force: bool = False,
           now: datetime | None = None) -> str:
    """Why this run must not resolve the turn now ('' if it may).

    A scheduled run needs a deadline: it resolves once the deadline has passed, and since a
    resolve moves the deadline on, a second or late run finds the next turn not yet due.
    """
    if mode is Mode.CHECK or force:
        return ""
    meta = game_settings(state)
    if mode is Mode.SCHEDULED and meta.get("deadline_at") is None:
        return ("the Game tab has no deadline, so a scheduled run cannot tell whether the "
                "turn is due; set 'deadline' (and 'turn length (hours)')")
    return deadline_problem(meta, now, force_hint=mode is Mode.RESOLVE)


def run_turn(store: Any, mode: Mode, *, dry_run: bool = False, force: bool = False,
             seed: int | None = None, secret: str | None = None, now: datetime | None = None,
             progress: Callable[[str], contextlib.AbstractContextManager] | None = None,
             ruleset: str | None = None,
             before_save: Callable[[Ruleset, TurnResult], None] | None = None
             ) -> RunOutcome:
    """Lock, read, decide, resolve or check, and write, on any store.

    The dice come from the game's dice ``secret`` (or a given ``seed``, for tests: refused,
    but in a dry run, once the turn's commitment is published); ``now`` is
    the time of the run (default: the clock). ``progress(what)`` is entered around each long
    step (the CLI shows a bar). ``ruleset``: the rules the game is expected to play by
    (games.toml); a sheet playing by other rules is refused before anything is resolved.
    ``before_save(ruleset, result)`` runs just before the write (the CLI writes the turn
    report then, so a run killed after its write never loses the report).
    """
    now = now or datetime.now(timezone.utc)
    step = progress or (lambda what: contextlib.nullcontext())
    with store.locked(), collector.paused():
        with step("reading the game"):
            state = store.load()
        expected, ruleset = ruleset, ruleset_of(state)
        if expected and rules.get(expected).name != ruleset.name:
            refuse_game_tab(f"setting 'ruleset': the sheet plays by '{ruleset.name}', but this "
                            f"game is listed as a '{expected}' game")
        refuse_merged_cells(ruleset, state)
        if seed is not None and mode is not Mode.CHECK and not dry_run:
            refuse_seed(state, seed)
        waiting = decide(state, mode, force=force or dry_run, now=now)
        if waiting:
            if mode is Mode.RESOLVE:
                raise NotDue(waiting)
            return RunOutcome(ruleset, None, waiting)
        # Before the deadline a dry run must not show the turn's dice: orders may still
        # change, and whoever reads its output must learn nothing of the coming dice.
        early = dry_run and seed is None and mode is not Mode.CHECK and \
            bool(decide(state, Mode.RESOLVE, now=now))
        with step(f"{'checking' if mode is Mode.CHECK else 'resolving'} with the "
                  f"{ruleset.name} rules"):
            result = check(ruleset, state, secret) if mode is Mode.CHECK else \
                resolve(ruleset, state, seed=PRACTICE_SEED if early else seed,
                        secret=secret, now=now)
        if dry_run:
            return RunOutcome(ruleset, result, practice=early or (
                seed is not None and mode is not Mode.CHECK))
        if before_save is not None:
            before_save(ruleset, result)
        with step("writing the results"):
            store.save(ruleset, result)
        return RunOutcome(ruleset, result, written=True)


def refuse_seed(state: GameState, seed: int) -> None:
    """Once a turn's dice commitment is published, its dice are the committed seed's: a resolve
    with a seed of the GM's choosing (who could first try several in dry runs) is refused."""
    game = game_settings(state)
    shown = values.text(game.get(DICE_COMMITMENT))
    if shown:
        raise SeedRefused(
            f"--seed {seed}: the Game tab published turn {game['turn']}'s dice "
            f"commitment ({shown}), so its dice are the committed seed's and no other "
            f"seed may resolve it; resolve without --seed (a --dry-run may still try a seed, "
            f"as practice)")


def undo_turn(store: Any) -> int:
    """Undo the last resolved turn on any store; returns the turn to be played again."""
    with store.locked():
        state = store.load()
        return store.undo(game_settings(state)["turn"])
