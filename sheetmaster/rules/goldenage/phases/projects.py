"""A project that takes seasons (a unit in production, a building, a railroad, a port or
province upgrade): its cost paid from the Settings tab and its timer started, due in the
Settings tab's build seasons."""

from __future__ import annotations

from sheetmaster.kit import Context, Order, Status
from sheetmaster.rules.common.treasury import pay

from ..settings import BUILD_SEASONS, COST, number
from ..tables import Nation
from .common import CURRENCY
from .processes import CONSTRUCTION, PRODUCTION


def start_project(ctx: Context, order: Order, nation: Nation, kind: str, what: str, level: int,
           province: str, *, count: int = 1, extra: dict | None = None,
           label: str = "") -> None:
    """Pay the Settings tab's cost and start the process, due in its build seasons."""
    cost = int(number(ctx, what, level, COST)) * count
    seasons = int(number(ctx, what, level, BUILD_SEASONS))
    label = label or (f"{count} {what}" if count > 1 else what)
    if not pay(ctx, order, nation, cost, CURRENCY, f"{label} in {province}"):
        return
    timer = ctx.timers.start(kind, nation.name, f"{label} in {province}", seasons,
                             order_row=order.row, paid=cost,
                             data=_details(kind, province, what, count, extra or {}))
    ctx.resolve(order, Status.APPLIED, f"{label} in {province} for {cost}, ready on turn "
                                       f"{timer.due_turn}")


def _details(kind: str, province: str, what: str, count: int, extra: dict) -> dict:
    """The Timers tab's detail cells of the kind: 'what' for production and construction
    ('count' too for production); port upgrades and railroads say what they are by kind."""
    out: dict = {"province": province}
    if kind in (PRODUCTION, CONSTRUCTION):
        out["what"] = what
    if kind == PRODUCTION:
        out["count"] = count
    return {**out, **extra}
