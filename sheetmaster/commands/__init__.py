"""The sheetmaster command's subcommands, one module per group.

Each module has ``register(sub, common)``: it adds its subparsers to ``sub`` (an argparse
subparsers action), with ``parents=[common]`` so every command takes ``-v``/``-q``, and sets
``run=function(args) -> exit code`` on each. To add a command, write its module and list it in
:data:`MODULES`; the CLI (``sheetmaster.cli``) maps exceptions to exit codes for all of them.
"""

from __future__ import annotations

from sheetmaster.commands import fake_sheets, games, maps, setup, site, tools, turns, verify

#: in the order ``sheetmaster --help`` lists them.
MODULES = (setup, turns, verify, maps, site, games, tools, fake_sheets)
