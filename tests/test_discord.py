"""Posting to Discord, against a fake webhook server on 127.0.0.1 that checks every multipart
payload: messages within the limits, retries on 429 and 5xx, no pings, each private report
to its own player only, and no webhook address in any output."""

from __future__ import annotations

import json
import logging
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetmaster.app.cli import main
from sheetmaster.app.delivery.discord import Attachment, DeliveryError, DiscordClient
from sheetmaster.app.delivery.messages import ZWSP, inert, split_message
from sheetmaster.app.delivery.post import post_turn
from sheetmaster.app.delivery.webhooks import (
    PLAYERS_ENV,
    PUBLIC_ENV,
    ScrubbingFilter,
    Webhook,
    from_env,
    scrub,
)
from sheetmaster.app.exits import UsageError
from sheetmaster.engine.builder import build_state, example_game
from sheetmaster.engine.turn import resolve
from sheetmaster.rules import get
from sheetmaster.testing.fakediscord import FakeDiscord

TEMPLATES = Path(__file__).parent.parent / "templates"


@pytest.fixture
def discord():
    with FakeDiscord() as fake:
        yield fake


def client(**kw) -> DiscordClient:
    return DiscordClient(deadline=kw.pop("deadline", 10), first_wait=0.01, **kw)


# --- messages ------------------------------------------------------------------------------

TABLE = ["| row | order | result | reason |", "|---|---|---|---|"] + \
    [f"| {i} | claim neutral territory | rejected | T{i} is not next to your land |"
     for i in range(2, 140)]


def test_a_long_report_is_split_within_the_limit_between_table_rows():
    report = "\n".join(["# Turn 3 results", "", "Rules: claims.", "", "## Avalon", "", *TABLE,
                        "", "## Bretagne", "", "No orders this turn.", ""])
    parts = split_message(report)
    assert len(parts) > 2 and all(len(p) <= 2000 for p in parts)
    rows = [line for p in parts for line in p.splitlines() if line.startswith("| ") and
            not line.startswith("| row")]
    assert rows == TABLE[2:]  # every row once, none cut
    for part in parts:
        lines = part.splitlines()
        if any(line.startswith("| 1") for line in lines):  # a part with rows has the header
            assert TABLE[0] in lines and TABLE[1] in lines
    assert all(not p.splitlines()[-1].startswith("#") for p in parts)
    assert parts[-1].endswith("## Bretagne\n\nNo orders this turn.")


def test_a_heading_is_never_left_at_the_end_of_a_message():
    report = "\n".join(["# Turn 3", "", "x" * 1900, "", "## Avalon", "", "y" * 500])
    parts = split_message(report)
    assert [p.splitlines()[0] for p in parts] == ["# Turn 3", "## Avalon"]


def test_an_endless_line_is_cut_at_spaces():
    words = " ".join(["word"] * 1500)
    parts = split_message(words)
    assert all(len(p) <= 2000 for p in parts) and len(parts) == 4
    assert " ".join(parts).split() == words.split()


def test_mentions_are_made_inert():
    text = inert("hi @everyone and @Here, <@123> <@!45> <@&678> <#9>, mail a@b.c")
    for ping in ("@everyone", "@Here", "<@1", "<@!", "<@&", "<#9"):
        assert ping not in text
    assert f"@{ZWSP}everyone" in text and f"<{ZWSP}@&678>" in text and "a@b.c" in text


def test_a_players_newline_cannot_forge_a_line_of_the_report():
    from sheetmaster.app.report import md

    assert md("deal\n# Turn 3 results\n| 1 | forged |") == \
        "deal # Turn 3 results \\| 1 \\| forged \\|"


TRICKY = ["", "  plain text  ", "\u00a0nbsp\u00a0", "a\u2028b", "line\x85", " @everyone ",
          "https://x.y", "WWW.example.com", "wwwx", "&#64;here", "a & b", "R&D", "~~s~~",
          "<@&678>", "*_`|[]\\", "\tTab\t", "\x1b[31mred", "Ünïcödé plain", "x\u2029"]


@given(st.one_of(st.sampled_from(TRICKY), st.text(), st.text(alphabet="aw.:/@&# \n_*x")))
@settings(max_examples=500, deadline=None)
def test_md_leaves_plain_text_alone_and_escapes_the_rest_as_every_pass_would(text):
    """md() skips its passes when nothing in the text needs one: same result either way."""
    from sheetmaster.app.report import _escaped, md

    assert md(text) == _escaped(text)


# --- webhooks from secrets, and their addresses kept out of sight ----------------------------

URL = "https://discord.com/api/webhooks/123456789/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-x"


def hook(number: int) -> str:
    """Another webhook (another number) than URL's."""
    return URL.replace("123456789", str(number))


