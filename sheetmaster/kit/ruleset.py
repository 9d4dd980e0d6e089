"""Rulesets as data: tables, order kinds, settings, a calendar and ordered phases.

A ruleset module declares one :class:`Ruleset`, checked when it is made (every order kind
consumed by exactly one phase, every tab and setting it names declared). The engine validates
the state against its tables, reads orders with its order kinds, builds its world, and runs
its phases in order, each as its turn order lays it out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import repeat
from operator import attrgetter
from typing import Any, Generic, TypeVar

from sheetmaster.kit.calendar import PLAIN, Calendar, Date
from sheetmaster.kit.decisions import ANSWER_COLUMNS, ANSWER_KIND, Decisions
from sheetmaster.kit.decks import Deck
from sheetmaster.kit.dice import Dice
from sheetmaster.kit.entities import WrittenTab
from sheetmaster.kit.lasting import ENGINE_KINDS, USE_DECISIONS, Lasting
from sheetmaster.kit.lasting import TABLES as LASTING_TABLES
from sheetmaster.kit.mapspec import MapSpec, map_slips, with_map_columns
from sheetmaster.kit.model import PUBLIC, Event, Order, OrderResult, Status
from sheetmaster.kit.order_batch import OrderBatch
from sheetmaster.kit.orders import OrderKind, RejectedRow
from sheetmaster.kit.schema import Column, Kind, Problem, Problems, Table
from sheetmaster.kit.settings import MissingSetting, Setting, Settings, SettingsTable, setting_rows
from sheetmaster.kit.timers import TimerLayout, Timers
from sheetmaster.kit.turn_order import GLOBAL, TurnOrder
from sheetmaster.kit.world import RulesetError, World


@dataclass(frozen=True)
class Phase:
    """One step of resolution. ``run`` gets the :class:`Context`."""

    key: str
    title: str
    run: Callable[[Context[Any]], None]
    #: the rule text this phase implements, as the source states it.
    rule: str = ""
    #: how the phase's runs are laid out among the players (see :mod:`sheetmaster.kit.turn_order`).
    order: TurnOrder = GLOBAL
    #: the order kinds this phase consumes (each kind is consumed by exactly one phase).
    orders: tuple[str, ...] = ()
    #: the Game settings this phase reads with ``ctx.setting``.
    settings: tuple[str, ...] = ()
    #: when the phase runs; None: every turn but a setup turn.
    when: Callable[[Date], bool] | None = None

    def runs_on(self, date: Date) -> bool:
        return self.when(date) if self.when is not None else not date.setup


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str
    version: str
    tables: tuple[Table, ...]
    order_kinds: tuple[OrderKind, ...]
    #: the ruleset's input columns of the Orders tab, after turn/player/order.
    order_columns: tuple[Column, ...]
    phases: tuple[Phase, ...]
    #: (loaded game, problems) -> world; reports cross-reference problems. The loaded game
    #: (:class:`sheetmaster.engine.turn.Loaded`) has the validated state and each tab's rows.
    build_world: Callable[[Any, Problems], World]
    #: the "how to write orders" text, one paragraph per line.
    howto: tuple[str, ...] = ()
    #: () -> (tables, orders, settings) of a small playable example game (take it through
    #: :func:`sheetmaster.engine.builder.example_game`, which plays its setup turn if it has one).
    example: Callable[[], tuple[dict, list, dict]] | None = None
    #: the tabs written back after every turn, from the world (see
    #: :class:`~sheetmaster.kit.entities.WrittenTab`); each one a tab of :attr:`tables`.
    written: tuple[WrittenTab, ...] = ()
    #: an example laid out before its setup turn (turn 0): its tables after the setup turn ->
    #: (orders, settings) of its first turn. The engine resolves the setup turn in between, so
    #: the example is what a GM gets from the blank game and one resolve.
    example_after_setup: Callable[[dict[str, list[dict]]], tuple[list, dict]] | None = None
    #: the ruleset's own Game-tab settings.
    settings: tuple[Setting, ...] = ()
    calendar: Calendar = PLAIN
    #: (world, date) -> why no player acts in the stage of ``date`` as the world stands
    #: after the stage before it ('' when players act in it): such a stage is resolved in
    #: the same turn as the stage before it (calendars with stages). None: every stage is a
    #: turn of its own.
    nobody_acts: Callable[[Any, Date], str] | None = None
    #: what the rules call things, for reports: 'territory' / 'province', 'gold' / 'coins'.
    nouns: Mapping[str, str] = field(default_factory=dict)
    #: engine-owned tabs of state that lasts across turns: 'timers', 'decisions', 'decks'.
    lasting: tuple[str, ...] = ()
    #: the Timers tab's own detail columns and per-kind check (None: the generic 'data').
    timer_layout: TimerLayout | None = None
    #: the GM gives orders (GM-only kinds among them) in a 'GM orders' tab of their own.
    gm_orders: bool = False
    #: the map picture drawn every turn (see sheetmaster.app.maps); None: the game has no map.
    #: Its optional columns (key colour, pins, the players' colour) are added to the tabs.
    map: MapSpec | None = None

    def __post_init__(self) -> None:
        if USE_DECISIONS in self.lasting and ANSWER_KIND not in self.order_kinds:
            object.__setattr__(self, "order_kinds", (*self.order_kinds, ANSWER_KIND))
            object.__setattr__(self, "order_columns", (*self.order_columns, *ANSWER_COLUMNS))
        object.__setattr__(self, "tables", with_map_columns(self.tables, self.map))
        check_ruleset(self)

    def table(self, tab: str) -> Table:
        for t in self.tables:
            if t.tab == tab:
                return t
        raise KeyError(tab)

    def players_table(self) -> Table | None:
        """The tab listing the players, one a row, keyed by the player's name."""
        return next((t for t in self.tables if t.lists_players or t.key == "player"), None)

    def all_settings(self) -> tuple[Setting, ...]:
        """The ruleset's settings and its calendar's."""
        return (*self.calendar.settings(), *self.settings)

    def setting_rows(self) -> dict[str, tuple[Any, str]]:
        """name -> (a new game's value, help) of the ruleset's own and calendar's settings."""
        return setting_rows(self.all_settings())

    @property
    def first_turn(self) -> int:
        """A new game's turn: 0 when the calendar has a setup turn."""
        return 0 if self.calendar.setup_turn else 1

    def noun(self, word: str) -> str:
        """The ruleset's word for ``word`` ('territory' -> 'province' in clans)."""
        return self.nouns.get(word, word)

    def steps(self) -> list[list[Phase]]:
        """The phases in running order: a global phase alone, consecutive phases with the
        same per-player turn order together (they run as one player's turn)."""
        out: list[list[Phase]] = []
        for phase in self.phases:
            if phase.order.per_player and out and out[-1][0].order is phase.order:
                out[-1].append(phase)
            else:
                out.append([phase])
        return out


