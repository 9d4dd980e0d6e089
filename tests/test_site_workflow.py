"""The nightly workflow's optional publish of each game's site to GitHub Pages: off unless
the GM sets SHEETMASTER_PAGES, built in the game's own job, committed to the gh-pages branch
by a job that holds no secret; its scripts run here as the runner runs them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
import yaml

from sheetmaster.app.cli import main
from tests.site_games import played
from tests.test_workflows import RESOLVE, load, run_step_script

posix_shell = pytest.mark.skipif(sys.platform == "win32" or shutil.which("git") is None,
                                 reason="runs the step's bash script and git")
GATE = "vars.SHEETMASTER_PAGES=='true'"


def resolve_steps() -> list[dict]:
    return load(RESOLVE)["jobs"]["resolve"]["steps"]


def site_steps() -> list[dict]:
    return [s for s in resolve_steps() if GATE in s.get("if", "").replace(" ", "")]


def test_the_sites_are_built_only_when_the_gm_asks():
    steps = site_steps()
    assert [s.get("uses", "run").split("@")[0] for s in steps] == [
        "actions/checkout", "run", "actions/upload-artifact"]
    checkout = steps[0]
    assert checkout["with"]["ref"] == "gh-pages" and checkout["continue-on-error"] is True
    build = steps[1]
    assert "sheetmaster site --games games.toml --game \"$GAME\"" in build["run"]
    assert "DICE" not in yaml.safe_dump(build)  # a site needs no dice secret
    upload = steps[2]
    assert "matrix.game" in upload["with"]["name"] and upload["with"]["retention-days"] == 1


def test_the_publishing_job_writes_the_pages_branch_and_holds_no_secret():
    job = load(RESOLVE)["jobs"]["pages"]
    assert job["permissions"] == {"contents": "write"}
    assert GATE in job["if"].replace(" ", "")
    assert "secrets." not in yaml.safe_dump(job)
    assert all("sheetmaster " not in s.get("run", "") for s in job["steps"])
    assert job["concurrency"]["cancel-in-progress"] is False


@posix_shell
def test_the_build_step_builds_the_games_site_from_games_toml(tmp_path):
    game = played(tmp_path / "games", "claims", turns=1)
    (tmp_path / "games.toml").write_text(
        '[[game]]\nname = "avalon"\nfile = "games/game.xlsx"\nruleset = "claims"\n',
        encoding="utf-8")
    assert game.exists()
    done = run_step_script(tmp_path, site_steps()[1], {"GAME": "avalon"},
                           real_sheetmaster=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "published" / "avalon" / "index.html").is_file()
    assert (tmp_path / "published" / "avalon" / "turn-2.html").is_file()


@posix_shell
def test_the_commit_step_publishes_each_games_site_once(tmp_path):
    game = played(tmp_path / "games", "claims", turns=1)
    assert main(["site", str(game), "--out", str(tmp_path / "built" / "site-avalon"),
                 "-q"]) == 0
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    step = load(RESOLVE)["jobs"]["pages"]["steps"][-1]
    address = "https://x-access-token:a-token@github.com/gm/games.git"
    env = {"GITHUB_TOKEN": "a-token", "REPOSITORY": "gm/games", "HOME": str(tmp_path),
           # the push goes to a local repository instead of GitHub
           "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": f"url.{remote.as_uri()}.insteadOf",
           "GIT_CONFIG_VALUE_0": address}
    done = run_step_script(tmp_path, step, env)
    assert done.returncode == 0, done.stdout + done.stderr
    files = subprocess.run(["git", "-C", str(remote), "ls-tree", "-r", "--name-only",
                            "gh-pages"], capture_output=True, text=True, check=True).stdout
    assert "avalon/index.html" in files.split() and ".nojekyll" in files.split()
    # the next night: the published branch checked out, the same site built again
    shutil.rmtree(tmp_path / "published")
    subprocess.run(["git", "clone", "-q", "-b", "gh-pages", str(remote),
                    str(tmp_path / "published")], check=True, env={**os.environ, **env})
    assert main(["site", str(game), "--out", str(tmp_path / "built" / "site-avalon"),
                 "-q"]) == 0
    again = run_step_script(tmp_path, step, env)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "the sites did not change" in again.stdout
    log = subprocess.run(["git", "-C", str(remote), "log", "--oneline", "gh-pages"],
                         capture_output=True, text=True, check=True).stdout
    assert len(log.splitlines()) == 1
