"""The orders a nation gives, stage by stage, and the Orders tab's columns for them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sheetmaster.kit import Column, Field, Kind, OrderKind

PICK = "pick"
DEFICIT, PLACE, ACTIVATE, PLAY_ADMIN, DECLARE = ("deficit", "place", "activate", "play admin",
                                                 "declare war")
MOVE_POPS, MOVE_REGIMENT = "move pops", "move regiment"
WAR_MOVE, CONSCRIPT, PLAY_MILITARY, PASS = "war move", "conscript", "play military", "pass"

DRAFT_KINDS = (PICK,)
T3_KINDS = (ACTIVATE, PLAY_ADMIN, DECLARE)
T4_KINDS = (MOVE_POPS, MOVE_REGIMENT)
WAR_KINDS = (WAR_MOVE, CONSCRIPT, PLAY_MILITARY, PASS)

ORDER_COLUMNS = (
    Column("card", Kind.RAW, "the card the order is about (as the Cards tab names it)"),
    Column("resource", Kind.RAW, "food, production or commerce"),
    Column("amount", Kind.RAW, "how many tokens or pops"),
    Column("province", Kind.RAW, "the province the order is about (where from, for a move)"),
    Column("to", Kind.RAW, "where a pop or regiment moves"),
    Column("improvement", Kind.RAW, "what a build reward builds: Factory, Farm, Market..."),
    Column("destroy", Kind.RAW, "an improvement to destroy to make room, when the province "
                                "is full"),
    Column("find", Kind.RAW, "the technology a search takes from the development deck"),
    Column("route", Kind.RAW, "the trade route a trade token goes on (or comes off)"),
    Column("target", Kind.RAW, "another nation: whose pops, whose token, on whom war"),
    Column("how", Kind.RAW, "deficit: 'pop' or 'tokens'; declare war: 'conquest' or "
                            "'diplomatic action'"),
    Column("discard", Kind.RAW, "the card in hand an activation's cost discards"),
)

CARD = Field("card", names="card")
PROVINCE = Field("province", names="province")
TO = Field("to", names="province")
_TARGETS = (Field("province", names="province", required=False),
            Field("improvement", names="improvement", required=False),
            Field("destroy", names="improvement", required=False),
            Field("find", names="card", required=False),
            Field("route", names="route", required=False),
            Field("target", names="player", required=False))


def _kind(name: str, fields: tuple[Field, ...], text: str, example: dict, *,
          repeatable: bool = False, secret: bool = False,
          aliases: tuple[str, ...] = (), secret_when=None) -> OrderKind:
    return OrderKind(name, fields, text, {"player": "France", **example}, aliases, repeatable,
                     secret=secret, secret_when=secret_when)


def touches_a_hand(world: Any, fields: Mapping[str, Any]) -> bool:
    """Whether an activation hangs on its nation's hand: it names a card to discard, or its
    card's cost discards one (the hand then says which, and the answer would name it). The
    order and the public catalogue tell, never the hand (README decision 27)."""
    card = world.cards.get(fields.get("card"))
    return bool(fields.get("discard")) or card is not None and any(
        effect.name.startswith("discard") for effect in card.cost)


ORDER_KINDS = (
    _kind(PICK, (CARD,), "Draft stage: a face-up development card you would take. Post several "
          "in your order of preference: sheetmaster takes the first still face up that you may "
          "take when your pick comes (no pick: you pass).", {"card": "Stock Exchange"},
          aliases=("draft",)),
    _kind(DEFICIT, (Field("how"), Field("province", names="province", required=False),
                    Field("card", names="card", required=False)),
          "Turns stage, standing: how to meet a food deficit if one arises: 'pop' (sacrifice a "
          "pop, of 'province' if given) or 'tokens' (food tokens from your cards, from 'card' "
          "if given). Without it: tokens if your cards hold enough, else a pop.",
          {"how": "tokens"}),
    _kind(PLACE, (CARD, Field("resource", names="resource"), Field("amount", count=True)),
          "Turns stage: put tokens you collected this turn on a card in play with free squares "
          "for them.", {"card": "Industrial Policy", "resource": "production", "amount": 2},
          repeatable=True),
    _kind(ACTIVATE, (CARD, *_TARGETS, Field("discard", names="card", required=False)),
          "Turns stage: activate a card in play whose squares hold what it needs, once a turn; "
          "its tokens come off, its cost is paid, its reward taken (name where to build, what "
          "to find, the route, the target as the reward needs).",
          {"card": "Industrial Policy", "province": "Paris", "improvement": "Factory"},
          repeatable=True, secret_when=touches_a_hand),
    _kind(PLAY_ADMIN, (CARD, *_TARGETS), "Turns stage: play an admin card from your hand (its "
          "outcome is your secret until it acts).", {"card": "Land Reform", "province": "Lyon",
                                                     "improvement": "Market"},
          repeatable=True, secret=True),
    _kind(DECLARE, (Field("target", names="player"), Field("how", required=False)),
          "Turns stage: declare war on a nation, by 'conquest' (your ambition allows it, once a "
          "round) or by 'diplomatic action' (spends that admin card, answering an aggressive "
          "act against you since your last turn).", {"target": "Prussia", "how": "conquest"},
          secret=True),
    _kind(MOVE_POPS, (PROVINCE, TO, Field("amount", count=True, required=False)),
          "Turns stage, end of turn: move pops one province, if your cards allow (amount: "
          "blank = 1).", {"province": "Normandie", "to": "Paris"}, repeatable=True),
    _kind(MOVE_REGIMENT, (PROVINCE, TO), "Turns stage, end of turn: move a regiment one "
          "province into one without a regiment, if your cards allow.",
          {"province": "Champagne", "to": "Lorraine"}, repeatable=True),
    _kind(WAR_MOVE, (PROVINCE, TO), "War stage, one action: move a regiment to an adjacent "
          "province; into one enemy regiment's province, a battle.",
          {"province": "Champagne", "to": "Rheinland"}, repeatable=True, aliases=("move",)),
    _kind(CONSCRIPT, (PROVINCE,), "War stage, one action: a conscripted regiment on one of your "
          "pops there (no regiment may stand there).", {"province": "Normandie"},
          repeatable=True),
    _kind(PLAY_MILITARY, (CARD, Field("province", names="province", required=False)),
          "War stage, one action: play a military card (name the province if it marks one).",
          {"card": "Forced March", "province": "Rheinland"}, repeatable=True, secret=True),
    _kind(PASS, (), "War stage, one action: do nothing (you keep your later actions).", {},
          repeatable=True),
)