def check_ruleset(ruleset: Ruleset) -> None:
    """Every order kind consumed by exactly one phase; every tab a column or phase names and
    every setting a phase reads declared. Raises :class:`RulesetError` naming each slip."""
    slips: list[str] = [f"'{u}' is not something that lasts (timers, decisions, decks)"
                        for u in ruleset.lasting if u not in LASTING_TABLES]
    engine_kinds = {k for u in ruleset.lasting for k in ENGINE_KINDS.get(u, ())}
    consumers: dict[str, list[str]] = {k.name: [] for k in ruleset.order_kinds
                                       if k.name not in engine_kinds}
    for phase in ruleset.phases:
        for kind in phase.orders:
            if kind not in consumers:
                slips.append(f"phase {phase.key} consumes '{kind}', which is no order kind")
            else:
                consumers[kind].append(phase.key)
    for kind, phases in consumers.items():
        if len(phases) != 1:
            slips.append(f"order kind '{kind}' is consumed by {len(phases)} phases "
                         f"({', '.join(phases) or 'none'}); it must be exactly one")
    tabs = {t.tab for t in ruleset.tables}
    for table in ruleset.tables:
        for col in table.columns:
            if col.kind in (Kind.REF, Kind.REFS) and col.ref and col.ref not in tabs:
                slips.append(f"tab {table.tab}, column '{col.name}' names tab '{col.ref}', "
                             f"which the ruleset does not declare")
    slips += [f"tab {w.table.tab} is written back but is not one of the ruleset's tabs"
              for w in ruleset.written if w.table.tab not in tabs]
    declared = {s.name for s in ruleset.all_settings()}
    for phase in ruleset.phases:
        for name in phase.settings:
            if name not in declared:
                slips.append(f"phase {phase.key} reads setting '{name}', which is not declared")
    slips += map_slips(ruleset)
    if slips:
        raise RulesetError(f"ruleset {ruleset.name}: " + "; ".join(slips))


