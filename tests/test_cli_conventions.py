"""The command's conventions: distinct exit codes, --json documents, -v/-q on every command,
colour only on a terminal (NO_COLOR respected), --version, python -m, shell completion, and a
README that names every command and documents every JSON key."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from sheetmaster import __version__
from sheetmaster.app.cli import build_parser, main
from sheetmaster.app.exits import MEANINGS, Exit

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def sheetmaster(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None):
    """The installed command in a child process (so stdout is a pipe, not a terminal)."""
    full = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    full.update(env or {})
    return subprocess.run([sys.executable, "-m", "sheetmaster", *args], capture_output=True,
                          text=True, env=full, cwd=cwd)


@pytest.fixture
def game(tmp_path) -> Path:
    path = tmp_path / "g.xlsx"
    assert main(["new", "claims", str(path), "--example", "-q"]) == 0
    return path


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every command and sub-command, by its full name ('fake-sheets serve')."""
    found = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found[name] = sub
                found.update({f"{name} {k}": v for k, v in subcommands(sub).items()})
    return found


# --- exit codes -----------------------------------------------------------------------------

def test_exit_codes_are_distinct_and_documented():
    assert [int(c) for c in MEANINGS] == [0, 1, 2, 3, 4, 5, 70]
    out = build_parser().format_help()
    section = README[README.index("### Exit codes"):]
    for code, meaning in MEANINGS.items():
        assert f"{int(code):>2}  {meaning}" in out
        assert re.search(rf"^\| {int(code)} \|", section, re.M), f"README lacks exit {code}"


def test_exit_0_ok_and_1_when_check_finds_rejected_orders(game, tmp_path):
    blank = tmp_path / "blank.xlsx"
    assert main(["new", "claims", str(blank), "-q"]) == 0
    assert main(["check", str(blank), "-q"]) == Exit.OK  # no orders, none rejected
    assert main(["check", str(game), "-q"]) == Exit.REJECTED  # the example has bad rows
    assert main(["resolve", str(game), "-q"]) == Exit.OK  # rejected rows never fail resolve


def test_exit_2_usage_errors(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["resolve", "--no-such-option"])
    assert exit_.value.code == Exit.USAGE
    assert main(["resolve", "-q"]) == Exit.USAGE  # no game named
    assert main(["new", "chess", str(tmp_path / "x.xlsx")]) == Exit.USAGE
    assert "no ruleset named 'chess'" in capsys.readouterr().err


def test_exit_3_broken_sheet_writes_nothing(game, capsys):
    book = openpyxl.load_workbook(game)
    book["Players"]["B3"] = "ten"
    book.save(game)
    before = game.read_bytes()
    assert main(["resolve", str(game), "-q"]) == Exit.SHEET_BROKEN
    assert "tab 'Players', row 3, column 'gold'" in capsys.readouterr().err
    assert game.read_bytes() == before


def test_exit_4_not_due(game, capsys):
    book = openpyxl.load_workbook(game)
    for row in book["Game"].iter_rows(min_row=2):
        if row[0].value == "deadline":
            row[1].value = "2999-01-01 23:59"
    book.save(game)
    assert main(["resolve", str(game), "-q"]) == Exit.NOT_DUE
    assert "deadline" in capsys.readouterr().err


def test_exit_5_store_failures(tmp_path, capsys):
    assert main(["check", str(tmp_path / "missing.xlsx")]) == Exit.STORE
    not_a_workbook = tmp_path / "notes.xlsx"
    not_a_workbook.write_text("hello", encoding="utf-8")
    assert main(["resolve", str(not_a_workbook), "-q"]) == Exit.STORE
    err = capsys.readouterr().err
    assert "missing.xlsx does not exist" in err and "Traceback" not in err


def test_a_bug_is_exit_70_with_its_traceback(monkeypatch, capsys):
    def broken(args):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr("sheetmaster.app.commands.tools.cmd_rules", broken)
    assert main(["rules"]) == Exit.INTERNAL
    err = capsys.readouterr().err
    assert "please report" in err and "ZeroDivisionError: boom" in err and "Traceback" in err


