"""Every ruleset has one layout (issue 25), so that a newcomer who knows one knows them all and
finds a rule in one guess: the declarations at the top of the package, the rule logic only
under ``phases/``.

    sheetmaster/rules/NAME/
        __init__.py   RULESET, nothing else
        README.md     the source, how a GM runs the game, the decisions where it is unclear
        ruleset.py    the Ruleset(...) declaration: the phases in order, the example attached
        tables.py     the tabs, their columns and row dataclasses
        orders.py     the order kinds and the Orders tab's columns
        settings.py   the game's settings (what a GM sets; a number the source withholds)
        world.py      the world the phases work on
        load.py       the world built from the tabs' rows, and the tabs written back from it
        reasons.py    why an order is rejected or only partly applied
        example.py    the example game (or example/, a package, when it has a map and cards)
        data.py       (optional) the source's fixed numbers and names, each beside its text
        phases/       the rule logic: one module per phase or mechanism, each quoting its rule
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sheetmaster import rules

RULES = Path(rules.__file__).parent
REQUIRED = {"__init__.py", "README.md", "ruleset.py", "tables.py", "orders.py", "settings.py",
            "world.py", "load.py", "reasons.py", "phases"}
OPTIONAL = {"data.py"}
EXAMPLE = {"example.py", "example"}
#: every ruleset (a new one joins the list: see the last test)
LAID_OUT = ["claims", "clans", "decades", "eighteen_hundred", "goldenage"]


def top_level(name: str) -> set[str]:
    return {p.name for p in (RULES / name).iterdir() if p.name != "__pycache__"}


@pytest.mark.parametrize("name", LAID_OUT)
def test_the_ruleset_has_the_one_layout(name: str):
    found = top_level(name)
    assert not REQUIRED - found, f"missing: {sorted(REQUIRED - found)}"
    assert len(found & EXAMPLE) == 1, "one example: example.py or example/"
    assert found <= REQUIRED | OPTIONAL | EXAMPLE, (
        f"not in the layout (rule logic goes under phases/): "
        f"{sorted(found - REQUIRED - OPTIONAL - EXAMPLE)}")


@pytest.mark.parametrize("name", LAID_OUT)
def test_the_package_hands_on_its_ruleset_alone(name: str):
    tree = ast.parse((RULES / name / "__init__.py").read_text(encoding="utf-8"))
    imports = [n for n in tree.body if isinstance(n, ast.ImportFrom)]
    assert [(n.module, [a.name for a in n.names]) for n in imports] == [("ruleset", ["RULESET"])]


@pytest.mark.parametrize("name", LAID_OUT)
def test_the_world_is_written_back_from_declarations(name: str):
    """The ruleset declares the tabs it writes back (load.py's WRITTEN); no world writes its
    own tables."""
    ruleset = rules.get(name)
    assert ruleset.written
    world = (RULES / name / "world.py").read_text(encoding="utf-8")
    assert "def to_tables" not in world and "write_rows" not in world


def test_every_ruleset_is_laid_out():
    assert sorted(LAID_OUT) == sorted(p.name for p in RULES.iterdir()
                                      if (p / "ruleset.py").exists())
