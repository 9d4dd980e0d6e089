"""The GitHub Actions workflows: valid, least-privilege, pinned, and safe from injection.

Two linters from PyPI (the ``test`` extra) check them offline: check-jsonschema against its
vendored GitHub workflow schema, and zizmor's security audits. Plain-Python checks then pin
down what this project relies on: the nightly job is never cancelled mid-resolution, runs
off the hour, passes no ``${{ }}`` expression into a shell script, and hands the CLI
arguments it accepts.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from sheetmaster.stores.google_auth import JSON_ENV

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
RESOLVE = WORKFLOWS / "resolve.yml"
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


def step_using(workflow: dict, action: str) -> dict:
    found = [s for s in steps(workflow) if s.get("uses", "").startswith(action + "@")]
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
        capture_output=True, text=True, timeout=120, env=offline_env())


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


def test_zizmor_finds_nothing_offline():
    done = subprocess.run(
        [zizmor(), "--offline", "--pedantic", "--no-progress", str(WORKFLOWS)],
        capture_output=True, text=True, timeout=120, env=offline_env(), cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


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
    checkout = step_using(load(path), "actions/checkout")
    assert checkout["with"]["persist-credentials"] is False


# --- the nightly resolution ---------------------------------------------------------------

def test_resolve_runs_nightly_off_the_hour_and_by_hand():
    on = triggers(load(RESOLVE))
    for entry in on["schedule"]:
        minute = entry["cron"].split()[0]
        assert minute.isdigit() and int(minute) != 0, entry["cron"]
    dry_run = on["workflow_dispatch"]["inputs"]["dry_run"]
    assert dry_run["type"] == "boolean" and dry_run["default"] is False


def test_resolve_is_never_cancelled_mid_turn():
    workflow = load(RESOLVE)
    assert workflow["concurrency"] == {"group": "sheetmaster-resolve",
                                       "cancel-in-progress": False}
    assert workflow["jobs"]["resolve"]["timeout-minutes"] == 20


def test_resolve_asks_only_for_what_it_needs():
    workflow = load(RESOLVE)
    assert workflow["permissions"] == {}
    assert workflow["jobs"]["resolve"]["permissions"] == {"contents": "read",
                                                          "id-token": "write"}


def test_keyless_auth_runs_only_when_configured():
    auth = step_using(load(RESOLVE), "google-github-actions/auth")
    assert auth["if"].replace(" ", "") == "vars.GCP_WORKLOAD_IDENTITY_PROVIDER!=''"
    assert "vars.GCP_WORKLOAD_IDENTITY_PROVIDER" in auth["with"]["workload_identity_provider"]
    assert "vars.GCP_SERVICE_ACCOUNT" in auth["with"]["service_account"]


def resolve_step() -> dict:
    found = [s for s in steps(load(RESOLVE)) if "sheetmaster" in s.get("run", "")]
    assert len(found) == 1
    return found[0]


def test_resolve_step_reads_the_names_sheetmaster_reads():
    env = resolve_step()["env"]
    assert "vars.SHEETMASTER_SHEET_ID" in env["SHEET_ID"]
    assert f"secrets.{JSON_ENV}" in env[JSON_ENV]
    assert "inputs.dry_run" in env["DRY_RUN"]


def test_turn_report_is_kept_even_when_the_run_fails():
    upload = step_using(load(RESOLVE), "actions/upload-artifact")
    assert upload["if"] == "always()"
    assert upload["with"]["path"] == "turn-report.md"
    assert upload["with"]["if-no-files-found"] == "ignore"


FAKE_SHEETMASTER = """\
#!{python}
import json, sys
sys.path.insert(0, {root!r})
from sheetmaster.cli import build_parser
args = build_parser().parse_args(sys.argv[1:])
print(json.dumps({{"command": args.command, "sheet": args.sheet, "dry_run": args.dry_run,
                  "report": args.report, "argv": sys.argv[1:]}}))
"""


def run_resolve_script(tmp_path: Path, sheet_id: str, dry_run: str):
    """The resolve step's shell script as the runner runs it, with a sheetmaster that only
    parses its arguments."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "sheetmaster"
    fake.write_text(FAKE_SHEETMASTER.format(python=sys.executable, root=str(ROOT)),
                    encoding="utf-8")
    fake.chmod(0o755)
    script = tmp_path / "step.sh"
    script.write_text(resolve_step()["run"], encoding="utf-8")
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "SHEET_ID": sheet_id, "DRY_RUN": dry_run, JSON_ENV: ""}
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                          capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)


@pytest.mark.parametrize(("dry_run", "expected"), [("true", True), ("false", False),
                                                   ("", False)],
                         ids=["manual-dry-run", "manual", "scheduled"])
def test_resolve_script_hands_the_cli_arguments_it_accepts(tmp_path, dry_run, expected):
    sheet = "1AbC-dEf_$(touch pwned); echo 'x'"  # a hostile id stays one argument
    done = run_resolve_script(tmp_path, sheet, dry_run)
    assert done.returncode == 0, done.stdout + done.stderr
    parsed = json.loads(done.stdout.strip().splitlines()[-1])
    assert parsed["command"] == "nightly"
    assert parsed["sheet"] == sheet
    assert parsed["dry_run"] is expected
    assert parsed["report"] == "turn-report.md"
    assert not (tmp_path / "pwned").exists()


def test_resolve_script_stops_when_no_sheet_is_configured(tmp_path):
    done = run_resolve_script(tmp_path, "", "")
    assert done.returncode != 0
    assert "SHEETMASTER_SHEET_ID" in done.stdout + done.stderr


# --- CI -------------------------------------------------------------------------------------

def test_ci_runs_the_projects_ci_script():
    workflow = load(CI)
    on = triggers(workflow)
    assert "push" in on and "pull_request" in on
    assert workflow["permissions"] == {"contents": "read"}
    assert workflow["concurrency"]["cancel-in-progress"] is True
    assert "github.ref" in workflow["concurrency"]["group"]
    (job,) = workflow["jobs"].values()
    assert job["runs-on"] == "ubuntu-latest"
    assert job["timeout-minutes"] == 30
    assert step_using(workflow, "actions/setup-python")["with"]["python-version"] == "3.11"
    runs = [s["run"].strip() for s in job["steps"] if "run" in s]
    assert runs == ["bash .ci/run"]


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
