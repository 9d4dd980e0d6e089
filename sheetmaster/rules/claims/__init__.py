"""The territory-claims war game (rules-sources/claims.txt), phases A to G."""

from .ruleset import RULESET

__all__ = ["RULESET"]
