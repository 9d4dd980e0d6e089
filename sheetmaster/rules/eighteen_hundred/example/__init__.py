"""The shipped example 1800 game: Great Britain, France, Prussia and Austria in their
standard starts, on the example's own map with the example's own card catalogue, just after
the setup turn (decks shuffled, ambitions dealt, round 1 laid out), with draft picks posted.

``sheetmaster new eighteen_hundred FILE --example`` writes it; templates/eighteen_hundred-
example.xlsx is it. The setup turn is resolved by the engine itself, so the example is what
a GM gets from the blank game and one resolve.
"""

from __future__ import annotations

from typing import Any

from sheetmaster.kit import EXAMPLE_SECRET

from .cards import CATALOGUE
from .map import ROUTES, STARTS, provinces

GAME = ("Example: 1800 on four standard starts (the map, the card catalogue and the trade "
        "routes are the example's own, not the rulebook's)")
#: the examples' dice secret: public (it is here), so anyone can open the example's hands and
#: know its decks; ``new --example`` says so, and a real game gets a secret of its own.
SECRET = EXAMPLE_SECRET
IMPROVEMENT_TYPES = [
    {"improvement": "Factory", "where": "city", "output": "production"},
    {"improvement": "Farm", "where": "countryside", "output": "food"},
    {"improvement": "Market", "where": "either", "output": "commerce"},
]


def before_setup() -> tuple[dict[str, list[dict[str, Any]]], dict[str, Any]]:
    """The game as the GM lays it out: turn 0, before the setup turn is resolved (its
    settings' 'seed' is the dice secret, which ``new`` keeps beside the workbook)."""
    nations = [{"nation": name, "player": f"{name}'s player", "seat": seat,
                "dealer": "yes" if name == "France" else "", "prosperity": 0}
               for seat, name in enumerate(STARTS, start=1)]
    tables = {"Nations": nations, "Provinces": provinces(), "Improvements": IMPROVEMENT_TYPES,
              "Cards": CATALOGUE, "Trade routes": ROUTES}
    return tables, {"game": GAME, "seed": SECRET, "turn": 0}


def example_game() -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, Any]], dict]:
    """(tables, orders, settings): the game before its setup turn, which the engine resolves
    (:func:`sheetmaster.engine.builder.example_game`) before :func:`first_round`."""
    tables, settings = before_setup()
    return tables, [], settings


def first_round(after: dict[str, list[dict[str, Any]]]) -> tuple[list[dict[str, Any]], dict]:
    """Round 1's draft picks, from the cards the setup turn laid face up, and the settings of
    the turn after setup."""
    face_up = [r["card"] for r in after["Rows"] if r.get("row") == "draft"]
    picks = {"Prussia": face_up[:2], "Austria": [face_up[0], face_up[2]],
             "Great Britain": face_up[3:]}
    orders = [{"player": nation, "order": "pick", "card": card}
              for nation, cards in picks.items() for card in cards]
    return orders, {"game": GAME, "turn": 1, "round": 1, "stage": "draft"}