def test_webhooks_come_from_the_two_secrets():
    found = from_env({PUBLIC_ENV: URL, PLAYERS_ENV: "# players\nAvalon = " + hook(1) + "\n"
                      "GM=" + hook(2) + "\n"})
    assert found.public.url == URL and str(found.public) == "the public channel"
    assert found.of("avalon").url == hook(1) and str(found.of("gm")) == "the GM's channel"
    as_json = from_env({PLAYERS_ENV: json.dumps({"Bretagne": URL})})
    assert as_json.of("Bretagne").label == "Bretagne's channel"
    assert URL not in repr(found)
    assert not from_env({})


@pytest.mark.parametrize(("value", "said"), [
    ("Avalon " + URL, "line 1: write 'Player name = address'"),
    ("Avalon = http://discord.com/api/webhooks/1/abc", "starts with https://"),
    ("Avalon = https://discord.com/channels/1/2", "not a webhook address"),
    ('{"Avalon": 3}', "map each player's name to an address"),
])
def test_a_malformed_secret_is_a_usage_error_that_never_shows_an_address(value, said):
    with pytest.raises(UsageError) as caught:
        from_env({PLAYERS_ENV: value})
    assert said in str(caught.value)
    assert "webhooks/1" not in str(caught.value) and URL not in str(caught.value)


def test_scrub_blanks_addresses_and_tokens():
    token = URL.rsplit("/", 1)[1]
    text = f"POST {URL}?wait=true failed; path /api/webhooks/123456789/{token}; " \
           f"other https://ptb.discord.com/api/v10/webhooks/9/zzz"
    clean = scrub(text, [URL])
    assert token not in clean and "zzz" not in clean and "[webhook]" in clean


def test_log_records_are_scrubbed():
    record = logging.LogRecord("urllib3", logging.DEBUG, "", 0, '"POST %s HTTP/1.1" 204',
                               ("/api/webhooks/1/" + "t" * 30,), None)
    ScrubbingFilter([]).filter(record)
    assert "t" * 30 not in record.getMessage()


# --- posting ---------------------------------------------------------------------------------

def test_a_message_is_multipart_with_its_files_and_no_pings(discord):
    hook = Webhook(discord.webhook("public"), "the public channel")
    client().post(hook, "**Turn 2** @everyone", [Attachment("map.png", b"\x89PNG...",
                                                            "image/png")])
    (message,) = discord.messages
    assert message.content == "**Turn 2** @everyone"  # sent as given; Discord pings no one:
    assert message.payload["allowed_mentions"] == {"parse": []}
    assert message.files == {"map.png": b"\x89PNG..."} and message.kinds["map.png"] == \
        "image/png"


def test_429_is_retried_after_discords_retry_after(discord):
    hook = Webhook(discord.webhook("public"), "the public channel")
    discord.fail_next(429, retry_after=0.3)
    poster = client()
    start = time.monotonic()
    poster.post(hook, "hello")
    assert time.monotonic() - start >= 0.3
    assert poster.retries == 1 and len(discord.messages) == 1 and discord.requests == 2


def test_5xx_is_retried_with_back_off(discord):
    hook = Webhook(discord.webhook("public"), "the public channel")
    discord.fail_next(502, times=2)
    discord.fail_next(503)
    poster = client()
    poster.post(hook, "hello")
    assert poster.retries == 3 and [m.content for m in discord.messages] == ["hello"]


def test_an_empty_rate_limit_bucket_makes_the_next_post_wait(discord):
    hook = Webhook(discord.webhook("public"), "the public channel")
    discord.bucket, discord.reset_after = 1, 0.4
    poster = client()
    poster.post(hook, "one")
    start = time.monotonic()
    poster.post(hook, "two")
    assert time.monotonic() - start >= 0.35 and poster.retries == 0


def test_discord_that_keeps_failing_gives_up_naming_the_channel_only(discord):
    hook = Webhook(discord.webhook("public"), "the public channel")
    discord.fail_next(500, times=1000)
    with pytest.raises(DeliveryError) as caught:
        client(deadline=0.3).post(hook, "hello")
    assert "Discord kept failing" in str(caught.value) and "the public channel" in \
        str(caught.value)
    assert "tok" not in str(caught.value) and "webhooks" not in str(caught.value)


def test_an_unknown_webhook_is_not_retried(discord):
    hook = Webhook(discord.url + "/api/webhooks/99/" + "n" * 30, "Avalon's channel")
    with pytest.raises(DeliveryError, match="refused the message to Avalon's channel: 404 "
                                            "Unknown Webhook"):
        client().post(hook, "hello")
    assert discord.requests == 1


def clans_turn():
    ruleset = get("clans")
    tables, orders, settings = example_game(ruleset)
    return ruleset, resolve(ruleset, build_state(ruleset, tables, orders, turn=5,
                                                 settings=settings),
                            secret="a test's dice secret")


