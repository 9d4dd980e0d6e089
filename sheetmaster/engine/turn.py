"""The pure engine: state + orders + seed -> new state + per-order results + events.

``resolve`` is the only loop over phases. It never touches a file or the network; stores do
that on either side of it.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import chain
from typing import Any

import pandas as pd

from sheetmaster.engine import collector
from sheetmaster.engine.order_cap import cap_rows
from sheetmaster.engine.order_outcomes import (
    in_sheet_order,
    orders_after,
    refuse_out_of_turn,
    secret_orders,
    when,
)
from sheetmaster.engine.order_reading import OrderReader, ParsedOrders
from sheetmaster.kit import reasons, values
from sheetmaster.kit.calendar import Date
from sheetmaster.kit.decisions import ANSWER
from sheetmaster.kit.dice import Dice
from sheetmaster.kit.entities import (
    check_both_sides,
    check_not_gm,
    check_unique,
    key_lookups,
    load_rows,
    write_back,
)
from sheetmaster.kit.fairness import (
    HOW_TO_SET,
    DiceSecretError,
    TurnDice,
    dice_line,
    hidden_key,
    turn_dice,
)
from sheetmaster.kit.lasting import Lasting
from sheetmaster.kit.model import (
    Event,
    GameState,
    OrderResult,
    Status,
    TurnResult,
)
from sheetmaster.kit.ruleset import Context, Ruleset, RulesetError, World
from sheetmaster.kit.schema import (
    Problem,
    Problems,
    StateError,
    match_columns,
    validate_table,
)
from sheetmaster.kit.settings import (
    MissingSetting,
    Probe,
    Settings,
    SettingsTable,
    check_keys,
    read_settings,
    setting_rows,
)
from sheetmaster.kit.tabs import (
    DICE_COMMITMENT,
    GAME_TAB,
    GM_ORDERS_TAB,
    LOG_TAB,
    ORDER_CAP,
    ORDERS_SHEET,
    ORDERS_TAB,
    advance_game,
    all_tables,
    find_tab,
    log_rows,
    near_tab,
    parse_deadline,
    raw_setting,
    read_meta,
)
from sheetmaster.kit.values import BadValue, Names


@dataclass
class Loaded:
    """A validated game as a ruleset's ``build_world`` gets it: the typed tables, each
    declared tab's rows as objects (references resolved), each keyed tab's names, the typed
    settings, the turn's date and ``key``: what a ruleset seals its secrets in the shared
    sheet with (a hand of cards), :func:`~sheetmaster.kit.fairness.hidden_key` of the game's dice
    secret, as the hidden draws' ("" when the run was not given the secret: nothing sealed
    can then be opened, and nothing may be sealed)."""

    state: GameState
    rows: dict[str, list[Any]]
    names: dict[str, Names]
    settings: Settings
    date: Date
    key: str = ""


@dataclass
class Prepared:
    """A validated game, ready for its turn to be resolved."""

    state: GameState
    world: World
    settings: Settings
    date: Date
    settings_tables: dict[str, SettingsTable]
    lasting: Lasting


def prepare(ruleset: Ruleset, raw: GameState, secret: str | None = None) -> Prepared:
    """Validate every tab and build the ruleset's world, or raise :class:`StateError`.
    ``secret``: the game's dice secret, which opens what a ruleset sealed (see :class:`Loaded`).

    Nothing is resolved if any state tab is broken: the error names tab, row and column.
    """
    problems = Problems()
    tables: dict[str, pd.DataFrame] = {}
    tab_names: dict[str, str] = {}
    for table in all_tables(ruleset):
        wanted = _orders_tab(raw) if table.tab == ORDERS_TAB else table.tab
        name = find_tab(raw.tables, wanted)
        if name is not None:
            tab_names[table.tab] = name
        if name is None:
            problems.add(wanted, None, None, _missing_tab(raw, wanted))
            continue
        df = raw.tables[name]
        if table.player_input:
            df = _with_formula_text(df)
        if table.player_input or table.append_only:
            tables[table.tab] = match_columns(table, df, problems)
        else:
            tables[table.tab] = validate_table(table, df, problems)
    if any(t.tab not in tables for t in all_tables(ruleset)):
        problems.raise_if_any()
    meta = read_meta(tables[GAME_TAB], problems, raw.meta,
                     setting_rows(ruleset.all_settings()),
                     first_turn=0 if ruleset.calendar.setup_turn else 1)
    meta["tab_names"] = tab_names
    wanted = values.text(meta.get("ruleset"))
    if wanted and values.fold(wanted) != ruleset.name:
        problems.add(GAME_TAB, None, "value",
                     f"this game plays by '{wanted}', not '{ruleset.name}'")
    state = GameState(tables, meta)
    settings = read_settings(ruleset.all_settings(), meta, problems)
    try:
        date = ruleset.calendar.date(state.turn, settings) if "turn" in meta and \
            isinstance(meta["turn"], int) else Date(0)
    except MissingSetting as exc:
        problems.items.append(exc.problem)
        date = Date(state.turn if isinstance(meta.get("turn"), int) else 0)
    try:
        # Cross-checks run even after cell problems, so the GM sees every problem at once.
        key = hidden_key(secret) if secret else ""
        world = ruleset.build_world(load_entities(ruleset, state, settings, date, problems,
                                                  key), problems)
    except Exception:
        if problems.items:
            problems.raise_if_any()
        raise
    if not isinstance(world, World):
        raise RulesetError(f"ruleset {ruleset.name}: build_world made a "
                           f"{type(world).__name__}, which is no sheetmaster.kit.ruleset.World")
    if not isinstance(meta.get("turn"), int):
        problems.raise_if_any()  # an unreadable turn (said so): no timer can be read by it
    try:
        lasting = Lasting.load(ruleset.lasting, state, problems, ruleset.timer_layout, world)
    except Exception:
        problems.raise_if_any()  # a tab broken as reported (e.g. a column missing)
        raise
    problems.raise_if_any()
    settings_tables = {t.tab: SettingsTable(t, state.tables[t.tab])
                       for t in ruleset.tables if t.keys}
    return Prepared(state, world, settings, date, settings_tables, lasting)


def load_entities(ruleset: Ruleset, state: GameState, settings: Settings, date: Date,
                  problems: Problems, key: str = "") -> Loaded:
    """Every declared tab's rows as objects, their references and adjacencies checked;
    ``key`` opens what the ruleset sealed (see :class:`Loaded`)."""
    tables = {t.tab: t for t in ruleset.tables}
    names = key_lookups(ruleset.tables, state.tables)
    rows: dict[str, list[Any]] = {}
    players = ruleset.players_table()
    check_not_gm(players, state.tables.get(players.tab) if players else None, problems)
    for table in ruleset.tables:
        frame = state.tables[table.tab]
        check_unique(table, frame, problems)
        check_keys(table, frame, problems)
        if table.entity is not None:
            rows[table.tab] = load_rows(table, frame, tables, names, problems)
            check_both_sides(table, rows[table.tab], problems)
    return Loaded(state, rows, names, settings, date, key)


def _missing_tab(raw: GameState, wanted: str) -> str:
    """Why a tab the rules need is not in the game, and what to do."""
    near = near_tab(raw.tables, wanted)
    if near is not None:
        return (f"the game has no tab named {wanted!r}; tab {near!r} differs from it only "
                f"in case or spaces: give it exactly that name")
    if wanted in raw.meta.get("unbound_tabs", ()):
        return (f"tab {wanted!r} is not one `sheetmaster init` bound to the game (a run reads "
                f"only the tabs init recorded): if it is the game's, run init again, which "
                f"binds the tabs as they are")
    sheet = raw_setting(raw, ORDERS_SHEET)
    if sheet and wanted == _orders_tab(raw):
        return (f"the game's orders are in a second spreadsheet (the Game tab's "
                f"'{ORDERS_SHEET}': {sheet}), which only the GM's runs on Google Sheets read")
    return (f"the game has no tab named {wanted!r} (it has: {', '.join(raw.tables) or 'none'}); "
            f"if it was renamed, give it back its name")


def _orders_tab(raw: GameState) -> str:
    """The Game tab's 'orders tab' setting, or 'Orders'."""
    return raw_setting(raw, "orders tab") or ORDERS_TAB


