"""`sheetmaster new-ruleset NAME`: a ruleset in the one layout (tests/test_ruleset_layout.py)
that resolves, whose example resolves and whose own tests pass; bad names, built-in names and
files in the way refused, nothing written."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from sheetmaster import rules
from sheetmaster.app.cli import main
from sheetmaster.app.exits import Exit
from sheetmaster.engine.builder import build_state, example_game
from sheetmaster.engine.turn import resolve
from sheetmaster.kit import Ruleset, Status
from sheetmaster.kit.schema import StateError
from sheetmaster.testing.golden import load_case, run_case
from tests.test_ruleset_layout import EXAMPLE, OPTIONAL, REQUIRED

ROOT = Path(__file__).resolve().parents[1]
NAME = "my_game"


@pytest.fixture
def house(tmp_path, monkeypatch) -> Path:
    """A house ruleset scaffolded into an empty project folder, as its author runs it."""
    monkeypatch.chdir(tmp_path)
    assert main(["new-ruleset", NAME, "-q"]) == Exit.OK
    return tmp_path


@pytest.fixture
def ruleset(house, monkeypatch) -> Ruleset:
    """The scaffolded package, imported from its folder."""
    monkeypatch.syspath_prepend(str(house))
    assert NAME not in sys.modules
    yield importlib.import_module(NAME).RULESET
    for module in [m for m in sys.modules if m == NAME or m.startswith(f"{NAME}.")]:
        del sys.modules[module]  # the next test's package is another folder's


def test_the_package_has_the_one_layout(house):
    found = {p.name for p in (house / NAME).iterdir() if p.name != "__pycache__"}
    assert not REQUIRED - found, f"missing: {sorted(REQUIRED - found)}"
    assert len(found & EXAMPLE) == 1
    assert found <= REQUIRED | OPTIONAL | EXAMPLE, sorted(found - REQUIRED - OPTIONAL - EXAMPLE)
    tree = ast.parse((house / NAME / "__init__.py").read_text(encoding="utf-8"))
    imports = [n for n in tree.body if isinstance(n, ast.ImportFrom)]
    assert [(n.module, [a.name for a in n.names]) for n in imports] == [("ruleset", ["RULESET"])]
    world = (house / NAME / "world.py").read_text(encoding="utf-8")
    assert "def to_tables" not in world and "write_rows" not in world
    assert (house / "tests" / f"test_{NAME}.py").is_file()
    assert (house / "tests" / "golden" / NAME / "build-armies.yaml").is_file()


def test_the_ruleset_imports_only_the_kit(house):
    """What import-linter holds every ruleset to: sheetmaster.kit and rules.common alone."""
    for path in (house / NAME).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                module = node.module or ""
                assert module in ("__future__", "dataclasses", "typing") or \
                    module == "sheetmaster.kit" or module.startswith("sheetmaster.rules.common"), \
                    f"{path.name} imports {module}"


def test_the_ruleset_is_a_small_real_game(ruleset):
    assert ruleset.name == NAME
    assert ruleset.written and ruleset.settings and ruleset.example
    assert [p.key for p in ruleset.phases] == ["1"]
    assert "PLACEHOLDER" in ruleset.phases[0].rule


def test_its_example_resolves_with_the_engine(ruleset):
    tables, orders, settings = example_game(ruleset)
    settings = dict(settings)
    secret = settings.pop("seed")
    result = resolve(ruleset, build_state(ruleset, tables, orders, settings=settings),
                     secret=secret)
    assert [r.status for r in result.results] == [Status.APPLIED, Status.PARTIAL,
                                                  Status.REJECTED]
    players = result.after.tables["Players"].set_index("player")
    assert players.loc["Avalon", "gold"] == 2 and players.loc["Avalon", "armies"] == 3


def test_a_blank_army_cost_stops_a_turn_that_needs_it(ruleset):
    """The GM setting has no default (a number the source withholds)."""
    tables, orders, _ = example_game(ruleset)
    with pytest.raises(StateError, match="setting 'army cost' is blank"):
        resolve(ruleset, build_state(ruleset, tables, orders), seed=1)
    quiet = resolve(ruleset, build_state(ruleset, tables, []), seed=1)  # no build: no need
    assert quiet.results == []


def test_its_golden_turn_runs_with_the_ruleset_given(ruleset, house):
    """A house ruleset is no ruleset sheetmaster knows by name: load_case takes it."""
    case = load_case(house / "tests" / "golden" / NAME / "build-armies.yaml", ruleset)
    assert case.ruleset is ruleset
    assert run_case(case) is not None
    with pytest.raises(KeyError, match=NAME):
        _ = load_case(case.path).ruleset


def test_a_gm_plays_it_once_it_is_registered(ruleset, house, monkeypatch, capsys):
    """Registered (here by hand, as an entry point would), `new --example` and `resolve`."""
    monkeypatch.setitem(rules.BUILT_IN_MODULES, NAME, NAME)  # the package imported above
    game = house / "game.xlsx"
    assert main(["new", NAME, str(game), "--example", "-q"]) == Exit.OK
    assert main(["resolve", str(game), "-q"]) == Exit.OK
    assert "resolved turn 1" in capsys.readouterr().out


def test_its_own_tests_pass(house):
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests"], cwd=house, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 passed" in done.stdout


def test_its_own_tests_fail_when_the_rule_is_broken(house):
    building = house / NAME / "phases" / "building.py"
    text = building.read_text(encoding="utf-8")
    building.write_text(text.replace("player.armies += built", "player.armies += 2 * built"),
                        encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests"], cwd=house, capture_output=True, text=True)
    assert done.returncode == 1 and "column 'armies'" in done.stdout, done.stdout


def ruff(folder: Path, first_party: str | None) -> subprocess.CompletedProcess:
    """ruff with the repository's rules; sheetmaster first- or third-party, as it is in a
    checkout and to a house ruleset."""
    side = "known-first-party" if first_party else "known-third-party"
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--config",
                           str(ROOT / "pyproject.toml"), "--config",
                           f"lint.isort.{side} = ['sheetmaster']", "."],
                          cwd=folder, capture_output=True, text=True)


def test_a_house_ruleset_is_ruff_clean(house):
    done = ruff(house, None)
    assert done.returncode == 0, done.stdout + done.stderr


def test_in_a_checkout_it_goes_in_sheetmaster_rules_and_tests(tmp_path, capsys):
    """--out sheetmaster/rules: imported as sheetmaster.rules.NAME, its tests in the
    checkout's tests/ (tests/golden/NAME/, where tests/test_golden.py finds the cases)."""
    rules_dir = tmp_path / "sheetmaster" / "rules"
    rules_dir.mkdir(parents=True)
    for folder in (rules_dir, rules_dir.parent):
        (folder / "__init__.py").write_text("", encoding="utf-8")
    assert main(["new-ruleset", NAME, "--out", str(rules_dir)]) == Exit.OK
    assert f"import sheetmaster.rules.{NAME}" in capsys.readouterr().out
    test = (tmp_path / "tests" / f"test_{NAME}.py").read_text(encoding="utf-8")
    assert f"from sheetmaster.rules.{NAME} import RULESET" in test
    assert (tmp_path / "tests" / "golden" / NAME / "build-armies.yaml").is_file()
    assert (rules_dir / NAME / "ruleset.py").is_file()
    done = ruff(tmp_path, "sheetmaster")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("name", ["MyGame", "my-game", "1game", "_game", "class", "", "json",
                                  "sheetmaster"])
