"""The command line starts at once (issue 26.3, issue 28.12): building the parser,
``--version``, ``--help`` and the shell's completion import neither pandas nor a store's
libraries nor a ruleset, and a command imports only what it runs with (``check`` on a game:
its own ruleset, no openpyxl, no Google client). Each case runs in a fresh interpreter and
looks at ``sys.modules``: what was imported, never how long it took."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import sheetmaster
import sheetmaster.kit as kit
from sheetmaster import rules
from sheetmaster.app.cli import main
from sheetmaster.app.commands import command_modules

PACKAGE = Path(sheetmaster.__file__).resolve().parent
#: what no start-up may import: the engine's frames, the stores' libraries, the terminal's
#: and the maps' (each of these costs tens of milliseconds or more)
HEAVY = ("pandas", "numpy", "openpyxl", "python_calamine", "gspread", "google", "requests",
         "urllib3", "rich", "PIL", "yaml", "cryptography")
#: a ruleset's own package (``sheetmaster.rules.common`` is what rulesets share)
RULESET_PACKAGES = tuple(f"sheetmaster.rules.{name}" for name in rules.BUILT_IN_MODULES)

#: run in the child: the code under test, then what it left imported, as JSON on the last line
REPORT = """
import json, sys
heavy = sorted({name.split(".")[0] for name in sys.modules} & set(HEAVY))
rulesets = sorted(name for name in sys.modules if name.startswith(RULESET_PACKAGES))
print(json.dumps({"heavy": heavy, "rulesets": rulesets}))
"""


def imported(code: str, env: dict[str, str] | None = None, cwd: Path | None = None
             ) -> dict[str, list[str]]:
    """What running ``code`` in a fresh interpreter imported of :data:`HEAVY` and the
    rulesets (``code`` may end in SystemExit, as --version and --help do)."""
    child = (f"HEAVY = {HEAVY!r}\nRULESET_PACKAGES = {RULESET_PACKAGES!r}\n"
             f"try:\n    exec({code!r})\nexcept SystemExit:\n    pass\n{REPORT}")
    run = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True,
                         env={**os.environ, **(env or {})}, cwd=cwd, check=False)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


NOTHING: dict[str, list[str]] = {"heavy": [], "rulesets": []}


@pytest.mark.parametrize("code", [
    "import sheetmaster",
    "import sheetmaster.kit; import sheetmaster.rules",
    "import sheetmaster.app.cli",
    "from sheetmaster.app.cli import build_parser; build_parser()",
    "from sheetmaster.app.cli import main; main(['--version'])",
    "from sheetmaster.app.cli import main; main(['--help'])",
    "from sheetmaster.app.cli import main; main(['check', '--help'])",
    "from sheetmaster.app.cli import main; main(['completion', 'bash'])",
    "from sheetmaster import rules; rules.names()",
])
def test_starting_up_imports_nothing_heavy(code):
    assert imported(code) == NOTHING


def test_the_plugged_in_commands_load_light():
    """The test tooling's commands come in through the entry point group, and loading them
    (as the parser does) is light too."""
    assert "sheetmaster.testing.commands" in [m.__name__ for m in command_modules()]
    assert imported("import sheetmaster.testing.commands") == NOTHING


def test_completing_a_ruleset_lists_every_name_and_imports_none(tmp_path):
    """The shell's completion (argcomplete runs the command with _ARGCOMPLETE set, and it
    leaves through os._exit): a ruleset's name is completed from the registry's names."""
    out = tmp_path / "completions"
    line = "sheetmaster new "
    env = {"_ARGCOMPLETE": "1", "_ARGCOMPLETE_SHELL": "bash", "COMP_LINE": line,
           "COMP_POINT": str(len(line)), "_ARGCOMPLETE_STDOUT_FILENAME": str(out)}
    # argcomplete ends the process with os._exit: report the modules just before it does
    code = ("import os, sys\n_exit = os._exit\n"
            "def report(code):\n"
            "    exec(REPORT_CODE)\n    sys.stdout.flush()\n    _exit(code)\n"
            "os._exit = report\n"
            "from sheetmaster.app.cli import main\nmain(['new'])\n")
    child = (f"HEAVY = {HEAVY!r}\nRULESET_PACKAGES = {RULESET_PACKAGES!r}\n"
             f"REPORT_CODE = {REPORT!r}\n{code}")
    run = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True,
                         env={**os.environ, **env}, check=False)
    assert json.loads(run.stdout.strip().splitlines()[-1]) == NOTHING, run.stderr
    completions = out.read_text().split("\v")
    assert set(rules.BUILT_IN_MODULES) <= set(completions)


def test_check_imports_its_own_ruleset_and_no_other_store(tmp_path):
    game = tmp_path / "g.xlsx"
    assert main(["new", "clans", str(game), "--example", "-q"]) == 0
    found = imported(f"from sheetmaster.app.cli import main; main(['check', {str(game)!r}, "
                     f"'-q'])")
    assert [name for name in found["rulesets"] if name.count(".") == 2] == \
        ["sheetmaster.rules.clans"]
    assert {"openpyxl", "gspread", "requests", "yaml"}.isdisjoint(found["heavy"])
    assert "pandas" in found["heavy"]  # (the check did run)


def test_a_built_in_command_does_not_look_for_plugged_in_ones(tmp_path, capsys):
    """Finding the plugged-in commands (and rulesets) reads every installed package's
    metadata: a built-in command and a built-in ruleset go without (issue 26.3); a plugged-in
    command, and sheetmaster's own --help, still find them."""
    game = tmp_path / "g.xlsx"
    assert main(["new", "claims", str(game), "--example", "-q"]) == 0
    code = (f"import sys\nfrom sheetmaster.app.cli import main\nmain(['check', {str(game)!r}, "
            f"'-q'])\nassert 'importlib.metadata' not in sys.modules\n"
            f"assert 'sheetmaster.testing.commands' not in sys.modules")
    assert "pandas" in imported(code)["heavy"]
    with pytest.raises(SystemExit):
        main(["golden", "--help"])
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "fake-sheets" in capsys.readouterr().out


