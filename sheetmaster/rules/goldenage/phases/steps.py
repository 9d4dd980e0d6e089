"""The steps that run several pieces one after another."""

from __future__ import annotations

from sheetmaster.kit import Context

from ..orders import ACCEPT, AUTHORIZE, ECONOMY, LOAN, TRADE
from .administration import administer
from .construction import place_new_units_and_buildings
from .diplomacy import agreements
from .economic import economic_orders
from .upkeep import gate_nations

AGREEMENT_KINDS = (LOAN, TRADE, ACCEPT, AUTHORIZE)


def gate_and_administer(ctx: Context) -> None:
    """Step 0: the Spring disband gate, then capitals, names and successions."""
    gate_nations(ctx)
    administer(ctx)


def build_and_spend(ctx: Context) -> None:
    """Step 16: processes checked and completed, then agreements, then the economic and
    administrative orders in posting order."""
    place_new_units_and_buildings(ctx)
    orders = ctx.orders(*ECONOMY)
    agreements(ctx, [o for o in orders if o.kind in AGREEMENT_KINDS])
    economic_orders(ctx, [o for o in orders if o.kind not in AGREEMENT_KINDS])