def test_each_player_gets_only_their_own_report(discord):
    ruleset, result = clans_turn()
    hooks = from_env({PUBLIC_ENV: discord.webhook("public"),
                      PLAYERS_ENV: f"Kuroda = {discord.webhook('kuroda')}\n"
                                   f"amana = {discord.webhook('amana')}\n"
                                   f"GM = {discord.webhook('gm')}\n"
                                   f"Nobody = {discord.webhook('nobody')}"})
    posted = post_turn(ruleset, result, hooks, game="Isles", map_png=b"\x89PNG map",
                       client=client())
    assert sorted(posted.unreached) == ["Mori", "Takeda"] and posted.unknown == ["Nobody"]
    public, kuroda, amana, gm = (discord.to(n) for n in ("public", "kuroda", "amana", "gm"))
    assert public[0].files == {"turn-5-map.png": b"\x89PNG map"}
    assert public[0].content == "**Isles: turn 5**"
    text = {n: "\n".join(m.content for m in msgs)
            for n, msgs in (("public", public), ("kuroda", kuroda), ("amana", amana),
                            ("gm", gm))}
    assert kuroda[0].content == "**Isles: turn 5**: your own report"
    assert "## Kuroda" in text["kuroda"] and "## Amana" not in text["kuroda"]
    assert "## Amana" in text["amana"] and "## Kuroda" not in text["amana"]
    assert gm[0].content == "**Isles: turn 5**: the GM's full report"
    assert all(f"## {p}" in text["gm"] for p in ("Kuroda", "Amana", "Mori", "Takeda"))
    assert not discord.to("nobody")
    # Kuroda's ninja order is secret: its reason is Kuroda's and the GM's alone
    secret = next(r for r in result.results if r.secret and r.player == "Kuroda")
    assert secret.reason and secret.reason in text["kuroda"] and secret.reason in text["gm"]
    assert secret.reason not in text["public"] and secret.reason not in text["amana"]
    assert all(len(m.content) <= 2000 for m in discord.messages)


def test_a_report_too_long_for_its_messages_keeps_every_section_and_goes_as_a_file(
        discord, monkeypatch):
    monkeypatch.setattr("sheetmaster.app.delivery.compose.MAX_MESSAGES", 2)
    ruleset, result = clans_turn()
    hooks = from_env({PUBLIC_ENV: discord.webhook("public")})
    post_turn(ruleset, result, hooks, client=client())
    messages = discord.to("public")
    assert len(messages) == 4  # the title, two messages, the file
    for player in ("Kuroda", "Amana", "Mori", "Takeda"):  # each section, shortened
        assert f"## {player}" in messages[1].content + messages[2].content
    assert "the whole report is attached" in messages[2].content
    assert messages[3].content == "The whole report is attached."
    (attached,) = messages[3].files.values()
    assert attached.decode().startswith("# Turn 5 results")


# --- the command line ------------------------------------------------------------------------

@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "avalon.xlsx"
    shutil.copy(TEMPLATES / "claims-example.xlsx", path)
    shutil.copy(TEMPLATES / "claims-example.xlsx.dice-secret",
                tmp_path / "avalon.xlsx.dice-secret")
    return path


def test_resolve_posts_the_turn_and_never_shows_an_address(game, discord, monkeypatch,
                                                           capsys):
    public, avalon = discord.webhook("public"), discord.webhook("avalon")
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)  # (the mask lines: tested below)
    monkeypatch.setenv(PUBLIC_ENV, public)
    monkeypatch.setenv(PLAYERS_ENV, f"Avalon = {avalon}")
    monkeypatch.setitem(DiscordClient.__init__.__kwdefaults__, "first_wait", 0.01)
    discord.fail_next(429, retry_after=0.05)
    assert main(["resolve", str(game), "--discord", "-vv"]) == 0
    out, err = capsys.readouterr()
    assert "posted to Discord: the public channel, Avalon's channel" in out
    assert "no webhook of their own: Bretagne, Cambria, Dumnonia" in out
    assert discord.to("public")[0].files["turn-2-map.png"].startswith(b"\x89PNG")
    for secret in (public, avalon, public.rsplit("/", 1)[1], avalon.rsplit("/", 1)[1]):
        assert secret not in out and secret not in err


def test_in_github_actions_each_address_is_masked_before_anything_is_posted(
        discord, monkeypatch, capsys):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    ruleset, result = clans_turn()
    one, two = discord.webhook("public"), discord.webhook("amana")
    hooks = from_env({PUBLIC_ENV: one, PLAYERS_ENV: f"Amana = {two}"})
    post_turn(ruleset, result, hooks, client=client())
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"::add-mask::{one}", f"::add-mask::{two}"]