def orders_elsewhere(raw: GameState) -> bool:
    """Whether the game's orders are in an orders spreadsheet this state does not hold."""
    return bool(raw_setting(raw, ORDERS_SHEET)) and find_tab(raw.tables, _orders_tab(raw)) is None


def _with_formula_text(df: pd.DataFrame) -> pd.DataFrame:
    """Player cells that hold a formula are read as the formula's text, to be refused."""
    formulas = df.attrs.get("formulas")
    if not formulas:
        return df
    df = df.copy()
    for (row, column), text in formulas.items():
        if row in df.index and column in df.columns:
            df.at[row, column] = text
    return df


def read_orders(ruleset: Ruleset, prepared: Prepared,
                left_out: Collection[int] = ()) -> ParsedOrders:
    """This turn's orders: the Orders tab's, then the GM orders tab's (their rows are
    negative: -5 is the GM orders tab's row 5), but the rows ``left_out``."""
    reader = OrderReader(ruleset.order_kinds, prepared.world.names(), prepared.world.emails())
    meta = prepared.state.meta
    deadline = meta.get("deadline_at")

    def in_time(stamp: Any) -> bool:
        try:
            posted = parse_deadline(stamp, meta["zone"], meta["sheet_zone"])
        except BadValue:
            return True  # an unreadable time is not a reason to hold an order back
        return posted is None or posted <= deadline

    parsed = reader.read(_without(prepared.state.tables[ORDERS_TAB],
                                  [r for r in left_out if r > 0]),
                         prepared.state.turn, in_time if deadline is not None else None)
    cap_rows(parsed, meta[ORDER_CAP], reader.names.get("player") or Names(()))
    if not ruleset.gm_orders:
        return parsed
    gm = OrderReader(ruleset.order_kinds, prepared.world.names()).read(
        _without(prepared.state.tables[GM_ORDERS_TAB], [-r for r in left_out if r < 0]),
        prepared.state.turn)
    first = sum(map(len, parsed.batches.values()))
    for kind, batch in gm.batches.items():
        parsed.batches[kind].extend(batch, rows_sign=-1, seq_offset=first)
    parsed.rejected += [replace(r, row=-r.row) for r in gm.rejected]
    parsed.blank_turn_rows += [-r for r in gm.blank_turn_rows]
    parsed.rejected_rows += [replace(r, row=-r.row) for r in gm.rejected_rows]
    return parsed