# --- --json ---------------------------------------------------------------------------------

def documented_keys(*sections: str) -> set[str]:
    """Every `key` a README section of "Output for scripts" names."""
    found = set()
    for section in sections:
        start = README.index(section)
        end = README.index("\n#", start + 1)
        found |= set(re.findall(r"`([a-z_ ]+)`", README[start:end]))
    return found


def test_check_json(game, capsys):
    assert main(["check", str(game), "--json", "-q"]) == Exit.REJECTED
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == 1 and doc["command"] == "check" and doc["ruleset"] == "claims"
    assert doc["turn"] == 2 and doc["written"] is True and doc["dry_run"] is False
    assert doc["counts"]["orders"] == len(doc["orders"]) == 18
    assert doc["counts"]["rejected"] == 4
    bad = [o for o in doc["orders"] if o["status"] == "rejected"]
    assert {"row": 18, "player": "Bretagne", "order": "build armies"}.items() <= bad[-1].items()
    assert "'two' is not a whole number" in bad[-1]["reason"]
    keys = documented_keys("#### `check --json`")
    assert set(doc) | set(doc["orders"][0]) | set(doc["counts"]) <= keys


def test_resolve_dry_run_json_writes_nothing(game, capsys):
    before = game.read_bytes()
    assert main(["resolve", str(game), "--dry-run", "--json", "-q"]) == Exit.OK
    doc = json.loads(capsys.readouterr().out)
    assert game.read_bytes() == before
    assert doc["command"] == "resolve" and doc["dry_run"] is True and doc["written"] is False
    assert doc["report"] is None and isinstance(doc["seed"], int)
    owner = [c for c in doc["changes"] if c["tab"] == "Territories" and c["key"] == "Ys"
             and c["column"] == "owner"]
    assert owner and owner[0]["after"] == "Avalon"
    dice = [e for e in doc["events"] if e["sides"]]
    assert dice and all(1 <= e["value"] <= e["sides"] for e in dice)
    keys = documented_keys("#### `check --json`", "#### `resolve --json`")
    assert set(doc) | set(doc["changes"][0]) | set(doc["events"][0]) <= keys


def test_resolve_json_says_where_the_report_went(game, capsys):
    assert main(["resolve", str(game), "--json", "-q"]) == Exit.OK
    doc = json.loads(capsys.readouterr().out)
    assert doc["written"] is True and Path(doc["report"]).exists()


def test_rules_json(capsys):
    assert main(["rules", "--json"]) == Exit.OK
    doc = json.loads(capsys.readouterr().out)
    claims = next(r for r in doc["rulesets"] if r["name"] == "claims")
    assert claims["phases"][0] == {"key": "A", "title": "Grab war territory"}
    assert "claim neutral territory" in claims["order_kinds"]
    assert set(doc) | set(claims) <= documented_keys("#### `rules --json`")


def test_json_errors_are_json_too(game, capsys):
    book = openpyxl.load_workbook(game)
    book["Players"]["B3"] = "ten"
    book.save(game)
    assert main(["resolve", str(game), "--dry-run", "--json", "-q"]) == Exit.SHEET_BROKEN
    doc = json.loads(capsys.readouterr().out)
    assert doc["error"]["exit"] == 3 and doc["error"]["kind"] == "sheet-broken"
    assert {"tab": "Players", "row": 3, "column": "gold"}.items() <= \
        doc["error"]["problems"][0].items()
    keys = documented_keys("#### Errors")
    assert set(doc["error"]) | set(doc["error"]["problems"][0]) <= keys


def test_json_is_valid_through_a_pipe():
    done = sheetmaster("rules", "--json")
    assert done.returncode == 0, done.stderr
    json.loads(done.stdout)


# --- -v / -q, logging, colour ---------------------------------------------------------------

def test_every_command_takes_v_and_q_and_has_help_text():
    for name, parser in subcommands(build_parser()).items():
        options = {o for a in parser._actions for o in a.option_strings}
        assert {"-v", "-q", "--verbose", "--quiet"} <= options, name
        assert parser.description, f"{name} has no description"


