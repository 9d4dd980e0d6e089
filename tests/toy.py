"""A tiny toy game for the engine's own tests: realms, lands and units on a small map.

Each test declares the phases it needs; the tabs, order kinds and world are shared.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sheetmaster.engine.builder import build_state
from sheetmaster.engine.turn import resolve
from sheetmaster.kit import values
from sheetmaster.kit.entities import WrittenTab
from sheetmaster.kit.model import GameState, TurnResult
from sheetmaster.kit.orders import Field, OrderKind
from sheetmaster.kit.ruleset import Phase, Ruleset, World
from sheetmaster.kit.schema import Column, Kind, Table


@dataclass(slots=True)
class Realm:
    name: str
    row: int
    coins: Decimal
    seat: int
    banner: str


@dataclass(slots=True)
class Land:
    name: str
    row: int
    owner: str
    borders: tuple[str, ...]
    terrain: str


@dataclass(slots=True)
class Unit:
    name: str
    owner: str
    at: str
    row: int = 0


REALMS = Table("Realms", (
    Column("realm", Kind.NAME, bind="name"),
    Column("coins", Kind.DECIMAL, owned=True),
    Column("seat", Kind.WHOLE),
    Column("banner", Kind.CHOICE, choices=("Wolf", "Lion", "Stag"), noun="a banner",
           choice_aliases=(("direwolf", "Wolf"),)),
), key="realm", lists_players=True, noun="realm", entity=Realm)

LANDS = Table("Lands", (
    Column("land", Kind.NAME, bind="name"),
    Column("owner", Kind.REF, ref="Realms", owned=True, none_words=("nobody",)),
    Column("borders", Kind.REFS, both_sides=True),
    Column("terrain", Kind.CHOICE, choices=("Plain", "Hill"), noun="a terrain"),
), key="land", noun="land", entity=Land)

UNITS = Table("Units", (
    Column("unit", Kind.NAME, owned=True, bind="name"),
    Column("owner", Kind.REF, ref="Realms", owned=True),
    Column("at", Kind.REF, ref="Lands", owned=True, required=True),
), noun="unit", entity=Unit, unique=("unit",))

ORDER_COLUMNS = tuple(Column(c, Kind.RAW) for c in ("unit", "to", "of", "amount", "land"))

ORDER_KINDS = (
    OrderKind("hold", (Field("unit"),)),
    OrderKind("move", (Field("unit"), Field("to", names="land"))),
    OrderKind("support", (Field("unit"), Field("of", names="land"),
                          Field("to", names="land", required=False))),
    OrderKind("cut", (Field("unit"), Field("to", names="land"))),
    OrderKind("pay", (Field("amount", count=True),)),
    OrderKind("deploy", (Field("land", names="land"),), setup=True),
    OrderKind("decree", (Field("amount", count=True),), gm_only=True),
)


@dataclass
class ToyWorld(World):
    realms: dict[str, Realm]
    lands: dict[str, Land]
    units: list[Unit]

    def names(self) -> dict[str, values.Names]:
        return {"player": values.Names(self.realms), "land": values.Names(self.lands)}

    def seating(self) -> list[str]:
        return [r.name for r in sorted(self.realms.values(), key=lambda r: r.seat)]

    def unit(self, name: str) -> Unit | None:
        return next((u for u in self.units if values.fold(u.name) == values.fold(name)), None)



def build_world(loaded, problems) -> ToyWorld:
    return ToyWorld({r.name: r for r in loaded.rows["Realms"]},
                    {land.name: land for land in loaded.rows["Lands"]},
                    list(loaded.rows["Units"]))


#: the toy's tabs written back after every turn
WRITTEN = (WrittenTab(REALMS, lambda w: w.realms.values()),
           WrittenTab(LANDS, lambda w: w.lands.values()),
           WrittenTab(UNITS, lambda w: w.units))


def ruleset(*phases: Phase, tables: Sequence[Table] = (), kinds: Sequence[OrderKind] = (),
            columns: Sequence[Column] = (), **extra: Any) -> Ruleset:
    """A toy ruleset with these phases (and these extra order kinds and Orders columns);
    order kinds no phase consumes are left out."""
    used = {k for p in phases for k in p.orders}
    return Ruleset(
        name="toy", title="toy", version="1", tables=(REALMS, LANDS, UNITS, *tables),
        order_kinds=tuple(k for k in (*ORDER_KINDS, *kinds) if k.name in used),
        order_columns=(*ORDER_COLUMNS, *columns), phases=phases, build_world=build_world,
        written=WRITTEN, **extra)


REALM_ROWS = [{"realm": "Stark", "coins": 5, "seat": 1}, {"realm": "Tully", "coins": 5, "seat": 2},
              {"realm": "Arryn", "coins": 5, "seat": 3}, {"realm": "Tyrell", "coins": 5, "seat": 4}]
#: A ring A-B-C-D-A with a spur E off A, and F next to B and C.
LAND_ROWS = [
    {"land": "A", "borders": "B, D, E"}, {"land": "B", "borders": "A, C, F"},
    {"land": "C", "borders": "B, D, F"}, {"land": "D", "borders": "A, C"},
    {"land": "E", "borders": "A"}, {"land": "F", "borders": "B, C"},
]


def state(rules: Ruleset, orders: Sequence[dict[str, Any]] = (), *,
          tables: dict[str, list[dict[str, Any]]] | None = None, turn: int | None = None,
          **settings: Any) -> GameState:
    given = {"Realms": REALM_ROWS, "Lands": LAND_ROWS, "Units": []}
    given.update(tables or {})
    return build_state(rules, given, list(orders), turn=turn, settings=settings)


def play(rules: Ruleset, orders: Sequence[dict[str, Any]] = (), *, seed: int = 1,
         dice=None, **kw: Any) -> TurnResult:
    return resolve(rules, state(rules, orders, **kw), seed=seed, dice=dice)


def recorder(name: str, kinds: tuple[str, ...] = ()) -> Callable:
    """A phase function that logs a 'trace' event: the phase's name and the order rows it
    sees, for the player whose turn it is."""
    def run(ctx) -> None:
        rows = ",".join(str(o.row) for o in ctx.orders(*kinds))
        ctx.emit(ctx.player or "", "trace", f"{name} {rows}".strip())
    return run


def traces(result: TurnResult) -> list[tuple[str, str]]:
    return [(e.player, e.text) for e in result.events if e.kind == "trace"]