def _without(orders: pd.DataFrame, rows: list[int]) -> pd.DataFrame:
    """The orders tab without these sheet rows (as if they were blank)."""
    if not rows:
        return orders
    out = orders.drop(index=rows)
    out.attrs = dict(orders.attrs)
    return out


def _committed(state: GameState, dice: TurnDice) -> bool:
    """Whether the Game tab published this turn's commitment before the deadline (False if
    it shows none); a commitment that does not match stops the run before anything is
    written: the dice would not be the ones players were promised."""
    shown = values.text(state.meta.get(DICE_COMMITMENT)).casefold()
    if not shown:
        return False
    if shown != dice.commitment:
        raise StateError([Problem(
            GAME_TAB, state.meta["setting_rows"].get(DICE_COMMITMENT), "value",
            f"turn {state.turn}'s dice commitment is not the one the dice secret gives: the "
            f"secret was changed after the commitment was published, or the cell was edited. "
            f"Put the secret back, or clear this cell to resolve without a commitment (the "
            f"Log then says none was published)")])
    return True


def resolve(ruleset: Ruleset, raw: GameState, *, seed: int | None = None,
            dice: Dice | None = None, secret: str | None = None,
            now: datetime | None = None, notes_before: bool = False,
            left_out: Collection[int] = (), answers_only: bool = False) -> TurnResult:
    """Resolve the current turn: every phase in order, every order given a result.

    The dice come from the game's dice ``secret`` (the turn's seed is derived from it, checked
    against the commitment the Game tab published, revealed in the Log, and the next turn's
    commitment is published; hidden draws such as a deck's order come from a stream keyed by
    it), or from a given ``seed`` or ``dice`` (tests). ``now`` is when the turn is resolved:
    the next deadline is set after it. ``notes_before``: each player's notes as the game
    stood before the turn (``check`` shows nothing the turn would draw), not after.
    ``left_out``: order rows (negative: the GM orders tab's) read as if they were blank, and
    given no result (``check`` answers without the private orders a reader may not know).
    ``answers_only``: the results, events and notes alone, the new state's tabs not built
    (its ``after`` is the state before: ``check`` runs the turn up to eight times and writes
    nothing of it).

    With stages (a calendar's), the turn resolves its own stage, then each next stage
    nobody acts in (``Ruleset.nobody_acts``), with the same dice; one that needs a setting
    the game lacks is left to the next turn, the Log saying why (:class:`StoppedInChain`).
    """
    with collector.paused():
        again = copy.deepcopy(dice)  # unrolled: a turn stopped in a chained stage runs again
        try:
            return _resolve(ruleset, raw, seed, dice, secret, now, notes_before, left_out,
                            answers_only=answers_only)
        except StoppedInChain as stop:
            return _resolve(ruleset, raw, seed, again, secret, now, notes_before, left_out,
                            limit=stop, answers_only=answers_only)
        except MissingSetting as first:
            raise StateError(_every_missing_setting(
                first.problem, ruleset, raw, seed, dice, secret, now, left_out)) from None