def test_a_name_that_cannot_be_a_package_is_refused(name, tmp_path, capsys):
    assert main(["new-ruleset", name, "--out", str(tmp_path)]) == Exit.USAGE
    assert f"{name!r}" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["claims", "clans", "eighteen_hundred", "common"])
def test_a_built_in_rulesets_name_is_refused(name, tmp_path, capsys):
    assert main(["new-ruleset", name, "--out", str(tmp_path)]) == Exit.USAGE
    assert "already" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_never_written_over(house, capsys):
    mine = house / NAME / "ruleset.py"
    mine.write_text("# mine\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["new-ruleset", NAME]) == Exit.USAGE
    assert f"{NAME} already exists" in capsys.readouterr().err
    assert mine.read_text(encoding="utf-8") == "# mine\n"


def test_an_existing_test_file_is_never_written_over(tmp_path, capsys):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / f"test_{NAME}.py").write_text("# mine\n", encoding="utf-8")
    assert main(["new-ruleset", NAME, "--out", str(tmp_path)]) == Exit.USAGE
    assert f"test_{NAME}.py already exists" in capsys.readouterr().err
    assert not (tmp_path / NAME).exists()


def test_an_out_folder_that_is_not_there_is_refused(tmp_path, capsys):
    assert main(["new-ruleset", NAME, "--out", str(tmp_path / "nowhere")]) == Exit.USAGE
    assert "is not a folder" in capsys.readouterr().err
    assert not (tmp_path / "nowhere").exists()


def test_the_templates_ship_with_the_package():
    """Every template is under a package-data pattern of pyproject.toml."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    from sheetmaster.app.scaffold import TEMPLATES

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["setuptools"]["package-data"]["sheetmaster"]
    package = ROOT / "sheetmaster"
    templates = [p for p in TEMPLATES.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert len(templates) == 14
    for path in templates:
        assert any(path.relative_to(package).match(p) for p in patterns), path
