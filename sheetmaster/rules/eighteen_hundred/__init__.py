"""1800: eras and rounds, pops and regiments, cards and decks, wars with battle scores."""

from .ruleset import RULESET

__all__ = ["RULESET"]
