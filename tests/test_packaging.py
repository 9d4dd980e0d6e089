"""The package as pip installs it: what the wheel carries (and does not), its metadata, and a
README that works on a package index.

The install tests build the sdist and the wheel as CI does (``python -m build``), install the
wheel into a fresh venv, and run ``python -m sheetmaster --version``, the example game,
``sheetmaster check GAME --json`` and ``sheetmaster fake-sheets serve`` as the README shows
them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import venv
from pathlib import Path

import pytest

import sheetmaster

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_metadata_a_package_index_shows():
    project = PYPROJECT["project"]
    assert project["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == \
        {"attr": "sheetmaster.__version__"}
    assert project["license"] == {"text": "MIT"} and (ROOT / "LICENSE").exists()
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "License :: OSI Approved :: MIT License" in project["classifiers"]
    assert "Typing :: Typed" in project["classifiers"]
    assert len(project["keywords"]) >= 5
    assert {"Homepage", "Source", "Issues", "Changelog"} <= set(project["urls"])
    assert (ROOT / "sheetmaster" / "py.typed").exists()
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[?{re.escape(sheetmaster.__version__)}\]?", changelog, re.M)


def test_readme_links_are_absolute_and_stay_in_the_repository():
    """Relative links break on a package index; a link to a file outside the repository
    (the team's notes, a path on someone's machine) is a file a user does not have."""
    source = PYPROJECT["project"]["urls"]["Source"]
    files = f"{source}/blob/main/"
    links = re.findall(r"\]\(([^)\s]+)\)", README)
    assert links
    for link in links:
        assert re.match(r"https://", link), f"not absolute: {link}"
        if link.startswith(source):
            assert link.startswith(files), link
            path = link[len(files):].split("#")[0]
            assert (ROOT / path).exists(), f"the README links to a missing file: {path}"
    assert "DESIGN.md" not in README and "shared folder" not in README


def test_the_cli_imports_no_test_machinery():
    code = ("import sys, sheetmaster.app.cli; print([m for m in sys.modules "
            "if m.startswith(('sheetmaster.testing', 'testkit', 'hypothesis'))])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def repository_copy(target: Path) -> Path:
    """The repository's tracked files (as a clean checkout has them), so that building the
    wheel leaves no build/ or egg-info behind in the working tree."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=ROOT, capture_output=True, check=True)
    for name in filter(None, listed.stdout.decode().split("\0")):
        if (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    return target


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """The sdist, and the wheel built from it, as CI builds them (``python -m build``: an
    isolated build environment, the wheel made from the unpacked sdist, so a file the sdist
    lacks fails here)."""
    if not shutil.which("git"):
        pytest.skip("git is needed to copy the repository")
    root = tmp_path_factory.mktemp("build")
    source = repository_copy(root / "src")
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(root / "dist"),
                           str(source)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    (sdist,) = (root / "dist").glob("sheetmaster-*.tar.gz")
    (wheel,) = (root / "dist").glob("sheetmaster-*-py3-none-any.whl")
    return {"sdist": sdist, "wheel": wheel}


@pytest.fixture(scope="module")
def installed(tmp_path_factory, built):
    """The built wheel installed by ``pip install --no-deps`` into a fresh venv; its
    dependencies come from this interpreter's site-packages (CI's package job installs the
    same wheel with its dependencies from the package index)."""
    root = tmp_path_factory.mktemp("pkg")
    env_dir = root / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--quiet",
                           str(built["wheel"])], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    site = subprocess.run([str(python), "-c", "import sysconfig; "
                           "print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # pandas, gspread... come from this interpreter's site-packages, which may hold a
    # sheetmaster of its own (CI installs one there): a .pth file puts them *after* the
    # fresh venv's site-packages, where PYTHONPATH would put them before it.
    deps = sysconfig.get_paths()["purelib"]
    (Path(site) / "borrowed-dependencies.pth").write_text(deps + "\n", encoding="utf-8")
    env = {**os.environ, "PATH": f"{env_dir / 'bin'}:{os.environ['PATH']}"}
    env.pop("PYTHONPATH", None)
    env.pop("NO_COLOR", None)
    work = root / "work"
    work.mkdir()
    return {"python": python, "site": Path(site), "env": env, "bin": env_dir / "bin",
            "work": work}


def test_the_sdist_holds_the_package_and_what_its_build_needs(built):
    with tarfile.open(built["sdist"]) as sdist:
        names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    assert {"pyproject.toml", "README.md", "LICENSE", "sheetmaster/__init__.py",
            "sheetmaster/py.typed", "sheetmaster/rules/claims/README.md"} <= names
    assert not [n for n in names if n.startswith((".venv/", ".ci-venv/", "dist/"))]


def test_the_wheel_resolves_the_example_in_a_clean_environment(installed):
    """The README without a checkout: `sheetmaster new claims ... --example`, then a turn."""
    new = run(installed, str(installed["bin"] / "sheetmaster"), "new", "claims", "my-game.xlsx",
              "--example")
    assert new.returncode == 0, new.stderr
    done = run(installed, str(installed["bin"] / "sheetmaster"), "resolve", "my-game.xlsx",
               "--out", "resolved.xlsx", "-q")
    assert done.returncode == 0, done.stderr
    assert "resolved turn 2" in done.stdout
    for name in ("resolved.xlsx", "resolved-turn-2-report.md", "resolved-turn-2-map.png"):
        assert (installed["work"] / name).stat().st_size > 0, name


def test_the_wheel_carries_what_a_gm_runs_and_no_test_machinery(installed):
    site = installed["site"]
    package = site / "sheetmaster"
    shipped = {p.relative_to(site).as_posix() for p in package.rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    assert "sheetmaster/py.typed" in shipped
    assert "sheetmaster/rules/claims/README.md" in shipped
    assert "sheetmaster/testing/fakesheets/server.py" in shipped  # public: the fake API
    assert "sheetmaster/testing/golden.py" in shipped  # public: golden-case capture
    templates = [f for f in shipped if f.startswith("sheetmaster/app/scaffold/templates/")]
    assert len(templates) == 14, templates  # new-ruleset's (tests/test_new_ruleset.py)
    assert not [f for f in shipped if "fuzzing" in f or "reliability" in f]
    assert not (site / "testkit").exists() and not (site / "tests").exists()
    assert not (site / "benchmarks").exists()
    dist = next(site.glob("sheetmaster-*.dist-info"))
    metadata = (dist / "METADATA").read_text(encoding="utf-8")
    assert f"Version: {sheetmaster.__version__}" in metadata
    assert "Project-URL: Source, https://github.com/" in metadata
    assert "entry_points.txt" in os.listdir(dist)


def run(installed, *args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(list(args), capture_output=True, text=True, env=installed["env"],
                          cwd=installed["work"], **kw)


def test_the_installed_command_works_as_the_readme_says(installed):
    version = run(installed, str(installed["python"]), "-m", "sheetmaster", "--version")
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"sheetmaster {sheetmaster.__version__}"
    shutil.copy(ROOT / "templates" / "claims-example.xlsx", installed["work"] / "game.xlsx")
    check = run(installed, str(installed["bin"] / "sheetmaster"), "check", "game.xlsx",
                "--json")
    assert check.returncode == 1, check.stderr  # the example has orders that would fail
    assert json.loads(check.stdout)["counts"]["orders"] == 18
    where = run(installed, str(installed["python"]), "-c",
                "import sheetmaster; print(sheetmaster.__file__)")
    assert where.stdout.strip().startswith(str(installed["site"]))


def test_fake_sheets_serve_prints_what_to_use_and_serves_it(installed):
    with subprocess.Popen([str(installed["bin"] / "sheetmaster"), "fake-sheets", "serve",
                           "--from", str(ROOT / "templates" / "claims-example.xlsx")],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=installed["env"], cwd=installed["work"]) as server:
        try:
            lines = []
            for line in server.stdout:  # up to the command it says to run, its last line
                lines.append(line)
                if "--sheet" in line:
                    break
            endpoint = re.search(r"export SHEETMASTER_SHEETS_ENDPOINT=(\S+)", "".join(lines))
            token = re.search(r"export SHEETMASTER_SHEETS_TOKEN=(\S+)", "".join(lines))
            sid = re.search(r"spreadsheet id: (\S+)", "".join(lines))
            assert endpoint and token and sid, "".join(lines)
            assert "export SHEETMASTER_DICE_SECRET=" in "".join(lines)  # what the sheet needs
            secret = (ROOT / "templates" / "claims-example.xlsx.dice-secret").read_text()
            env = {**installed["env"], "SHEETMASTER_SHEETS_ENDPOINT": endpoint.group(1),
                   "SHEETMASTER_SHEETS_TOKEN": token.group(1),
                   "SHEETMASTER_DICE_SECRET": secret.strip()}
            check = subprocess.run([str(installed["bin"] / "sheetmaster"), "check", "--sheet",
                                    sid.group(1), "--json"], capture_output=True, text=True,
                                   env=env, cwd=installed["work"])
            assert check.returncode == 1, check.stderr
            assert json.loads(check.stdout)["counts"]["rejected"] == 4
        finally:
            server.terminate()
        assert server.wait() == 0
        assert "stopped" in server.stdout.read()