def test_discord_without_its_secrets_stops_before_the_turn(game, monkeypatch, capsys):
    monkeypatch.delenv(PUBLIC_ENV, raising=False)
    monkeypatch.delenv(PLAYERS_ENV, raising=False)
    before = game.read_bytes()
    assert main(["resolve", str(game), "--discord"]) == 2
    assert PUBLIC_ENV in capsys.readouterr().err and game.read_bytes() == before


def test_a_discord_failure_after_the_write_keeps_the_turn_and_exits_5(game, discord,
                                                                     monkeypatch, capsys):
    gone = discord.url + "/api/webhooks/77/" + "g" * 40  # a webhook deleted on Discord
    monkeypatch.setenv(PUBLIC_ENV, gone)
    monkeypatch.delenv(PLAYERS_ENV, raising=False)
    before = game.read_bytes()
    assert main(["resolve", str(game), "--discord"]) == 5
    err = capsys.readouterr().err
    assert "the turn was written, but posting to Discord failed for the public channel" in err
    assert "g" * 40 not in err
    assert game.read_bytes() != before and (game.parent / "avalon-turn-2-report.md").exists()


def test_nightly_posts_each_game_that_games_toml_says_posts(tmp_path, discord, monkeypatch,
                                                           capsys):
    from sheetmaster.stores.xlsx_layout import write_new_workbook
    from tests.test_many_games import example_state

    monkeypatch.chdir(tmp_path)
    write_new_workbook(get("claims"), tmp_path / "avalon.xlsx", example_state("claims", -1))
    shutil.copy(TEMPLATES / "claims-example-map.png", tmp_path / "avalon-key.png")
    (tmp_path / "avalon.xlsx.dice-secret").write_text("the game's dice secret")
    (tmp_path / "games.toml").write_text(
        '[[game]]\nname = "avalon"\nfile = "avalon.xlsx"\nruleset = "claims"\n'
        'map_image = "avalon-key.png"\ndiscord = true\n'
        '[game.secrets]\ndiscord = "SHEETMASTER_DISCORD_WEBHOOK"\n', encoding="utf-8")
    monkeypatch.setenv(PUBLIC_ENV, discord.webhook("public"))
    monkeypatch.setenv(PLAYERS_ENV, f"GM = {discord.webhook('gm')}")
    assert main(["nightly", "--all", "games.toml", "--report-dir", "private", "-q"]) == 0
    out = capsys.readouterr().out
    assert "posted to Discord: the public channel, the GM's channel" in out
    assert (tmp_path / "avalon-turn-2-map.png").exists()
    assert (tmp_path / "private" / "avalon" / "gm.md").exists()
    (picture,) = discord.to("public")[0].files.values()
    assert picture == (tmp_path / "avalon-turn-2-map.png").read_bytes()
    assert "GM's full report" in discord.to("gm")[0].content


# --- Discord's limits, and one channel failing alone (issue 24.10) ---------------------------

