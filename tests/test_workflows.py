"""The GitHub Actions workflows: valid, least-privilege, pinned, and safe from injection.

Two: the project's CI (.github/workflows/ci.yml), and the nightly workflow a game repository
runs, as ``sheetmaster init --repo`` writes it (for the two example games of its games.toml).
Two linters from PyPI (the ``test`` extra) check them offline: check-jsonschema against its
vendored GitHub workflow schema, and zizmor's security audits. Plain-Python checks then pin
down what this project relies on: the nightly job is never cancelled mid-resolution, runs
off the hour, runs each game of games.toml as its own job (its own concurrency group, its
own environment, no fail-fast), passes no ``${{ }}`` expression into a shell script, and hands
the CLI arguments it accepts.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
import yaml

from sheetmaster.app.delivery.webhooks import PLAYERS_ENV, PUBLIC_ENV
from sheetmaster.app.gamerepo import WORKFLOW
from sheetmaster.stores.google_auth import JSON_ENV
from tests.test_game_repo import example_games_toml, example_repo

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
#: a game repository as `init --repo` writes it, with two games (removed when the run ends)
GAME_REPO = example_repo(Path(tempfile.mkdtemp(prefix="sheetmaster-game-repo-")))
atexit.register(shutil.rmtree, GAME_REPO, ignore_errors=True)
RESOLVE = GAME_REPO / WORKFLOW
CI = WORKFLOWS / "ci.yml"
ALL = (RESOLVE, CI)

SHA_PIN = re.compile(r"^[^@\s]+@[0-9a-f]{40}$")
# Expressions that carry text an outsider or a workflow_dispatch user controls.
UNTRUSTED = re.compile(r"\$\{\{\s*(inputs\.|github\.event|github\.head_ref)")


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def triggers(workflow: dict) -> dict:
    # YAML 1.1 (PyYAML) reads the bare key `on` as the boolean True.
    return workflow.get("on", workflow.get(True))


def steps(workflow: dict):
    for job in workflow["jobs"].values():
        yield from job.get("steps", [])


def steps_using(workflow: dict, action: str) -> list[dict]:
    return [s for s in steps(workflow) if s.get("uses", "").startswith(action + "@")]


def step_using(workflow: dict, action: str) -> dict:
    found = steps_using(workflow, action)
    assert len(found) == 1, f"expected one {action} step, found {len(found)}"
    return found[0]


def offline_env() -> dict[str, str]:
    env = dict(os.environ)
    for name in ("GH_TOKEN", "GITHUB_TOKEN", "ZIZMOR_GITHUB_TOKEN"):
        env.pop(name, None)  # zizmor --offline ignores them anyway; belt and braces
    return env


# --- the linters ----------------------------------------------------------------------------

def run_check_jsonschema(*paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
         *map(str, paths)],
        capture_output=True, text=True, env=offline_env())


def test_workflows_match_the_github_workflow_schema():
    done = run_check_jsonschema(*ALL)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_schema_check_does_reject_a_broken_workflow(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text(textwrap.dedent("""\
        on: push
        jobs:
          x:
            runs-on: ubuntu-latest
            timeout-minutes: soon
            steps:
              - run: echo hi
                uses: actions/checkout@v4
        """), encoding="utf-8")
    done = run_check_jsonschema(broken)
    assert done.returncode != 0, done.stdout + done.stderr
    assert "Schema validation errors" in done.stdout + done.stderr


def zizmor() -> str:
    found = shutil.which("zizmor", path=os.pathsep.join(
        [str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    assert found, "zizmor is not installed: pip install '.[test]'"
    return found


@pytest.mark.parametrize("folder", [WORKFLOWS, RESOLVE.parent], ids=["project", "game-repo"])
def test_zizmor_finds_nothing_offline(folder):
    done = run_zizmor(folder)
    assert done.returncode == 0, done.stdout + done.stderr


def run_zizmor(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [zizmor(), "--offline", "--pedantic", "--no-progress", str(folder)],
        capture_output=True, text=True, env=offline_env(), cwd=folder)


# --- plain checks of both workflows -------------------------------------------------------

@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_top_level_permissions_grant_nothing_beyond_read(path):
    permissions = load(path)["permissions"]
    if isinstance(permissions, str):
        assert permissions == "read-all"
    else:
        assert all(level in ("read", "none") for level in permissions.values()), permissions


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_every_job_has_a_timeout(path):
    for name, job in load(path)["jobs"].items():
        assert isinstance(job.get("timeout-minutes"), int), f"{path.name}: job {name}"


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_commit_with_its_version_noted(path):
    uses = [s["uses"] for s in steps(load(path)) if "uses" in s]
    assert uses
    for ref in uses:
        assert SHA_PIN.match(ref), f"{path.name}: {ref} is not pinned to a full commit SHA"
    for line in path.read_text(encoding="utf-8").splitlines():
        if re.match(r"\s*(-\s+)?uses:", line):
            assert re.search(r"#\s*v\d", line), f"{path.name}: say which version: {line.strip()}"


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_no_untrusted_expression_reaches_a_shell_script(path):
    for step in steps(load(path)):
        script = step.get("run", "")
        assert not UNTRUSTED.search(script), f"{path.name}: pass it through env: {script!r}"


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_checkout_keeps_no_token(path):
    checkouts = steps_using(load(path), "actions/checkout")
    assert checkouts
    for checkout in checkouts:
        assert checkout["with"]["persist-credentials"] is False


# --- the nightly resolution ---------------------------------------------------------------

def test_resolve_runs_nightly_off_the_hour_and_by_hand():
    on = triggers(load(RESOLVE))
    for entry in on["schedule"]:
        minute = entry["cron"].split()[0]
        assert minute.isdigit() and int(minute) != 0, entry["cron"]
    dry_run = on["workflow_dispatch"]["inputs"]["dry_run"]
    assert dry_run["type"] == "boolean" and dry_run["default"] is False


def test_each_game_is_its_own_job_never_cancelled_mid_turn():
    workflow = load(RESOLVE)
    assert "concurrency" not in workflow  # a slow or stuck game never holds up the others
    job = workflow["jobs"]["resolve"]
    assert job["needs"] == "games"
    assert job["strategy"]["fail-fast"] is False
    assert job["strategy"]["matrix"].replace(" ", "") == \
        "${{fromJSON(needs.games.outputs.matrix)}}"
    assert job["concurrency"] == {"group": "sheetmaster-resolve-${{ matrix.game }}",
                                  "cancel-in-progress": False}
    assert job["environment"] == "${{ matrix.environment }}"
    assert job["timeout-minutes"] == 20
    # GitHub refuses an empty matrix: with no Google Sheet game the job is skipped
    assert job["if"].replace(" ", "") == "needs.games.outputs.count!='0'"


def test_resolve_asks_only_for_what_it_needs():
    workflow = load(RESOLVE)
    assert workflow["permissions"] == {}
    assert workflow["jobs"]["games"]["permissions"] == {"contents": "read"}
    assert workflow["jobs"]["resolve"]["permissions"] == {"contents": "read",
                                                          "id-token": "write"}


def test_keyless_auth_runs_only_when_configured():
    auth = step_using(load(RESOLVE), "google-github-actions/auth")
    assert auth["if"].replace(" ", "") == "vars.GCP_WORKLOAD_IDENTITY_PROVIDER!=''"
    assert "vars.GCP_WORKLOAD_IDENTITY_PROVIDER" in auth["with"]["workload_identity_provider"]
    assert "vars.GCP_SERVICE_ACCOUNT" in auth["with"]["service_account"]


def script_step(job: str, word: str) -> dict:
    found = [s for s in load(RESOLVE)["jobs"][job]["steps"] if word in s.get("run", "")]
    assert len(found) == 1
    return found[0]


def resolve_step() -> dict:
    return script_step("resolve", "nightly --all")


def test_resolve_step_reads_the_names_sheetmaster_reads():
    env = resolve_step()["env"]
    assert env["GAME"].replace(" ", "") == "${{matrix.game}}"
    assert "inputs.game" in env["ONLY"]
    assert f"secrets.{JSON_ENV}" in env[JSON_ENV]
    assert "inputs.dry_run" in env["DRY_RUN"]


def uploads() -> dict[str, dict]:
    return {s["with"]["name"].split("-$")[0]: s
            for s in steps_using(load(RESOLVE), "actions/upload-artifact")}


def test_turn_report_and_map_are_kept_per_game_even_when_the_run_fails():
    upload = uploads()["turn-report"]
    assert upload["if"] == "always()"
    assert upload["with"]["path"].split() == ["turn-report.md", "turn-map.png",
                                               "turn-discord.json"]
    assert "matrix.game" in upload["with"]["name"]
    assert upload["with"]["if-no-files-found"] == "ignore"


def test_private_reports_are_kept_only_where_the_gm_says_the_repository_is_private():
    upload = uploads()["private-reports"]
    assert upload["if"].replace(" ", "") == \
        "always()&&vars.SHEETMASTER_KEEP_PRIVATE_REPORTS=='true'"
    assert upload["with"]["path"] == "private-reports/"
    assert upload["with"]["retention-days"] <= 7
    assert "--report-dir private-reports" in " ".join(resolve_step()["run"].split())


def test_discord_webhooks_come_from_secrets_only():
    env = resolve_step()["env"]
    for name in (PUBLIC_ENV, PLAYERS_ENV):
        assert env[name].replace(" ", "") == f"${{{{secrets.{name}}}}}"


FAKE_SHEETMASTER = """\
#!{python}
import json, sys
sys.path.insert(0, {root!r})
from sheetmaster.app.cli import build_parser
args = build_parser().parse_args(sys.argv[1:])
print(json.dumps({{"command": args.command, "all": args.all, "game": args.game,
                  "dry_run": args.dry_run, "report": args.report, "argv": sys.argv[1:]}}))
