"""The README's commands from a checkout, on any machine with Python 3.10+ and nothing else.

    python3 tasks.py example   install sheetmaster and resolve the example game
    python3 tasks.py test      install it with its test tools and run the test suite
    python3 tasks.py long      the long runs: fuzzing, reliability, benchmarks, LibreOffice
    python3 tasks.py lint      ruff and the import contracts, as CI runs them

Each installs into a virtual environment of its own, ``.venv`` beside this file (or the one
already active), never into the system's Python: a Debian or Ubuntu Python refuses that
(``externally-managed-environment``). Words after the task go to pytest (``test -k dice``).
Only the standard library is used here, since nothing else can be counted on yet.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
#: what was installed into the environment, so that an unchanged one is not installed again
STAMP_NAME = ".sheetmaster-installed"
#: the README's quick start: the example game, one turn later, beside it; the tracked
#: template is never changed (--out), and a second run overwrites the first one's files.
EXAMPLE = ["resolve", "templates/claims-example.xlsx", "--out", "resolved.xlsx", "--force"]
#: pytest-xdist on every core; pyproject.toml's addopts leave out the tests marked long.
TEST = ["-m", "pytest", "-q", "-n", "auto"]
LONG = [*TEST, "-m", "long"]


class TaskError(Exception):
    """A task could not run; the message says what to do."""


def in_a_venv() -> bool:
    return sys.prefix != sys.base_prefix


def venv_python(folder: Path) -> Path:
    scripts = folder / ("Scripts" if os.name == "nt" else "bin")
    return scripts / ("python.exe" if os.name == "nt" else "python")


def environment() -> tuple[Path, list[str]]:
    """The Python to run sheetmaster with, and the pip command that installs into it: the
    active virtual environment, else ``.venv`` (made on first use)."""
    if in_a_venv():
        return Path(sys.executable), [sys.executable, "-m", "pip"]
    python = venv_python(VENV)
    if not python.exists():
        make_venv()
    if run_quietly([str(python), "-m", "pip", "--version"]):
        return python, [str(python), "-m", "pip"]
    # a venv made without pip (see make_venv): this Python's own pip installs into it
    return python, [sys.executable, "-m", "pip", "--python", str(python)]


def make_venv() -> None:
    print(f"making a virtual environment for sheetmaster in {VENV}", flush=True)
    try:
        venv.EnvBuilder(with_pip=True).create(VENV)
        return
    except (subprocess.CalledProcessError, OSError, SystemExit):  # Debian's venv exits
        shutil.rmtree(VENV, ignore_errors=True)
    # Debian and Ubuntu ship venv's pip (ensurepip) apart, in python3-venv; their pip, when
    # installed, can still fill an environment made without one.
    if not run_quietly([sys.executable, "-m", "pip", "--version"]):
        raise TaskError("this Python can make no virtual environment with pip in it; on "
                        "Debian or Ubuntu, `sudo apt install python3-venv` and run again")
    venv.EnvBuilder(with_pip=False).create(VENV)


def install(pip: list[str], python: Path, extra: str) -> None:
    """sheetmaster from this checkout (editable: edits to it count at once), with ``extra``;
    skipped when the environment has it already, from an unchanged pyproject.toml."""
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    stamp = Path(sys.prefix if in_a_venv() else VENV) / STAMP_NAME
    words = stamp.read_text(encoding="utf-8").split() if stamp.exists() else []
    have = set(words[1:]) if words[:1] == [digest] else None
    if have is not None and (not extra or extra in have):
        return
    print(f"installing sheetmaster{f' with its {extra} tools' if extra else ''} into "
          f"{python.parent.parent}", flush=True)
    target = f".[{extra}]" if extra else "."
    if run([*pip, "install", "--quiet", "--editable", target]).returncode:
        raise TaskError("pip could not install sheetmaster (its message is above)")
    kept = sorted(((have or set()) | {extra}) - {""})
    stamp.write_text(" ".join([digest, *kept]) + "\n", encoding="utf-8")


def run(command: list[str], **kw: object) -> subprocess.CompletedProcess:
    """A command, in the checkout."""
    return subprocess.run(command, cwd=ROOT, **kw)  # type: ignore[call-overload]


def run_quietly(command: list[str]) -> bool:
    return run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def task(name: str, words: list[str]) -> int:
    python, pip = environment()
    install(pip, python, "" if name == "example" else "test")
    if name == "example":
        command = [str(python), "-m", "sheetmaster", *EXAMPLE, *words]
        print("$ sheetmaster " + " ".join(EXAMPLE + words), flush=True)
    elif name == "lint":
        # ruff, then the import contracts between the kit, the engine, the application, the
        # stores and the rulesets (pyproject.toml's [tool.importlinter])
        ruff = run([str(python), "-m", "ruff", "check", ".", *words]).returncode
        script = python.parent / ("lint-imports.exe" if os.name == "nt" else "lint-imports")
        contracts = run([str(script), "--no-cache", "--no-logo"]).returncode
        return ruff or contracts
    else:
        command = [str(python), *(LONG if name == "long" else TEST), *words]
    code = run(command).returncode
    if name == "example" and code == 0 and not in_a_venv():
        activate = (r".venv\Scripts\activate" if os.name == "nt"
                    else ". .venv/bin/activate")
        print(f"\nsheetmaster is installed in .venv: `{activate}` puts the `sheetmaster` "
              f"command on your PATH (see `sheetmaster --help`).")
    return code


TASKS = ("example", "test", "long", "lint")


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in TASKS:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        return task(argv[0], argv[1:])
    except TaskError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
