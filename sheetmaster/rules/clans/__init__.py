"""Isles of the Clans (rules-sources/clans.txt): seasons, each clan's turn in posting order."""

from .ruleset import RULESET

__all__ = ["RULESET"]