"""


def run_step_script(tmp_path: Path, step: dict, env: dict[str, str], *,
                    real_sheetmaster: bool = False) -> subprocess.CompletedProcess:
    """A step's shell script as the runner runs it; by default with a sheetmaster that only
    parses its arguments."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    if real_sheetmaster:
        (bin_dir / "sheetmaster").symlink_to(Path(sys.executable).parent / "sheetmaster")
    else:
        fake = bin_dir / "sheetmaster"
        fake.write_text(FAKE_SHEETMASTER.format(python=sys.executable, root=str(ROOT)),
                        encoding="utf-8")
        fake.chmod(0o755)
    script = tmp_path / "step.sh"
    script.write_text(step["run"], encoding="utf-8")
    full = {"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", **env}
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                          capture_output=True, text=True, env=full, cwd=tmp_path)


def run_resolve_script(tmp_path: Path, game: str, dry_run: str, only: str = ""):
    return run_step_script(tmp_path, resolve_step(), {"GAME": game, "ONLY": only,
                                                      "DRY_RUN": dry_run, JSON_ENV: "",
                                                      PUBLIC_ENV: "", PLAYERS_ENV: ""})


posix_shell = pytest.mark.skipif(sys.platform == "win32",
                                 reason="runs the step's bash script with a POSIX PATH")