def test_a_report_past_discords_upload_limit_goes_in_files_within_every_limit(discord):
    from sheetmaster.app.delivery.discord import MAX_FILES, MAX_UPLOAD
    from sheetmaster.app.delivery.post import MAX_ATTACHED, Posted, _channel

    line = "| 12345 | propose transfer | rejected | not accepted by Bretagne: é |\n"
    report = "# Turn 2 results\n\n" + line * (30 * 2**20 // len(line.encode()))
    hook = Webhook(discord.webhook("public"), "the public channel")
    posted = Posted()
    _channel(client(), hook, "**Turn 2**", report, [], "turn-2-report.md", posted)
    assert posted.channels == ["the public channel"] and not discord.refused
    files = [m.files for m in discord.messages if m.files]
    assert all(len(f) <= MAX_FILES and sum(map(len, f.values())) <= MAX_UPLOAD for f in files)
    sent = b"".join(data for f in files for data in f.values())
    assert MAX_ATTACHED - MAX_UPLOAD < len(sent) <= MAX_ATTACHED
    assert report.encode().startswith(sent) and sent.endswith(b"\n")  # cut between lines
    note = next(m.content for m in discord.messages if m.content.startswith("The report is"))
    assert "MiB are attached" in note and "the GM has the whole report" in note
    assert len(discord.messages) <= 2 + 25 + 3  # the title, its messages, the files'
    assert "whole report is attached" in discord.messages[-4].content  # where the rest is


def test_files_are_cut_between_lines_and_never_inside_a_character():
    from sheetmaster.app.delivery.messages import file_parts

    text = "ab\n" + "é" * 10 + "\ncd\n"
    parts = file_parts(text, 7)
    assert all(len(p) <= 7 for p in parts)
    assert b"".join(parts).decode() == text
    assert [p.decode() for p in parts][:2] == ["ab\n", "ééé"]


@pytest.fixture
def small_uploads(monkeypatch):
    """Discord's upload limit as 4,000 bytes, so an ordinary report is 'too big'."""
    monkeypatch.setattr("sheetmaster.app.delivery.discord.MAX_UPLOAD", 4_000)
    monkeypatch.setattr("sheetmaster.app.delivery.post.MAX_UPLOAD", 4_000, raising=False)
    monkeypatch.setattr("sheetmaster.app.delivery.post.MAX_ATTACHED", 12_000, raising=False)
    monkeypatch.setattr("sheetmaster.app.delivery.compose.MAX_MESSAGES", 1)


def test_a_report_past_the_upload_limit_reaches_every_channel(discord, small_uploads):
    ruleset, result = clans_turn()
    hooks = from_env({PUBLIC_ENV: discord.webhook("public"),
                      PLAYERS_ENV: f"Kuroda = {discord.webhook('kuroda')}\n"
                                   f"GM = {discord.webhook('gm')}"})
    posted = post_turn(ruleset, result, hooks, client=client())
    assert posted.channels == ["the public channel", "Kuroda's channel", "the GM's channel"]
    assert not discord.refused
    gm_files = [data for m in discord.to("gm") for data in m.files.values()]
    assert len(gm_files) > 1 and all(len(data) <= 4_000 for data in gm_files)


def test_one_channel_failing_is_reported_and_the_others_still_get_theirs(discord,
                                                                        monkeypatch):
    ruleset, result = clans_turn()
    gone = discord.url + "/api/webhooks/77/" + "g" * 40  # deleted on Discord: 404
    hooks = from_env({PUBLIC_ENV: discord.webhook("public"),
                      PLAYERS_ENV: f"Kuroda = {gone}\nAmana = {discord.webhook('amana')}\n"
                                   f"GM = {discord.webhook('gm')}"})

    def broken_map(png, turn):
        raise OSError("cannot identify image file")

    monkeypatch.setattr("sheetmaster.app.delivery.post._map_file", broken_map)
    with pytest.raises(DeliveryError) as caught:
        post_turn(ruleset, result, hooks, map_png=b"not a png", client=client())
    said = str(caught.value)
    assert "the public channel (OSError: cannot identify image file)" in said
    assert "Kuroda's channel (Discord refused the message to Kuroda's channel: 404" in said
    assert "g" * 40 not in said
    assert discord.to("amana") and discord.to("gm") and not discord.to("public")


def test_resolve_exits_5_when_a_channel_failed_and_posts_the_rest(game, discord, monkeypatch,
                                                                  capsys, small_uploads):
    gone = discord.url + "/api/webhooks/77/" + "g" * 40
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.setenv(PUBLIC_ENV, discord.webhook("public"))
    monkeypatch.setenv(PLAYERS_ENV, f"Avalon = {gone}\nGM = {discord.webhook('gm')}")
    assert main(["resolve", str(game), "--discord", "--no-map"]) == 5
    err = capsys.readouterr().err
    assert "posting to Discord failed for Avalon's channel" in err and "Traceback" not in err
    assert discord.to("public") and discord.to("gm")


# --- reports composed for Discord (issue 27) -------------------------------------------------

REPORT = """# Turn 3 results

Rules: Claims. Dice seed: 7.

## At a glance

Territories gained: Avalon (Ys)

## The whole game

**A. Grab war territory**
- turn 3 opens

## Avalon

| row | order | result | reason |
|---|---|---|---|
| 2 | claim | applied | took Ys |
| 3 | x \\| 9 \\| forged | rejected | no such order: 'x \\| 9 \\| forged' |
| GM orders, row 2 | gift | applied | |

Balances: gold 10 -> 12

## Bretagne

No orders this turn.

_3 orders, 1 rejected, 2 dice rolled._
"""


def test_a_report_is_composed_for_discord_summary_first_and_tables_as_lines():
    from sheetmaster.app.delivery.compose import compose

    composed = compose(REPORT)
    assert not composed.cut and len(composed.messages) == 1
    (text,) = composed.messages
    assert text.startswith("## At a glance\n\nTerritories gained: Avalon (Ys)\n\n"
                           "_3 orders, 1 rejected, 2 dice rolled._\n\n## The whole game")
    assert "# Turn 3 results" not in text and text.endswith("Rules: Claims. Dice seed: 7.")
    assert "- row 2: claim -> applied: took Ys" in text
    assert "- row 3: x \\| 9 \\| forged -> **rejected**: no such order: 'x \\| 9 \\| forged'" \
        in text  # an escaped pipe stays in its cell
    assert "- GM orders, row 2: gift -> applied\n" in text
    assert not [line for line in text.splitlines() if line.startswith("|")]


def test_a_section_longer_than_a_message_goes_on_under_continued():
    from sheetmaster.app.delivery.compose import compose

    lines = [f"- line {i} " + "x" * 60 for i in range(100)]
    report = "# Turn 2 results\n\n## Avalon\n\n" + "\n".join(lines) + "\n\n## Bretagne\n\nhi\n"
    messages = compose(report).messages
    assert len(messages) == 4 and all(len(m) <= 2000 for m in messages)
    assert messages[0].startswith("## Avalon\n\n- line 0 ")  # the heading with its lines
    assert all(m.startswith("**Avalon** (continued)\n\n- line") for m in messages[1:])
    assert messages[3].endswith("## Bretagne\n\nhi")  # the next section packed after
    said = [line for m in messages for line in m.splitlines() if line.startswith("- line")]
    assert said == lines


def test_too_many_messages_shorten_every_section_alike_and_keep_each_one():
    from sheetmaster.app.delivery.compose import compose

    sections = "".join(f"## Player {p}\n\n**1. Phase**\n" +
                       "".join(f"- line {i} of player {p} " + "y" * 40 + "\n"
                               for i in range(60)) + "\n" for p in range(40))
    composed = compose("# Turn 2 results\n\n" + sections + "_many orders._\n",
                       max_messages=10)
    assert composed.cut and len(composed.messages) <= 10
    text = "\n".join(composed.messages)
    for p in range(40):
        assert f"## Player {p}\n" in text and f"- line 0 of player {p} " in text
    assert text.count("more lines: the whole report is attached._") == 40
    assert "_many orders._" in text
    assert "**1. Phase**\n\n_..." not in text  # no phase heading left without its lines


def test_a_players_text_forges_no_line_and_pings_no_one(game, discord, monkeypatch):
    """An order typed to look like report lines stays inside its own line."""
    import openpyxl

    book = openpyxl.load_workbook(game)
    orders = book["Orders"]
    orders.append([2, "Avalon", "x | 9 | gift | applied |\n## Bretagne\n<@&1> @everyone"])
    book.save(game)
    monkeypatch.setenv(PUBLIC_ENV, discord.webhook("public"))
    monkeypatch.delenv(PLAYERS_ENV, raising=False)
    assert main(["resolve", str(game), "--discord", "--no-map", "-q"]) == 0
    text = discord.text("public")
    lines = text.splitlines()
    assert lines.count("## Bretagne") == 1 and not [x for x in lines if x.startswith("|")]
    assert "@everyone" not in text and "<@&1>" not in text
    assert any("x \\| 9 \\| gift \\| applied \\| ## Bretagne" in x for x in lines)


# --- every example game's turn, posted (issue 27's test) ------------------------------------

def _players_of(folder: Path, turn: int) -> list[str]:
    mine = f"# Turn {turn} results for "
    return [first[len(mine):] for p in sorted(folder.glob("*.md"))
            if (first := p.read_text(encoding="utf-8").split("\n", 1)[0]).startswith(mine)]


@pytest.mark.parametrize("name", ["claims", "clans", "decades", "eighteen_hundred",
                                  "goldenage"])
def test_each_example_games_turn_reaches_every_channel_within_discords_limits(
        name, tmp_path, discord, monkeypatch, capsys):
    from sheetmaster.app.delivery.compose import MAX_MESSAGES

    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.setitem(DiscordClient.__init__.__kwdefaults__, "first_wait", 0.01)
    discord.rate_limit = (5, 0.3)  # Discord's 5 posts in 2 s, faster
    monkeypatch.chdir(tmp_path)
    game = tmp_path / "game.xlsx"
    assert main(["new", name, str(game), "--example", "-q"]) == 0
    gm = f"GM = {discord.webhook('gm')}"
    monkeypatch.setenv(PUBLIC_ENV, discord.webhook("public"))
    monkeypatch.setenv(PLAYERS_ENV, gm)
    assert main(["resolve", str(game), "--force", "--discord", "--report-dir", "private",
                 "-q"]) == 0
    turn = int(next(tmp_path.glob("game-turn-*-report.md")).name.split("-")[2])
    report = (tmp_path / f"game-turn-{turn}-report.md").read_text(encoding="utf-8")
    players = _players_of(tmp_path / "private", turn)
    assert players
    public = discord.text("public")
    for player in players:  # every nation's section, in the public channel and the GM's
        assert f"## {player}\n" in public and f"## {player}\n" in discord.text("gm")
    for line in report.splitlines():  # every line of the report is posted
        if line.startswith(("- ", "**")):
            assert inert(line) in public, line

    assert not discord.refused and discord.limited == 0  # the client heeds the headers

    # the players' own channels, later: `post` posts them, and the public and GM's not again
    time.sleep(0.3)  # a new run knows nothing of the last one's rate limit: let it pass
    before = len(discord.messages)
    monkeypatch.setenv(PLAYERS_ENV, f"{gm}\n" + "\n".join(f"{p} = {discord.webhook(p)}"
                                                         for p in players))
    capsys.readouterr()
    assert main(["post", str(game), "--report-dir", "private"]) == 0
    out = capsys.readouterr().out
    assert "had the turn already: the public channel, the GM's channel" in out
    assert all(m.webhook in players for m in discord.messages[before:])
    for player in players:
        assert f"## {player}\n" in discord.text(player)
    assert main(["post", str(game), "--report-dir", "private", "-q"]) == 0
    assert "posted to Discord: no channel (0 messages)" in capsys.readouterr().out

    for m in discord.messages:
        assert len(m.content) <= 2000
        assert not [x for x in m.content.splitlines() if x.startswith("|")], m.content
    for channel in {m.webhook for m in discord.messages}:
        assert len(discord.to(channel)) <= 1 + MAX_MESSAGES
    assert not discord.refused and discord.limited == 0


# --- posting again: the record, and `sheetmaster post` ---------------------------------------

def test_the_fakes_rate_limit_answers_429_past_it_and_a_heeding_client_never_meets_it(
        discord):
    discord.rate_limit = (3, 0.3)
    hook = Webhook(discord.webhook("public"), "the public channel")
    poster = client()
    for i in range(7):
        poster.post(hook, f"message {i}")
    assert discord.limited == 0 and poster.retries == 0 and len(discord.messages) == 7
    blind = client()  # one that does not heed them is answered 429, and tries again
    blind._note_bucket = lambda *args: None
    for i in range(4):
        blind.post(hook, f"blind {i}")
    assert discord.limited >= 1 and blind.retries == discord.limited
    assert len(discord.messages) == 11


class Failing(DiscordClient):
    """Discord refusing every message after the first ``good`` ones."""

    def __init__(self, good: int) -> None:
        super().__init__(deadline=1, first_wait=0.01)
        self.good = good

    def post(self, webhook, content, files=()):
        if self.good <= 0:
            raise DeliveryError(f"Discord refused the message to {webhook}: 500")
        self.good -= 1
        super().post(webhook, content, files)


def test_a_channel_left_part_way_gets_the_rest_and_one_that_has_the_turn_nothing(
        discord, tmp_path):
    from sheetmaster.app.delivery.post import channel_messages, turn_reports
    from sheetmaster.app.delivery.record import PostRecord

    ruleset, result = clans_turn()
    reports = turn_reports(ruleset, result, game="Isles")
    hooks = from_env({PUBLIC_ENV: discord.webhook("public"),
                      PLAYERS_ENV: f"GM = {discord.webhook('gm')}"})
    path = tmp_path / "isles-turn-5-discord.json"
    from sheetmaster.app.delivery.post import post_reports

    with pytest.raises(DeliveryError):  # the public channel's 3rd message fails
        post_reports(reports, hooks, client=Failing(2), record=PostRecord.load(path, 5))
    assert len(discord.to("public")) == 2 and not discord.to("gm")
    posted = post_reports(reports, hooks, client=client(), record=PostRecord.load(path, 5))
    whole = [m for m, _ in channel_messages("**Isles: turn 5**", reports.public, [],
                                            "turn-5-report.md")]
    assert [m.content for m in discord.to("public")] == whole  # every message once
    assert posted.channels == ["the public channel", "the GM's channel"]
    again = post_reports(reports, hooks, client=client(), record=PostRecord.load(path, 5))
    assert again.messages == 0 and again.had_it == ["the public channel", "the GM's channel"]
    forced = post_reports(reports, hooks, client=client(), record=PostRecord.load(path, 5),
                          again=True)
    assert forced.messages == len(whole) + len(discord.to("gm")) // 2
    # the record says which channel got what, and nothing of a webhook nor of a report
    saved = path.read_text(encoding="utf-8")
    data = json.loads(saved)
    assert data["turn"] == 5 and len(data["channels"]) == 2
    assert {c["channel"] for c in data["channels"].values()} == {"the public channel",
                                                                  "the GM's channel"}
    for url in hooks.addresses():
        number, token = url.rsplit("/", 2)[-2:]
        assert token not in saved and f"/{number}/" not in saved
    assert "Kuroda" not in saved
    assert not PostRecord.load(path, 6).channels  # another turn's record: nothing posted yet


@pytest.fixture
def resolved(game, discord, monkeypatch):
    """The claims example resolved with --discord while its public webhook is gone (exit 5),
    the GM's channel posted: (the game, the GM's webhook line)."""
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    gm = f"GM = {discord.webhook('gm')}"
    monkeypatch.setenv(PUBLIC_ENV, discord.url + "/api/webhooks/77/" + "g" * 40)
    monkeypatch.setenv(PLAYERS_ENV, gm)
    assert main(["resolve", str(game), "--discord", "--no-map", "--report-dir",
                 str(game.parent / "private"), "-q"]) == 5
    assert discord.to("gm") and not discord.to("public")
    return game, gm


def test_post_posts_a_turn_discord_failed_and_never_twice(resolved, discord, monkeypatch,
                                                         capsys):
    game, gm = resolved
    capsys.readouterr()
    monkeypatch.setenv(PUBLIC_ENV, discord.webhook("public"))  # the GM makes a new webhook
    sent_gm = len(discord.to("gm"))
    assert main(["post", str(game), "--turn", "2", "--report-dir",
                 str(game.parent / "private")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("turn 2: posted to Discord: the public channel (")
    assert "had the turn already: the GM's channel" in out
    assert len(discord.to("gm")) == sent_gm
    public = discord.to("public")
    assert public[0].content == "**Example: the Matter of Britain: turn 2**"
    assert public[1].content.startswith("## At a glance")
    assert main(["post", str(game)]) == 0  # the last resolved turn, again: nothing
    assert "posted to Discord: no channel (0 messages)" in capsys.readouterr().out
    assert len(discord.to("public")) == len(public)
    assert main(["post", str(game), "--again", "-q"]) == 0
    assert len(discord.to("public")) == 2 * len(public)


def test_post_refuses_a_turn_not_resolved_or_a_report_of_another(resolved, discord,
                                                               capsys, tmp_path):
    game, _ = resolved
    assert main(["post", str(game), "--turn", "3"]) == 2
    assert "turn 3 is not resolved yet: the game is on turn 3" in capsys.readouterr().err
    other = tmp_path / "other.md"
    other.write_text("# Turn 1 results\n", encoding="utf-8")
    assert main(["post", str(game), "--report", str(other)]) == 2
    assert "is not the public report of turn 2" in capsys.readouterr().err
    assert main(["post", str(game), "--turn", "1"]) == 2  # no report of turn 1 was written
    assert "no report of turn 1 at" in capsys.readouterr().err


def test_a_report_without_a_summary_starts_with_its_counts():
    from sheetmaster.app.delivery.compose import compose

    report = REPORT.replace("## At a glance\n\nTerritories gained: Avalon (Ys)\n\n", "")
    (text,) = compose(report).messages
    assert text.startswith("_3 orders, 1 rejected, 2 dice rolled._\n\n## The whole game")
    assert text.count("_3 orders") == 1


def test_post_posts_a_google_sheets_turn_from_its_reports(tmp_path, discord, monkeypatch,
                                                          capsys):
    from sheetmaster.kit.fairness import SECRET_ENV
    from sheetmaster.testing.fakesheets import FakeSheetsServer
    from sheetmaster.testing.fakesheets.upload import upload_state
    from tests.test_many_games import example_state

    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(SECRET_ENV, "the sheet game's dice secret")
    with FakeSheetsServer() as server:
        monkeypatch.setenv("SHEETMASTER_SHEETS_ENDPOINT", server.url)
        sid = upload_state(server, example_state("claims", -1),
                           env_secret="the sheet game's dice secret")
        assert main(["resolve", "--sheet", sid, "--report-dir", "private", "--no-map",
                     "-q"]) == 0
        turn = next(tmp_path.glob("turn-*-report.md")).name.split("-")[1]
        monkeypatch.setenv(PUBLIC_ENV, discord.webhook("public"))
        monkeypatch.setenv(PLAYERS_ENV, f"Avalon = {discord.webhook('avalon')}")
        capsys.readouterr()
        assert main(["post", "--sheet", sid, "--report-dir", "private"]) == 0
    assert capsys.readouterr().out.startswith(
        f"turn {turn}: posted to Discord: the public channel, Avalon's channel (")
    assert "## Avalon" in discord.text("avalon") and "## Bretagne" not in discord.text("avalon")
    assert "## Bretagne" in discord.text("public")
    assert (tmp_path / f"turn-{turn}-discord.json").exists()


def test_a_turn_resolved_again_after_an_undo_is_posted_again(game, discord, monkeypatch):
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.setenv(PUBLIC_ENV, discord.webhook("public"))
    monkeypatch.delenv(PLAYERS_ENV, raising=False)
    assert main(["resolve", str(game), "--discord", "--no-map", "-q"]) == 0
    first = len(discord.messages)
    assert main(["undo", str(game), "-q"]) == 0
    assert main(["resolve", str(game), "--discord", "--no-map", "-q"]) == 0
    assert len(discord.messages) == 2 * first  # not taken for a channel that has the turn
