"""The commands the test tooling adds to ``sheetmaster``: ``golden`` (this turn as a golden
test case) and ``fake-sheets`` (a fake Google Sheets API on 127.0.0.1, to try the Sheets mode
offline).

The command line never imports the test tooling: this package plugs its commands in through
the ``sheetmaster.commands`` entry point group (pyproject.toml), as any installed package may.
"""

from __future__ import annotations

import argparse
from typing import Any

from sheetmaster.testing.commands import fake_sheets, golden


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    golden.register(sub, common)
    fake_sheets.register(sub, common)
