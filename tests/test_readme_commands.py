"""The README's commands as a new user runs them: two one-line commands from a checkout
(tasks.py: a virtual environment of its own, never the system's Python), and none of the
README's commands changes a file of the repository."""

from __future__ import annotations

import hashlib
import importlib.util
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from sheetmaster.app.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def load_tasks():
    spec = importlib.util.spec_from_file_location("tasks", ROOT / "tasks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tracked_files() -> list[str]:
    """The repository's files, as a clean checkout has them (and files not yet committed)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=ROOT, capture_output=True, check=True)
    return [n for n in listed.stdout.decode().split("\0") if n and (ROOT / n).is_file()]


def digests(root: Path, names: list[str]) -> dict[str, str]:
    return {n: hashlib.sha256((root / n).read_bytes()).hexdigest() for n in names}


def sh_blocks(text: str) -> list[list[str]]:
    return [block.strip().splitlines() for block in re.findall(r"```sh\n(.*?)```", text, re.S)]


def test_the_quick_start_is_two_one_line_commands():
    quick = README[README.index("## Quick start"):README.index("## Running a game")]
    blocks = sh_blocks(quick)
    assert ["python3 tasks.py example"] in blocks
    assert ["python3 tasks.py test"] in blocks
    tasks = load_tasks()
    said = " ".join(quick.split())
    assert f"`sheetmaster {' '.join(tasks.EXAMPLE)}`" in said  # what `example` runs
    assert "git+https://github.com/sheetmaster/sheetmaster" in quick  # without a checkout


@pytest.fixture
def tasks(tmp_path, monkeypatch):
    """tasks.py as a system Python runs it (no virtual environment active), its .venv in
    tmp_path, and every command it would run recorded instead."""
    module = load_tasks()
    monkeypatch.setattr(module, "VENV", tmp_path / ".venv")
    monkeypatch.setattr(module, "in_a_venv", lambda: False)
    ran: list[list[str]] = []
    real_run = module.run

    def run(command, **kw):
        ran.append([str(c) for c in command])
        if command[1:] == ["-m", "pip", "--version"]:
            return real_run(command, **kw)  # which pip there is: asked for real
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(module, "run", run)
    module.ran = ran
    return module


def test_tasks_installs_into_a_venv_of_its_own_once(tasks, tmp_path):
    assert tasks.main(["test", "-k", "dice"]) == 0
    python = str(tasks.venv_python(tmp_path / ".venv"))
    assert Path(python).exists()  # made, with pip in it
    installs = [c for c in tasks.ran if "install" in c]
    assert installs == [[python, "-m", "pip", "install", "--quiet", "--editable", ".[test]"]]
    assert tasks.ran[-1] == [python, "-m", "pytest", "-q", "-n", "auto", "-k", "dice"]
    tasks.ran.clear()
    assert tasks.main(["example"]) == 0  # the test extra holds what the example needs
    assert not [c for c in tasks.ran if "install" in c]
    assert tasks.ran[-1] == [python, "-m", "sheetmaster", *tasks.EXAMPLE]
    assert tasks.main(["long"]) == 0
    assert tasks.ran[-1][-2:] == ["-m", "long"]
    assert tasks.main(["nothing"]) == 2


def test_tasks_fills_a_venv_without_pip_with_the_pythons_own(tasks, tmp_path, monkeypatch):
    """A Debian or Ubuntu Python without python3-venv makes no venv with pip in it (its venv
    module exits); its own pip, when it has one, installs into a venv made without."""
    made = []

    class NoEnsurepip(tasks.venv.EnvBuilder):
        def create(self, env_dir):
            made.append(self.with_pip)
            if self.with_pip:
                raise SystemExit(1)  # what Debian's venv does without ensurepip
            super().create(env_dir)

    monkeypatch.setattr(tasks.venv, "EnvBuilder", NoEnsurepip)
    assert tasks.main(["example"]) == 0
    assert made == [True, False]
    python = str(tasks.venv_python(tmp_path / ".venv"))
    (install,) = [c for c in tasks.ran if "install" in c]
    assert install[:5] == [sys.executable, "-m", "pip", "--python", python]


def test_tasks_installs_again_when_pyproject_changes(tasks, tmp_path, monkeypatch):
    root = tmp_path / "checkout"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    monkeypatch.setattr(tasks, "ROOT", root)
    assert tasks.main(["example"]) == 0
    assert tasks.main(["example"]) == 0
    assert len([c for c in tasks.ran if "install" in c]) == 1
    (root / "pyproject.toml").write_text("[project]\nname = 'y'\n", encoding="utf-8")
    assert tasks.main(["example"]) == 0
    assert len([c for c in tasks.ran if "install" in c]) == 2


def readme_commands_on_repository_files() -> list[str]:
    """Every `sheetmaster ...` command the README shows that names a file of the repository
    (the shipped templates)."""
    inline = [" ".join(c.split()) for c in re.findall(r"`(sheetmaster [^`]+)`", README)]
    blocks = [part.strip() for block in sh_blocks(README) for line in block
              for part in line.split("&&") if part.strip().startswith("sheetmaster ")]
    return [c for c in inline + blocks if "templates/" in c]


def test_no_readme_command_changes_the_repository(tmp_path, monkeypatch):
    """The map example resolved templates/claims-example.xlsx in place, after which the
    quick start wrote turn-3 files instead of the documented turn-2 ones."""
    names = tracked_files()
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tmp_path / name)
    before = digests(tmp_path, names)
    commands = readme_commands_on_repository_files()
    assert len(commands) >= 2, commands  # the quick start's and the map example's
    monkeypatch.chdir(tmp_path)
    for _ in range(2):  # and each runs again as documented
        for command in commands:
            assert main([*shlex.split(command)[1:], "-qq"]) == 0, command
        changed = [n for n, d in digests(tmp_path, names).items() if before[n] != d]
        assert changed == []
    assert (tmp_path / "resolved-turn-2-report.md").exists()
    assert (tmp_path / "resolved-turn-2-map.png").exists()
    ignored = subprocess.run(["git", "check-ignore", "resolved.xlsx", "resolved-turn-2-map.png",
                              "resolved.xlsx.dice-secret"], cwd=ROOT, capture_output=True,
                             text=True)
    assert len(ignored.stdout.split()) == 3, ignored.stdout  # git status stays clean


def externally_managed_python() -> str | None:
    """A Python whose own pip refuses to install (PEP 668), as Debian's and Ubuntu's do."""
    for candidate in ("/usr/bin/python3", sys._base_executable):
        if not Path(candidate).exists():
            continue
        stdlib = subprocess.run([candidate, "-c", "import sysconfig; "
                                 "print(sysconfig.get_path('stdlib'))"],
                                capture_output=True, text=True).stdout.strip()
        if stdlib and (Path(stdlib) / "EXTERNALLY-MANAGED").exists():
            return candidate
    return None


@pytest.mark.long  # installs sheetmaster's dependencies from the package index
def test_the_quick_start_runs_on_a_python_that_refuses_pip_install(tmp_path):
    python = externally_managed_python()
    if python is None:
        pytest.skip("no externally managed Python here (a Debian or Ubuntu system Python)")
    names = tracked_files()
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tmp_path / name)
    refused = subprocess.run([python, "-m", "pip", "install", "--dry-run", "."], cwd=tmp_path,
                             capture_output=True, text=True)
    assert "externally-managed-environment" in refused.stdout + refused.stderr
    done = subprocess.run([python, "tasks.py", "example"], cwd=tmp_path, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "resolved.xlsx").exists()
    assert (tmp_path / ".venv").is_dir()
    assert sysconfig.get_path("stdlib")  # the system Python itself got nothing:
    system = subprocess.run([python, "-c", "import sheetmaster"], capture_output=True,
                            cwd="/")
    assert system.returncode != 0
