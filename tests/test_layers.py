"""The package's three layers, as a newcomer finds them (issue 25): the kit a ruleset uses,
behind one public module; the engine's pipeline; the application. import-linter's contracts
(pyproject.toml, run by ``python3 tasks.py lint``) hold the arrows between the packages; these
tests hold what a contract cannot say."""

from __future__ import annotations

import ast
from pathlib import Path

import sheetmaster.kit as kit

PACKAGE = Path(__file__).resolve().parents[1] / "sheetmaster"


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of every absolute ``from X import names`` in a file."""
    return [(node.module, [a.name for a in node.names])
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module]


def test_rulesets_use_the_kit_through_its_one_public_module():
    """A ruleset imports ``from sheetmaster.kit import ...``, never a kit module's inside."""
    inside = [f"{path.relative_to(PACKAGE)}: {module}"
              for path in sorted((PACKAGE / "rules").rglob("*.py"))
              for module, _ in imports(path) if module.startswith("sheetmaster.kit.")]
    assert inside == []


def test_everything_the_kit_lists_is_there():
    assert [name for name in kit.__all__ if not hasattr(kit, name)] == []
    assert len(set(kit.__all__)) == len(kit.__all__)


def test_the_top_of_the_package_shows_the_layers():
    """A handful of modules directly in sheetmaster/, and the layers as packages."""
    modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    packages = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())
    assert modules == ["__init__.py", "__main__.py"]
    assert packages == ["app", "engine", "kit", "rules", "stores", "testing"]