@posix_shell
@pytest.mark.parametrize(("dry_run", "expected"), [("true", True), ("false", False),
                                                   ("", False)],
                         ids=["manual-dry-run", "manual", "scheduled"])
def test_resolve_script_hands_the_cli_arguments_it_accepts(tmp_path, dry_run, expected):
    game = "avalon$(touch pwned); echo 'x'"  # a hostile name stays one argument
    done = run_resolve_script(tmp_path, game, dry_run)
    assert done.returncode == 0, done.stdout + done.stderr
    parsed = json.loads(done.stdout.strip().splitlines()[-1])
    assert parsed["command"] == "nightly"
    assert parsed["all"] == "games.toml" and parsed["game"] == [game]
    assert parsed["dry_run"] is expected
    assert parsed["report"] == "turn-report.md"
    assert not (tmp_path / "pwned").exists()


@posix_shell
def test_a_manual_run_for_one_game_skips_the_others(tmp_path):
    done = run_resolve_script(tmp_path, "avalon", "", only="brittany")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "skipped" in done.stdout and "nightly" not in done.stdout
    done = run_resolve_script(tmp_path, "avalon", "", only="avalon")
    assert json.loads(done.stdout.strip().splitlines()[-1])["game"] == ["avalon"]


def list_games(tmp_path: Path) -> tuple[subprocess.CompletedProcess, dict[str, str]]:
    """The games job's listing step, with the real sheetmaster; returns its outputs."""
    output = tmp_path / "github_output"
    output.write_text("", encoding="utf-8")
    (tmp_path / WORKFLOW).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(RESOLVE, tmp_path / WORKFLOW)
    done = run_step_script(tmp_path, script_step("games", "games.toml"),
                           {"GITHUB_OUTPUT": str(output)}, real_sheetmaster=True)
    lines = output.read_text(encoding="utf-8").splitlines()
    return done, dict(line.split("=", 1) for line in lines if "=" in line)