def test_v_shows_each_step_and_q_hides_notes(game, capsys):
    assert main(["resolve", str(game), "--dry-run", "-v"]) == 0
    assert "reading the game:" in capsys.readouterr().err
    assert main(["resolve", str(game), "--dry-run"]) == 0
    assert "reading the game:" not in capsys.readouterr().err
    assert main(["resolve", str(game), "-qq"]) == 0
    assert capsys.readouterr().err == ""


def colours(text: str) -> list[str]:
    """The colour codes (SGR 30-38, 90-97) among a text's escape sequences."""
    params = [p for seq in re.findall(r"\x1b\[([0-9;]*)m", text) for p in seq.split(";")]
    return [p for p in params if p.isdigit() and (30 <= int(p) <= 38 or 90 <= int(p) <= 97)]


def test_no_colour_in_a_pipe_nor_with_no_color(tmp_path):
    missing = str(tmp_path / "missing.xlsx")
    plain = sheetmaster("check", missing)
    assert plain.returncode == Exit.STORE and "\x1b[" not in plain.stderr + plain.stdout
    forced = sheetmaster("check", missing, env={"FORCE_COLOR": "1"})
    assert colours(forced.stderr)  # there is colour to turn off
    both = sheetmaster("check", missing, env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert both.returncode == Exit.STORE and not colours(both.stderr)


# --- the package as a command ---------------------------------------------------------------

def test_version_and_python_m():
    done = sheetmaster("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"sheetmaster {__version__}"


def test_completion_scripts():
    done = sheetmaster("completion", "bash")
    assert done.returncode == 0 and "complete " in done.stdout and "sheetmaster" in done.stdout
    assert sheetmaster("completion", "fish").returncode == 0


def test_completion_completes_commands_and_options(monkeypatch):
    """The shell's request as argcomplete's bash script sends it."""
    offered = completions(monkeypatch, "sheetmaster res")
    assert "resolve" in offered and "rules" not in offered


def test_readme_names_every_command():
    section = README[README.index("### Commands"):]
    section = section[:section.index("\n## ")]
    for name in subcommands(build_parser()):
        assert f"sheetmaster {name}" in section, f"the README's command list lacks {name}"


# --- the command line a Python user expects -------------------------------------------------

def test_v_and_q_also_go_before_the_command(tmp_path, game, capsys):
    done = sheetmaster("-q", "new", "claims", str(tmp_path / "quiet.xlsx"), "--example")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "quiet.xlsx").exists()
    assert main(["-v", "resolve", str(game), "--dry-run"]) == 0
    assert "reading the game:" in capsys.readouterr().err
    assert main(["-q", "-q", "resolve", str(game), "--dry-run"]) == 0  # -qq: errors only
    assert capsys.readouterr().err == ""
    assert main(["-q", "resolve", str(game), "--dry-run", "-q"]) == 0  # counted together
    assert capsys.readouterr().err == ""


def test_a_wrong_option_shows_the_commands_own_usage(game):
    done = sheetmaster("resolve", str(game), "--bogus")
    assert done.returncode == Exit.USAGE
    assert done.stderr.startswith("usage: sheetmaster resolve ")
    assert "sheetmaster resolve: error: unrecognized arguments: --bogus" in done.stderr
    nested = sheetmaster("fake-sheets", "serve", "--nope")
    assert nested.returncode == Exit.USAGE
    assert nested.stderr.startswith("usage: sheetmaster fake-sheets serve ")


def test_a_mistyped_command_or_choice_gets_did_you_mean():
    done = sheetmaster("resolv", "game.xlsx")
    assert done.returncode == Exit.USAGE
    assert "invalid choice: 'resolv'; did you mean 'resolve'?" in done.stderr
    shell = sheetmaster("completion", "bsh")
    assert shell.returncode == Exit.USAGE and "did you mean 'bash'?" in shell.stderr
    nothing_close = sheetmaster("xyzzy")
    assert nothing_close.returncode == Exit.USAGE and "did you mean" not in nothing_close.stderr


def test_a_closed_pipe_ends_quietly(game):
    """`resolve --dry-run | head -2`: the reader went away. A pipe whose reading end is
    closed before the command starts makes its very first line fail, every time."""
    read, write = os.pipe()
    os.close(read)
    full = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    try:
        done = subprocess.run([sys.executable, "-m", "sheetmaster", "resolve", str(game),
                               "--dry-run", "-q"], stdout=write, stderr=subprocess.PIPE,
                              text=True, env=full)
    finally:
        os.close(write)
    assert done.returncode == Exit.PIPE_CLOSED == 141
    for noise in ("error", "Broken pipe", "Exception", "Traceback"):
        assert noise not in done.stderr, done.stderr


def test_a_closed_pipe_in_process_is_not_an_error(game, monkeypatch, capsys):
    class Closed:
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self) -> None:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", Closed())
    assert main(["rules"]) == Exit.PIPE_CLOSED
    assert "error" not in capsys.readouterr().err


