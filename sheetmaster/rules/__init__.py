"""Built-in rulesets, plus any installed under the ``sheetmaster.rules`` entry point group.

A ruleset is imported when it is asked for: :func:`names` lists them all without importing
one (what ``sheetmaster --help`` and the shell's completion need), :func:`get` imports the one
a game plays by, and only :func:`available` (``sheetmaster rules``) imports every one. A
package plugs a ruleset in with an entry point named as its ruleset (``name = "module:RULESET"``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from sheetmaster.kit import Ruleset

#: the entry point group other packages add rulesets through
GROUP = "sheetmaster.rules"
#: the built-in rulesets: each one's name -> the package that declares it (as ``RULESET``),
#: in the order they were added
BUILT_IN_MODULES: dict[str, str] = {
    "claims": "sheetmaster.rules.claims",
    "clans": "sheetmaster.rules.clans",
    "goldenage": "sheetmaster.rules.goldenage",
    "decades": "sheetmaster.rules.decades",
    "eighteen_hundred": "sheetmaster.rules.eighteen_hundred",
}


def built_in(name: str) -> Ruleset:
    """A built-in ruleset by its name, imported now if it was not yet."""
    return importlib.import_module(BUILT_IN_MODULES[name]).RULESET  # type: ignore[no-any-return]


def plug_ins() -> list[EntryPoint]:
    """The rulesets other packages register, not loaded (reading every installed package's
    metadata: a built-in ruleset is found without it)."""
    from importlib.metadata import entry_points

    return sorted(entry_points(group=GROUP), key=lambda e: e.name)


def names() -> list[str]:
    """Every ruleset's name, importing none: the built-in ones and those plug-ins register."""
    return sorted({*BUILT_IN_MODULES, *(e.name.strip().casefold() for e in plug_ins())})


def _loaded(entry: EntryPoint) -> Ruleset | None:
    from sheetmaster.kit import Ruleset

    ruleset = entry.load()
    return ruleset if isinstance(ruleset, Ruleset) else None


def available() -> dict[str, Ruleset]:
    """Every ruleset by name, each imported: the built-in ones and those other packages plug
    in (a plug-in's that is named as a built-in one is left out)."""
    found = {name: built_in(name) for name in BUILT_IN_MODULES}
    for entry in plug_ins():
        ruleset = _loaded(entry)
        if ruleset is not None and ruleset.name not in found:
            found[ruleset.name] = ruleset
    return found


def get(name: str) -> Ruleset:
    """The ruleset of that name (any case), importing it alone: a built-in one, else the
    plug-in registered under that name, else every plug-in is loaded to find it."""
    key = name.strip().casefold()
    if key in BUILT_IN_MODULES:
        return built_in(key)
    entries = plug_ins()
    named = [e for e in entries if e.name.strip().casefold() == key]
    for entry in [*named, *(e for e in entries if e not in named)]:
        ruleset = _loaded(entry)
        if ruleset is not None and ruleset.name == key:
            return ruleset
    raise KeyError(f"no ruleset named '{name}' (known: {', '.join(sorted(available()))})")


def __getattr__(name: str) -> Any:
    """``BUILT_IN``: every built-in ruleset by name, imported (all of them) when first asked."""
    if name == "BUILT_IN":
        globals()[name] = every = {key: built_in(key) for key in BUILT_IN_MODULES}
        return every
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
