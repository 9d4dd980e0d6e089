"""Golden Age 1861: seasons; simultaneous land and naval war, railroads, supply, timers,
tech and revolts (rules-sources/golden-age-1861.md)."""

from .ruleset import RULESET

__all__ = ["RULESET"]