def test_rules_get_imports_that_ruleset_alone():
    found = imported("from sheetmaster import rules; assert rules.get(' Decades ').name == "
                     "'decades'")
    assert [name for name in found["rulesets"] if name.count(".") == 2] == \
        ["sheetmaster.rules.decades"]


def test_the_registry_names_every_built_in_ruleset_as_it_names_itself():
    assert {name: rules.built_in(name).name for name in rules.BUILT_IN_MODULES} == \
        {name: name for name in rules.BUILT_IN_MODULES}
    assert rules.names() == sorted(rules.available())
    assert list(rules.BUILT_IN) == list(rules.BUILT_IN_MODULES)


def test_an_unknown_ruleset_names_the_known_ones():
    with pytest.raises(KeyError, match="no ruleset named 'chess' \\(known: claims, clans"):
        rules.get("chess")


def type_checking_imports(path: Path, package: str) -> dict[str, str]:
    """The names a package imports under ``if TYPE_CHECKING:``, as its EXPORTS writes them
    (``module``, ``module:name`` for a renamed one, the submodule for a module)."""
    block = next(node for node in ast.parse(path.read_text(encoding="utf-8")).body
                 if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING")
    found = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names:
            name = alias.asname or alias.name
            if node.module == package:
                found[name] = f"{package}.{alias.name}"
            else:
                found[name] = node.module if name == alias.name else \
                    f"{node.module}:{alias.name}"
    return found


@pytest.mark.parametrize("module", [sheetmaster, kit], ids=["sheetmaster", "kit"])
def test_the_lazy_names_are_the_type_checkers_and_all_of_them(module):
    """What a type checker sees (the TYPE_CHECKING imports) is what the package gives at run
    time, and __all__ lists exactly those names."""
    path = Path(module.__file__)
    assert type_checking_imports(path, module.__name__) == module.EXPORTS
    assert sorted(module.__all__) == sorted(module.EXPORTS)
    for name in module.__all__:
        module_name, _, attribute = module.EXPORTS[name].partition(":")
        __import__(module_name)
        owner = sys.modules[module_name]
        expected = owner if module_name == f"{module.__name__}.{name}" else \
            getattr(owner, attribute or name)
        assert getattr(module, name) is expected, name
    assert set(module.__all__) <= set(dir(module))


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'resolv'"):
        sheetmaster.resolv  # noqa: B018
    with pytest.raises(ImportError):
        from sheetmaster.kit import Rulesett  # noqa: F401


def test_public_names_import_as_before():
    from sheetmaster import Ruleset, get_ruleset, resolve
    from sheetmaster.kit import Ruleset as KitRuleset
    from sheetmaster.kit import values

    assert Ruleset is KitRuleset and callable(resolve) and values.fold("A") == "a"
    assert get_ruleset("claims") is rules.get("claims")


@pytest.mark.long  # a benchmark smoke run
def test_the_startup_benchmark_runs_and_writes_its_figures(tmp_path):
    out = tmp_path / "startup.json"
    script = PACKAGE.parent / "benchmarks" / "startup.py"
    done = subprocess.run([sys.executable, str(script), "--quick", "--importtime", "--out",
                           str(out)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "| --version |" in done.stdout and "| check (claims example) |" in done.stdout
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["runs"] == 3
    assert set(report["timings"]) == {"--version", "--help", "completion bash",
                                      "TAB after 'sheetmaster new'", "check (claims example)",
                                      "check (goldenage example)"}
    assert all(len(t["this"]["wall"]) == 3 for t in report["timings"].values())
    assert report["imports"]["--version"]["this"]["heavy"] == []
    assert "pandas" in report["imports"]["check (claims example)"]["this"]["heavy"]