def _every_missing_setting(first: Problem, ruleset: Ruleset, raw: GameState, seed: int | None,
                           dice: Dice | None, secret: str | None, now: datetime | None,
                           left_out: Collection[int]) -> list[Problem]:
    """Every blank setting the turn needs, not only the first one it stopped at: the turn
    run again in memory with a :class:`~sheetmaster.kit.settings.Probe` (scripted ``dice``
    cannot be rolled twice: then the first alone)."""
    if dice is not None:
        return [first]
    probe = Probe()
    # a stand-in may lead the probed turn astray: what it found so far is kept
    with contextlib.suppress(Exception):
        _resolve(ruleset, raw, seed, None, secret, now, False, left_out, probe,
                 limit=StoppedInChain(0))
    return [first, *(p for p in probe.problems if _place(p) != _place(first))]


def _place(problem: Problem) -> tuple:
    """Where a missing setting is: its cell, or (a row to add) what it says is missing. The
    first run and the probe may word one cell's problem differently (a ruleset's own
    wording, the settings tab's), never two cells alike."""
    if problem.row is None:
        return problem.tab, problem.message
    return problem.tab, problem.row, problem.column


def private_notes(world: World) -> dict[str, list[str]]:
    """What each player alone may know of the game as it stands (``world.notes()``, for
    rulesets with secrets such as hands of cards), or nothing."""
    return {p: list(lines) for p, lines in world.notes().items()}


class StoppedInChain(Exception):
    """A stage nobody acts in, chained after the turn's own (``Ruleset.nobody_acts``), needs a
    setting the Game tab lacks: the turn is resolved again, stopping before that stage
    (``stages`` stages chained), which is then the next turn's, and the Log says why."""

    def __init__(self, stages: int, problem: Problem | None = None) -> None:
        super().__init__(stages, problem)
        self.stages, self.problem = stages, problem


