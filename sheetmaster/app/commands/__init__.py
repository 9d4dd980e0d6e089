"""The sheetmaster command's subcommands, one module per group.

Each module has ``register(sub, common)``: it adds its subparsers to ``sub`` (an argparse
subparsers action), with ``parents=[common]`` so every command takes ``-v``/``-q``, and sets
``run=function(args) -> exit code`` on each. To add a command, write its module and list it in
:data:`MODULES`; the CLI (``sheetmaster.app.cli``) maps exceptions to exit codes for all of them.

Other packages add commands through the ``sheetmaster.commands`` entry point group, naming a
module with the same ``register``: sheetmaster's own test tooling adds ``golden`` and
``fake-sheets`` that way (``sheetmaster.testing.commands``), so that the command line never
imports it.
"""

from __future__ import annotations

import logging
from types import ModuleType

from sheetmaster.app.commands import (
    games,
    maps,
    posting,
    rulesets,
    settings,
    setup,
    site,
    tools,
    turns,
    verify,
)

#: in the order ``sheetmaster --help`` lists them (the plugged-in ones follow).
MODULES = (setup, turns, posting, verify, settings, maps, site, games, tools, rulesets)
#: the entry point group other packages add commands through
GROUP = "sheetmaster.commands"

log = logging.getLogger(__name__)


def command_modules() -> list[ModuleType]:
    """The built-in command modules, then those installed packages plug in (by entry point
    name); one that cannot be loaded is skipped, saying so, and the others still work."""
    return [*MODULES, *plugged_in()]


def plugged_in() -> list[ModuleType]:
    """The command modules installed packages plug in, by entry point name (finding them
    reads every installed package's metadata: the parser asks only when it needs them)."""
    from importlib.metadata import entry_points

    found = []
    for entry in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        try:
            found.append(entry.load())
        except Exception as exc:  # a broken plug-in must not take the command line down
            log.warning("the %r commands (%s) could not be loaded: %s", entry.name,
                        entry.value, exc)
    return found
