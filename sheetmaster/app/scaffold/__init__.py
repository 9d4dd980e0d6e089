"""A new ruleset in the one layout, with its own tests (``sheetmaster new-ruleset NAME``).

The files come from ``templates/``: ``ruleset/`` is the package (``__init__.py``, README.md,
ruleset.py, tables.py, orders.py, settings.py, world.py, load.py, reasons.py, example.py,
phases/), a small game that resolves: a Players tab with gold and armies, one order kind that
spends gold, one phase quoting a placeholder rule, a GM setting, an example game. ``tests/``
is its tests: a golden turn (run by :mod:`sheetmaster.testing.golden`) and a test that the
example game resolves.

Where the package goes decides how it is imported: in a folder that is no package (a house
ruleset's own project), as ``NAME``; inside a package (``sheetmaster/rules/`` of a checkout),
by its dotted name (``sheetmaster.rules.NAME``). Its tests go in ``tests/`` beside the top
package, where that project's tests are.
"""

from __future__ import annotations

import keyword
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from sheetmaster.app.exits import UsageError

TEMPLATES = Path(__file__).parent / "templates"
SUFFIX = ".tmpl"
#: a ruleset's name: its package's name and the name a game's Game tab gives
_NAME = re.compile(r"[a-z][a-z0-9_]*")
_TOKEN = re.compile(r"\{\{(\w+)\}\}")


def check_name(name: str, taken: set[str]) -> None:
    """A usage error unless ``name`` can be a new ruleset's: a lower-case Python identifier,
    not a keyword, not a module of Python's standard library, nor a ruleset's that is
    ``taken`` (the built-in ones, their packages and those installed)."""
    if not _NAME.fullmatch(name) or keyword.iskeyword(name):
        raise UsageError(f"{name!r} cannot be a ruleset's name: use lower-case letters, digits "
                         f"and underscores, starting with a letter (a Python package's name, "
                         f"e.g. my_game)")
    if name in taken:
        raise UsageError(f"there is a ruleset named {name!r} already; pick another name")
    if name in sys.stdlib_module_names or name == "sheetmaster":
        raise UsageError(f"{name!r} is the name of a module Python or sheetmaster has; "
                         f"pick another name")


def module_path(folder: Path) -> list[str]:
    """The packages ``folder`` is in, outermost first (each folder up that has an
    ``__init__.py``): ``sheetmaster/rules`` of a checkout -> ['sheetmaster', 'rules']."""
    names: list[str] = []
    while (folder / "__init__.py").is_file():
        names.insert(0, folder.name)
        folder = folder.parent
    return names


@dataclass(frozen=True)
class Scaffold:
    """Where a new ruleset's files go, and what they call it."""

    name: str
    #: the package's folder (``OUT/NAME``)
    package: Path
    #: its import name: ``NAME``, or ``sheetmaster.rules.NAME`` inside a checkout
    module: str
    #: the folder its tests go in
    tests: Path
    #: the folder that holds the top package (whence ``python -m pytest`` imports it)
    root: Path

    @property
    def test_file(self) -> Path:
        return self.tests / f"test_{self.name}.py"

    @property
    def golden(self) -> Path:
        return self.tests / "golden" / self.name / "build-armies.yaml"

    def files(self) -> dict[Path, str]:
        """Every file to write, with its text."""
        tokens = {"name": self.name, "world": _camel(self.name) + "World",
                  "imports": self._test_imports(), "top": self.module.split(".")[0]}
        out = {self.package / path.relative_to(TEMPLATES / "ruleset").with_suffix(""):
               render(path, tokens) for path in sorted((TEMPLATES / "ruleset").rglob("*" + SUFFIX))}
        out[self.test_file] = render(TEMPLATES / "tests" / "test_ruleset.py.tmpl", tokens)
        out[self.golden] = render(TEMPLATES / "tests" / "golden.yaml.tmpl", tokens)
        return out

    def _test_imports(self) -> str:
        """The test's imports as isort lays them out: sheetmaster is third-party to a house
        ruleset (the ruleset first-party, a block of its own), first-party in a checkout."""
        stdlib = "from pathlib import Path"
        third = ["import pytest"]
        ours = ["from sheetmaster.engine.builder import build_state, example_game",
                "from sheetmaster.engine.turn import resolve",
                "from sheetmaster.kit.reasons import NOT_RESOLVED",
                "from sheetmaster.testing.golden import load_case, run_case"]
        own = f"from {self.module} import RULESET"
        if self.module.split(".")[0] == "sheetmaster":
            blocks = [[stdlib], third, sorted([*ours, own])]
        else:
            blocks = [[stdlib], [*third, *ours], [own]]
        return "\n\n".join("\n".join(block) for block in blocks)


def plan(name: str, out: Path, taken: set[str], tests: Path | None = None) -> Scaffold:
    """Where ``name``'s files go in ``out``; a usage error for a bad name, a folder that is
    not there, or a file in the way (nothing is overwritten)."""
    check_name(name, taken)
    if not out.is_dir():
        raise UsageError(f"{out} is not a folder; make it first or pass another --out")
    packages = module_path(out.resolve())
    root = out.resolve()
    for _ in packages:
        root = root.parent
    scaffold = Scaffold(name, out / name, ".".join([*packages, name]),
                        tests if tests is not None else root / "tests", root)
    if scaffold.package.exists():
        raise UsageError(f"{scaffold.package} already exists: sheetmaster never writes over "
                         f"it; pick another name or another --out")
    in_the_way = [p for p in (scaffold.test_file, scaffold.golden) if p.exists()]
    if in_the_way:
        raise UsageError(f"{', '.join(map(str, in_the_way))} already exists: sheetmaster never "
                         f"writes over it; pick another name or another --tests")
    return scaffold


def write(scaffold: Scaffold) -> list[Path]:
    """Write every file of the scaffold (none of them there before); the paths written."""
    files = scaffold.files()
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8", newline="\n") as f:
            f.write(text)
    return list(files)


def render(template: Path, tokens: dict[str, str]) -> str:
    """The template's text with each ``{{token}}`` replaced (an unknown one is a bug)."""
    return _TOKEN.sub(lambda m: tokens[m[1]], template.read_text(encoding="utf-8"))


def _camel(name: str) -> str:
    """'my_game' -> 'MyGame'."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))