def _resolve(ruleset: Ruleset, raw: GameState, seed: int | None, dice: Dice | None,
             secret: str | None, now: datetime | None, notes_before: bool = False,
             left_out: Collection[int] = (), probe: Probe | None = None,
             limit: StoppedInChain | None = None, answers_only: bool = False) -> TurnResult:
    prepared = prepare(ruleset, raw, secret)
    if probe is not None:
        prepared.settings.probe = probe
        for table in prepared.settings_tables.values():
            table.probe = probe
    before = private_notes(prepared.world) if notes_before else None
    state = prepared.state
    turn = state.turn
    fair = published = None
    if seed is None and dice is None:
        if secret is None:
            raise DiceSecretError(f"no dice secret, so the dice cannot be rolled. {HOW_TO_SET}")
        fair = turn_dice(secret, turn)
        published = _committed(state, fair)
        seed = fair.seed
    elif seed is None:
        seed = dice.seed
    dice = dice or Dice(seed, hidden_key(secret) if secret else "")
    date = prepared.date
    if date.over:
        raise StateError([Problem(GAME_TAB, state.meta["setting_rows"].get("stage"), "value",
                                  "the game is over; there is no turn left to resolve")])
    parsed = read_orders(ruleset, prepared, left_out)
    batches = parsed.batches
    private = secret_orders(ruleset, prepared.world, batches)
    refused = refuse_out_of_turn(ruleset, date, batches)
    events: list[Event] = []
    with Context(prepared.world, batches, dice, turn, events, parsed.rejected_rows,
                 refused=refused, date=date, settings=prepared.settings,
                 settings_tables=prepared.settings_tables) as ctx:
        ctx.emit("", "turn", f"turn {turn} resolved by the {ruleset.title} rules, dice seed {seed}")
        upcoming = turn_dice(secret, turn + 1) if fair is not None else None
        if fair is not None:
            ctx.emit("", "dice", dice_line(fair, bool(published), upcoming.commitment))
        prepared.lasting.attach(ctx)
        if ctx.decisions is not None:
            for order in ctx.orders(ANSWER):
                ctx.decisions.answer(ctx, order)
        _stage_line(ruleset, ctx)
        _run_phases(ruleset, ctx)
        idle = {kind for phase in ruleset.phases if not phase.runs_on(date)
                for kind in phase.orders}
        for batch in batches.values():  # the turn's orders are its own stage's: none is left
            left = [i for i, _ in batch.pending()]  # to a stage chained after it
            if left:
                batch.resolve_each(left, Status.REJECTED, reasons.NOT_NOW.say(
                    kind=batch.kind, now=when(date)) if batch.kind in idle else
                    reasons.NOT_RESOLVED.say())
        last = _run_chained(ruleset, ctx, prepared.settings, limit)
        for r in parsed.rejected:
            r.secret = private.get(r.kind) is True
        ordered = in_sheet_order([*parsed.rejected, *chain.from_iterable(
            batch.results(private.get(batch.kind, False)) for batch in batches.values())])
        next_date = ruleset.calendar.next_date(last, prepared.settings, ctx.next_stage)
        notes = before if before is not None else private_notes(prepared.world)
        shown = orders_tab_results(state, ordered)  # (orders kept private: each made secret)
        if answers_only:
            return TurnResult(ruleset.name, turn, seed, state, state, ordered, events, notes)
        after_tables = dict(state.tables)
        after_tables.update(write_back(prepared.world, state, ruleset.written))
        after_tables.update(prepared.lasting.to_tables(state))
        after_tables[ORDERS_TAB] = orders_after(
            state.tables[ORDERS_TAB], shown,
            [r for r in parsed.blank_turn_rows if r > 0], turn)
        if ruleset.gm_orders:
            after_tables[GM_ORDERS_TAB] = orders_after(
                state.tables[GM_ORDERS_TAB], [replace(r, row=-r.row) for r in ordered if r.row < 0],
                [-r for r in parsed.blank_turn_rows if r < 0], turn)
        after_tables[LOG_TAB] = log_rows(state.tables[LOG_TAB], turn, events)
        revealed = {"last dice salt": fair.salt if fair else "",
                    DICE_COMMITMENT: upcoming.commitment if upcoming else ""}
        after_tables[GAME_TAB] = advance_game(state.tables[GAME_TAB], state.meta, seed,
                                              {**ruleset.calendar.written(next_date), **revealed},
                                              setting_rows(ruleset.all_settings()), now)
        after_meta = dict(state.meta, turn=turn + 1)
        return TurnResult(ruleset.name, turn, seed, state, GameState(after_tables, after_meta),
                          ordered, events, notes)


def orders_private(state: GameState) -> bool:
    """Whether the game keeps its orders in the GM's own spreadsheet (its ``orders sheet``)."""
    return bool(values.text(state.meta.get(ORDERS_SHEET)))


