"""The decades statecraft game: ten years a turn; economy, happiness, stability, modifiers,
ratio wars (rules-sources/decades.txt)."""

from .ruleset import RULESET

__all__ = ["RULESET"]
