"""Built-in rulesets, plus any installed under the ``sheetmaster.rules`` entry point group."""

from __future__ import annotations

from importlib.metadata import entry_points

from sheetmaster.kit import Ruleset

from .claims import RULESET as CLAIMS
from .clans import RULESET as CLANS
from .decades import RULESET as DECADES
from .eighteen_hundred import RULESET as EIGHTEEN_HUNDRED
from .goldenage import RULESET as GOLDENAGE

BUILT_IN: dict[str, Ruleset] = {CLAIMS.name: CLAIMS, CLANS.name: CLANS,
                                GOLDENAGE.name: GOLDENAGE, DECADES.name: DECADES,
                                EIGHTEEN_HUNDRED.name: EIGHTEEN_HUNDRED}


def available() -> dict[str, Ruleset]:
    """Every ruleset by name: the built-in ones and those other packages plug in."""
    found = dict(BUILT_IN)
    for entry in entry_points(group="sheetmaster.rules"):
        ruleset = entry.load()
        if isinstance(ruleset, Ruleset) and ruleset.name not in found:
            found[ruleset.name] = ruleset
    return found


def get(name: str) -> Ruleset:
    rulesets = available()
    try:
        return rulesets[name.strip().casefold()]
    except KeyError:
        raise KeyError(f"no ruleset named '{name}' (known: {', '.join(sorted(rulesets))})") \
            from None