def orders_tab_results(state: GameState, results: list[OrderResult]) -> list[OrderResult]:
    """The results the orders tab shows. In a game whose orders are in the GM's own
    spreadsheet, that tab shows every reason, and every order becomes secret everywhere
    else: no report, log or output anyone else reads tells what was ordered."""
    mine = [r for r in results if r.row > 0]
    if not orders_private(state):
        return mine
    shown = [replace(r, secret=False) for r in mine]
    for r in mine:
        r.secret = True
    return shown


#: the Log's line that names the stage the phases after it resolve (calendars with stages)
STAGE_EVENT = "stage"
STOPPED_EVENT = "stage stopped"


def _stage_line(ruleset: Ruleset, ctx: Context, why: str = "") -> None:
    """The Log says which stage the lines after it belong to (a calendar with stages)."""
    if ruleset.calendar.stages:
        ctx.emit("", STAGE_EVENT, _stage_name(ruleset, ctx.date) + why)


def _stage_name(ruleset: Ruleset, date: Date) -> str:
    """The calendar's label of ``date`` ('1810: era I, round 3 of 8, the draft stage'), or,
    if it has none, its round and stage."""
    if ruleset.calendar.label_setting:
        return ruleset.calendar.label(date)
    return f"round {date.round}, the {date.stage} stage"


def _nobody_acts(ruleset: Ruleset, ctx: Context, date: Date) -> str:
    """Why no player acts in the stage of ``date`` ('' if someone may: the ruleset says
    players act in it, or a decision is open, whose answer anyone owing it may post)."""
    if ruleset.nobody_acts is None or date.over:
        return ""
    if ctx.decisions is not None and ctx.decisions.open():
        return ""
    return ruleset.nobody_acts(ctx.world, date)


def _run_chained(ruleset: Ruleset, ctx: Context, settings: Settings,
                 limit: StoppedInChain | None) -> Date:
    """After the turn's own stage, each next stage nobody acts in, in the same turn (its
    phases after a ``stage`` line saying why); returns the date of the last stage resolved.

    ``limit``: how many stages may chain (the turn run again after a chained stage stopped
    on a missing setting: it stops before that stage and logs why). Without one, a missing
    setting in a chained stage raises :class:`StoppedInChain`, so nothing of that stage is
    kept."""
    date = ctx.date
    for stages in range(len(ruleset.calendar.stages)):
        upcoming = ruleset.calendar.next_date(date, settings, ctx.next_stage)
        why = _nobody_acts(ruleset, ctx, upcoming)
        if not why:
            break
        upcoming = replace(upcoming, turn=date.turn, chained=stages + 1)
        if limit is not None and stages >= limit.stages:
            if limit.problem is not None:
                ctx.emit("", STOPPED_EVENT, f"{_stage_name(ruleset, upcoming)}: nobody acts "
                         f"in it ({why}), but it is not resolved with this turn: it needs "
                         f"what the game lacks ({limit.problem}). It is the next turn, "
                         f"resolved once that is given")
            break
        ctx.date, ctx.next_stage = upcoming, ""
        _stage_line(ruleset, ctx, f" (in the same turn: nobody acts in it; {why})")
        try:
            _run_phases(ruleset, ctx)
        except MissingSetting as exc:
            raise StoppedInChain(stages, exc.problem) from None
        date = upcoming
    ctx.date = date
    return date


def _run_phases(ruleset: Ruleset, ctx: Context) -> None:
    """Every phase that runs on this date, in order, as its turn order lays it out."""
    for step in ruleset.steps():
        phases = [p for p in step if p.runs_on(ctx.date)]
        if not phases:
            continue
        if not phases[0].order.per_player:
            ctx.enter(phases[0])
            phases[0].run(ctx)
            continue
        for player in phases[0].order.players(ctx):
            for phase in phases:
                ctx.enter(phase, player)
                phase.run(ctx)
    ctx.enter(None)


__all__ = ["Loaded", "Prepared", "StateError", "StoppedInChain", "prepare", "resolve"]