def player_name_columns(ruleset: Ruleset) -> list[str]:
    """Orders columns that hold a player's name: 'player', and each column an order kind
    reads as a player (e.g. 'from' and 'to' of a transfer), in the Orders tab's order."""
    named = {f.column for kind in ruleset.order_kinds for f in kind.fields
             if f.names == "player"}
    return ["player", *(c.name for c in ruleset.order_columns if c.name in named)]


class Lines:
    """Log lines a phase gathers for :meth:`Context.emit_all`: whom each concerns, its kind
    and its text, as three lists."""

    __slots__ = ("players", "kinds", "texts")

    def __init__(self) -> None:
        self.players: list[str] = []
        self.kinds: list[str] = []
        self.texts: list[str] = []

    def add(self, player: str, kind: str, text: str) -> None:
        self.players.append(player)
        self.kinds.append(kind)
        self.texts.append(text)


#: the world a phase's context carries (``Context[EighteenWorld]``: ``ctx.world`` is 1800's).
W = TypeVar("W", bound=World)


class Context(Generic[W]):
    """What a phase sees: the world, this turn's orders, dice, settings, and the log.
    ``Context[SomeWorld]`` says which world ``ctx.world`` is."""

    def __init__(self, world: W, batches: Mapping[str, OrderBatch], dice: Dice, turn: int,
                 events: list[Event], rejected_rows: list[RejectedRow] | None = None, *,
                 refused: Iterable[int] = (), date: Date | None = None,
                 settings: Settings | None = None,
                 settings_tables: Mapping[str, SettingsTable] | None = None) -> None:
        self.world: W = world
        self._rejected_rows = rejected_rows or []
        self.turn = turn
        self.date = date or Date(turn)
        self.dice = dice
        self.phase = ""
        self._phase: Phase | None = None
        #: whose turn it is in a per-player phase (None in global phases).
        self.player: str | None = None
        self._by_player: dict[str, list[Order]] | None = None
        self._all: list[Order] | None = None
        self._batches = batches
        #: rows refused before the phases (out of turn): not among :meth:`all_orders`.
        self._refused = set(refused)
        self._events = events
        self._settings = settings
        self._settings_tables = dict(settings_tables or {})
        #: the stage the next turn runs, if not the one that follows (calendars with stages).
        self.next_stage = ""
        #: the engine-owned tabs the ruleset uses (None where it does not).
        self.timers: Timers | None = None
        self.decisions: Decisions | None = None
        self.decks: Lasting | None = None
        dice.on_roll = self._log_roll

    def __enter__(self) -> Context[W]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """The turn is over: let go of the callbacks into this context (the dice's, the
        timers', decisions' and decks'), so that what the turn made and dropped is freed at
        once by reference counting, not left for the cyclic collector (three million
        objects after a turn of a million orders)."""
        self.dice.on_roll = None
        self.timers = self.decisions = self.decks = None
        for batch in self._batches.values():
            batch.let_go()
        self._all = self._by_player = None

    def deck(self, name: str, *, cards: list[str] | None = None) -> Deck:
        """The deck called ``name`` (Decks tab); with ``cards``, a new deck of them."""
        if self.decks is None:
            raise RulesetError("the ruleset does not use decks (Ruleset.lasting)")
        return self.decks.deck(name, self, cards=cards)

    def enter(self, phase: Phase | None, player: str | None = None) -> None:
        """The engine starts ``phase`` (for ``player``, in a per-player phase); None: the
        phases are over."""
        self._phase, self.player = phase, player
        if phase is not None:
            self.phase = phase.key

    def all_orders(self) -> list[Order]:
        """Every order read this turn, in posting order, resolved or not (those refused
        before the phases, as out of turn, aside)."""
        if self._all is None:
            every = sorted((o for batch in self._batches.values() for o in batch.orders()),
                           key=_seq)
            refused = self._refused
            self._all = [o for o in every if o.row not in refused] if refused else every
        return self._all

    def orders(self, *kinds: str) -> list[Order]:
        """This turn's unresolved orders of these kinds, in posting order (during a player's
        turn, that player's only). The phase must declare the kinds it consumes."""
        self._check_declared(kinds)
        player = self.player
        if player is None:
            found = [self._batches[k].pending_orders() for k in dict.fromkeys(kinds)
                     if k in self._batches]
            if len(found) == 1:
                return found[0]
            return sorted((o for orders in found for o in orders), key=_seq)
        if self._by_player is None:
            self._by_player = {}
            for o in self.all_orders():
                self._by_player.setdefault(o.player, []).append(o)
        wanted = set(kinds)
        return [o for o in self._by_player.get(player, ())
                if o.kind in wanted and o.batch.status[o.index] is None]

    def batch(self, kind: str) -> OrderBatch:
        """This turn's orders of ``kind`` as columns (see :class:`OrderBatch`), for a phase
        that runs over a great many of them. The phase must declare the kind it consumes."""
        self._check_declared((kind,))
        return self._batches[kind]

    def _check_declared(self, kinds: Iterable[str]) -> None:
        if self._phase is not None:
            undeclared = [k for k in kinds if k not in self._phase.orders]
            if undeclared:
                raise RulesetError(f"phase {self.phase} reads orders {undeclared} it does not "
                                   f"declare in Phase(orders=...)")

    def setting(self, name: str) -> Any:
        """A Game setting, typed; a blank one the rules need stops the turn, naming it."""
        if self._phase is not None and name not in self._phase.settings:
            raise RulesetError(f"phase {self.phase} reads setting '{name}' it does not "
                               f"declare in Phase(settings=...)")
        assert self._settings is not None
        return self._settings.get(name)

    def require(self, problem: Problem, column: Column | None = None) -> Any:
        """A value this turn needs is missing (``problem`` says where and why): the turn stops
        naming it, as a blank setting stops it; a turn run again to list every missing
        setting notes it and goes on with a stand-in of ``column``'s kind."""
        assert self._settings is not None
        if self._settings.probe is not None:
            return self._settings.probe.missing(problem, column)
        raise MissingSetting(problem)

    def settings_table(self, tab: str) -> SettingsTable:
        """A GM data tab of settings (e.g. costs by unit type and tech level)."""
        return self._settings_tables[tab]

    def rejected_rows(self, kind: str) -> list[RejectedRow]:
        """This turn's rows of this kind rejected while being read, as typed."""
        return [r for r in self._rejected_rows if r.kind == kind]

    def resolve(self, order: Order, status: Status, reason: str = "") -> None:
        """Record an order's outcome; each order is resolved exactly once."""
        order.batch.resolve(order.index, status, reason)

    def resolved(self, order: Order) -> OrderResult | None:
        return order.batch.result(order.index)

    def emit(self, player: str, kind: str, text: str, audience: str = PUBLIC) -> None:
        """Log a change or an outcome for ``player`` ('' for the whole game).

        ``audience``: PUBLIC (everyone), PRIVATE (``player`` and the GM), GM_ONLY, or the name
        of the one player (besides the GM) who may see it.
        """
        self._events.append(Event(len(self._events) + 1, self.phase, player, kind, text,
                                  None, None, audience))

    def emit_all(self, lines: Lines, audience: str = PUBLIC) -> None:
        """:meth:`emit` of each line gathered, in order: a phase that logs a line for each of
        a great many orders gathers them in :class:`Lines`, and they are logged at once."""
        n, first, phase = len(lines.texts), len(self._events) + 1, self.phase
        self._events += map(Event, range(first, first + n), repeat(phase, n), lines.players,
                            lines.kinds, lines.texts, repeat(None, n), repeat(None, n),
                            repeat(audience, n))

    def _log_roll(self, who: str, text: str, sides: int, value: int, audience: str,
                  kind: str) -> None:
        die = kind == "die"  # a shuffle's draws are many: logged as one line, no die
        self._events.append(Event(len(self._events) + 1, self.phase, who, kind, text,
                                  sides if die else None, value if die else None,
                                  audience=audience))


_seq = attrgetter("seq")
