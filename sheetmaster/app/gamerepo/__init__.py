"""A game repository: what ``sheetmaster init --repo DIR`` writes, and nothing else.

A GM's games live in a repository of their own, not in a copy of sheetmaster's (whose CI,
tests and sources a game does not need). It holds:

- ``games.toml``: the games (written once, from ``templates/games.toml``; then the GM's);
- ``.github/workflows/nightly.yml``: the nightly workflow, written anew from
  ``templates/nightly.yml`` each time, from games.toml: it installs one pinned sheetmaster,
  lists the games, and resolves each Google Sheet game in a matrix job of its own, handed every
  secret games.toml names (a workflow hands a job only the secrets it names, so the names
  are written into it; the listing job stops when games.toml names one it does not hand on).
  The schedule a GM set is kept;
- ``README.md`` for the GM and the players, and a ``.gitignore`` that keeps secrets out
  (written once).

The pin is a pip requirement: by default sheetmaster's own repository at the tag of the
version that writes the workflow (sheetmaster is not on a package index, and a name there
that the project does not hold could be anyone's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import yaml

from sheetmaster import __version__
from sheetmaster.app.exits import UsageError
from sheetmaster.app.games import Game, load_games, secret_names

TEMPLATES = Path(__file__).parent / "templates"
WORKFLOW = Path(".github") / "workflows" / "nightly.yml"
DEFAULT_CRON = "17 5 * * *"
#: where sheetmaster's source is, if the installed package does not say.
SOURCE = "https://github.com/sheetmaster/sheetmaster"
#: a pip requirement on one line, with nothing a shell or YAML would read as more.
_PIN = re.compile(r"^[A-Za-z0-9 ._@+:/=<>!~,\[\]-]{1,300}$")
_CRON = re.compile(r"^\S+( \S+){4}$")
_SECRET = re.compile(r"\$\{\{\s*secrets\.([A-Za-z0-9_]+)\s*\}\}")


@dataclass
class Written:
    """What ``init --repo`` did: files written, and files kept as they were."""

    written: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)
    pin: str = ""
    cron: str = ""


def source_url() -> str:
    """sheetmaster's repository, as the installed package's metadata gives it."""
    try:
        urls = metadata.metadata("sheetmaster").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        urls = []
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip() == "Source" and url.strip():
            return url.strip()
    return SOURCE


def default_pin() -> str:
    """This sheetmaster, from its repository at its version's tag."""
    return f"sheetmaster @ git+{source_url()}@v{__version__}"


def checked_pin(pin: str) -> str:
    if not _PIN.match(pin) or "sheetmaster" not in pin.casefold():
        raise UsageError(f"--pin {pin!r}: give one pip requirement for sheetmaster, like "
                         f"'sheetmaster @ git+{SOURCE}@v{__version__}'")
    return pin


def write_repo(folder: Path, pin: str | None = None) -> Written:
    """Write a game repository into ``folder`` (made if need be): games.toml, README.md and
    .gitignore if they are missing, the workflow always (from games.toml)."""
    done = Written(pin=checked_pin(pin) if pin else default_pin())
    folder.mkdir(parents=True, exist_ok=True)
    for name, target in (("games.toml", "games.toml"), ("README.md", "README.md"),
                         ("gitignore", ".gitignore")):
        path = folder / target
        if path.exists():
            done.kept.append(path)
            continue
        text = (TEMPLATES / name).read_text(encoding="utf-8")
        path.write_text(text.replace("__PIN__", done.pin).replace("__SOURCE__", source_url()),
                        encoding="utf-8")
        done.written.append(path)
    workflow = folder / WORKFLOW
    done.cron = kept_cron(workflow)
    workflow.parent.mkdir(parents=True, exist_ok=True)
    workflow.write_text(workflow_text(repo_games(folder / "games.toml"), done.pin, done.cron),
                        encoding="utf-8")
    done.written.append(workflow)
    return done


def repo_games(path: Path) -> list[Game]:
    """The games of a repository's games.toml; none while it lists none (a new repository).
    A broken games.toml is a usage error: the workflow is written from it."""
    try:
        return load_games(path)
    except UsageError:
        if "[[game]]" not in _uncommented(path):
            return []
        raise


def _uncommented(path: Path) -> str:
    return "\n".join(line.split("#", 1)[0] for line in
                     path.read_text(encoding="utf-8").splitlines())


def kept_cron(workflow: Path) -> str:
    """The schedule of the workflow already there (the GM may have changed it), or the
    default."""
    try:
        data = yaml.safe_load(workflow.read_text(encoding="utf-8"))
        on = data.get("on", data.get(True))
        cron = on["schedule"][0]["cron"]
    except (OSError, yaml.YAMLError, AttributeError, KeyError, IndexError, TypeError):
        return DEFAULT_CRON
    return cron if isinstance(cron, str) and _CRON.match(cron) else DEFAULT_CRON


def workflow_text(games: list[Game], pin: str, cron: str = DEFAULT_CRON) -> str:
    """The nightly workflow for these games: every secret they name handed to each job."""
    text = (TEMPLATES / "nightly.yml").read_text(encoding="utf-8")
    google = sorted({g.secret_name("google") for g in games})
    return (text.replace("__PIN__", _yaml_string(pin)).replace("__CRON__", cron)
            .replace("__WORKFLOW__", WORKFLOW.as_posix())
            .replace("__SECRETS__", _env_lines(secret_names(games)))
            .replace("__GOOGLE_SECRETS__", _env_lines(google)))


def _env_lines(names: list[str]) -> str:
    """A step's env lines handing on these secrets under their own names."""
    return "\n".join(f"          {name}: ${{{{ secrets.{name} }}}}" for name in names)


def _yaml_string(text: str) -> str:
    """A double-quoted YAML scalar (JSON's quoting, which YAML reads alike)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def secrets_handed_on(workflow: Path) -> set[str]:
    """The secrets a workflow names (``${{ secrets.NAME }}``)."""
    try:
        return set(_SECRET.findall(workflow.read_text(encoding="utf-8")))
    except OSError as exc:
        raise UsageError(f"cannot read the workflow {workflow}: {exc.strerror or exc}") from None


def check_workflow(games: list[Game], workflow: Path) -> None:
    """The workflow hands each job every secret the games read; a usage error otherwise."""
    missing = [n for n in secret_names(games) if n not in secrets_handed_on(workflow)]
    if missing:
        raise UsageError(f"games.toml names secrets that {workflow} does not hand to the jobs: "
                         f"{', '.join(missing)}. Run `sheetmaster init --repo .` to write the "
                         f"workflow again (it keeps the schedule), and commit it")


__all__ = ["WORKFLOW", "Written", "check_workflow", "default_pin", "workflow_text",
           "write_repo"]
