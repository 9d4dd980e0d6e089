"""1800: eras and rounds, pops and regiments, cards and decks, wars with battle scores."""

from dataclasses import replace

from .example import example_game, first_round
from .ruleset import RULESET as _RULES

#: the ruleset, with its example game (which is played by the rules themselves)
RULESET = replace(_RULES, example=example_game, example_after_setup=first_round)

__all__ = ["RULESET"]