@posix_shell
def test_the_games_job_lists_each_sheet_game_once(tmp_path):
    (tmp_path / "games.toml").write_text(example_games_toml(), encoding="utf-8")
    done, outputs = list_games(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    matrix = json.loads(outputs["matrix"])
    names = [entry["game"] for entry in matrix["include"]]
    assert names and len(names) == len(set(names)) == int(outputs["count"])
    assert all(set(entry) == {"game", "environment"} for entry in matrix["include"])
    # the workflow reads no matrix key that the listing does not give
    used = set(re.findall(r"matrix\.(\w+)", RESOLVE.read_text(encoding="utf-8")))
    assert used <= {"game", "environment"}


@posix_shell
def test_the_games_job_stops_without_games_toml(tmp_path):
    done, outputs = list_games(tmp_path)
    assert done.returncode != 0
    assert "games.toml" in done.stdout + done.stderr and not outputs


@posix_shell
def test_a_broken_games_toml_fails_the_listing(tmp_path):
    (tmp_path / "games.toml").write_text('[[game]]\nname = "a b"\n', encoding="utf-8")
    done, _ = list_games(tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "'name'" in done.stderr


# --- CI -------------------------------------------------------------------------------------

ON_CHANGES = "github.event_name == 'push' || github.event_name == 'pull_request'"
ON_SCHEDULE = "github.event_name == 'schedule' || github.event_name == 'workflow_dispatch'"


def test_ci_runs_the_projects_ci_script():
    workflow = load(CI)
    on = triggers(workflow)
    assert "push" in on and "pull_request" in on
    assert workflow["permissions"] == {"contents": "read"}
    assert workflow["concurrency"]["cancel-in-progress"] is True
    assert "github.ref" in workflow["concurrency"]["group"]
    assert "github.event_name" in workflow["concurrency"]["group"]  # a night's run cancels none
    job = workflow["jobs"]["test"]
    assert job["if"] == ON_CHANGES
    assert job["runs-on"] == "${{ matrix.os }}"
    assert job["strategy"]["matrix"]["os"] == ["ubuntu-latest", "windows-latest",
                                               "macos-latest"]
    assert job["strategy"]["fail-fast"] is False  # one system failing hides no other
    assert job["timeout-minutes"] == 30
    for name in workflow["jobs"]:
        python = [s for s in workflow["jobs"][name]["steps"]
                  if s.get("uses", "").startswith("actions/setup-python@")]
        assert python[0]["with"]["python-version"] == "3.11", name
    runs = [s for s in job["steps"] if "run" in s]
    assert [(r["run"].strip(), r["shell"]) for r in runs] == [("bash .ci/run", "bash")]


def test_ci_script_runs_the_readmes_commands_and_no_long_run():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line.split(None, 1)[1] for line in script.splitlines()
                if line.startswith('"$python" ')]
    assert commands == ["tasks.py example", "tasks.py test", "tasks.py lint"]
    assert "libreoffice-calc" not in script  # LibreOffice is the scheduled job's


def test_the_package_job_installs_the_built_wheel_in_a_clean_venv_and_runs_the_example():
    job = load(CI)["jobs"]["package"]
    assert job["if"] == ON_CHANGES
    script = "\n".join(s["run"] for s in job["steps"] if "run" in s)
    assert "python -m build" in script
    assert 'python -m venv "$RUNNER_TEMP/clean"' in script
    assert "pip install --quiet dist/sheetmaster-*.whl" in script
    assert "sheetmaster\" new claims game.xlsx --example" in script
    assert "sheetmaster\" resolve game.xlsx --out resolved.xlsx" in script


def test_the_long_runs_are_a_scheduled_job_with_libreoffice():
    workflow = load(CI)
    on = triggers(workflow)
    (cron,) = on["schedule"]
    minute, hour = cron["cron"].split()[:2]
    assert minute not in ("0", "*") and hour.isdigit()  # off the hour, once a night
    assert "workflow_dispatch" in on
    job = workflow["jobs"]["long"]
    assert job["if"] == ON_SCHEDULE
    runs = [s["run"] for s in job["steps"] if "run" in s]
    assert "libreoffice-calc-nogui" in runs[0]
    assert runs[-1].strip() == "python tasks.py long"


# --- the example key ------------------------------------------------------------------------

def test_example_credentials_have_a_key_shape_and_no_key():
    example = json.loads((ROOT / "credentials.example.json").read_text(encoding="utf-8"))
    assert example["type"] == "service_account"
    for field in ("project_id", "private_key_id", "private_key", "client_email", "client_id",
                  "token_uri"):
        assert example[field], field
    # no PEM marker at all, so no secret scanner can take the example for a key
    assert example["private_key"].startswith("REPLACE_ME")
    assert "BEGIN" not in example["private_key"]
    assert set(example["private_key_id"]) == {"0"}
    assert "your-project-id" in example["client_email"]