def completions(monkeypatch, line: str) -> list[str]:
    """What the shell offers for ``line``, asked as argcomplete's bash script asks."""
    import io

    import argcomplete

    for name, value in {"_ARGCOMPLETE": "1", "_ARGCOMPLETE_SHELL": "bash", "COMP_LINE": line,
                        "COMP_POINT": str(len(line)), "_ARGCOMPLETE_IFS": "\n"}.items():
        monkeypatch.setenv(name, value)
    class Finder(argcomplete.CompletionFinder):
        def _init_debug_stream(self) -> None:
            """Not file descriptor 9, which may be pytest's own (closed when dropped)."""
            argcomplete.io.debug_stream = sys.stderr

    out = io.StringIO()
    Finder()(build_parser(), output_stream=out, exit_method=lambda code: None)
    return [word.strip() for word in out.getvalue().split("\n")]


def test_completion_offers_ruleset_names_where_a_ruleset_goes(monkeypatch):
    offered = completions(monkeypatch, "sheetmaster new ")
    assert {"claims", "clans", "goldenage", "decades", "eighteen_hundred"} <= set(offered)
    assert completions(monkeypatch, "sheetmaster new cl") == ["claims", "clans"]
    assert "goldenage" in completions(monkeypatch, "sheetmaster -q new ")
    assert "decades" in completions(monkeypatch, "sheetmaster init --sheet X --rules ")


@pytest.mark.parametrize("name", ["x.csv", "x.xlsm", "x", "x.ods"])
def test_new_writes_only_a_file_named_as_a_workbook(tmp_path, capsys, name):
    """What `new` writes is an .xlsx workbook: under another name, a spreadsheet program
    would open it as what the name says and find garbage, so it is refused, naming the
    right one."""
    assert main(["new", "claims", str(tmp_path / name)]) == Exit.USAGE
    assert "name it x.xlsx" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    assert main(["new", "claims", str(tmp_path / "x.XLSX"), "-q"]) == 0


def test_the_example_dice_warning_is_one_line_once_per_run(game, capsys):
    from sheetmaster.app.console import setup_logging
    from sheetmaster.kit import fairness

    done = sheetmaster("check", str(game), "-q")
    warned = [line for line in done.stderr.splitlines() if "public dice" in line]
    assert len(warned) == 1 and len(warned[0]) <= 160, done.stderr
    assert warned[0].startswith("warning: g.xlsx rolls the example games' public dice")
    setup_logging(0)  # a run: read twice, said once
    fairness.read_secret(game)
    fairness.read_secret(game)
    assert capsys.readouterr().err.count("public dice") == 1
    setup_logging(0)  # the next run says it again
    fairness.read_secret(game)
    assert capsys.readouterr().err.count("public dice") == 1
    # the whole story: in --help and the README
    help_text = " ".join(build_parser().format_help().split())
    assert "roll their dice from the public secret 'example-seed'" in help_text
    assert "every run on one says so, once a run, in one line" in " ".join(README.split())
