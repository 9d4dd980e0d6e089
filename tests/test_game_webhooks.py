"""Each game posts to its own Discord webhooks: their secrets' names come from games.toml, and
a run refuses two games (or two channels of one game) that would post to one webhook, before
anything is resolved (issue 24.8: one game's private report reached another game's player)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from sheetmaster import rules
from sheetmaster.app.cli import main
from sheetmaster.app.delivery.webhooks import PLAYERS_ENV, PUBLIC_ENV
from sheetmaster.app.exits import Exit
from sheetmaster.engine.builder import build_state
from sheetmaster.stores.xlsx_layout import write_new_workbook
from sheetmaster.testing.fakediscord import FakeDiscord


@pytest.fixture
def discord():
    with FakeDiscord() as fake:
        yield fake


@pytest.fixture
def two_games(tmp_path: Path, monkeypatch) -> dict[str, Path]:
    """Two claims games, 'a' and 'b' (their Game tabs name them Game A and Game B)."""
    monkeypatch.chdir(tmp_path)
    for name in ("A_PUBLIC", "A_PLAYERS", "B_PUBLIC", "B_PLAYERS", PUBLIC_ENV, PLAYERS_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    claims = rules.get("claims")
    tables, orders, settings = claims.example()
    games = {}
    for name in ("a", "b"):
        game = dict(settings, game=f"Game {name.upper()}", timezone="UTC",
                    deadline=(datetime.now(timezone.utc) - timedelta(hours=1))
                    .strftime("%Y-%m-%d %H:%M"))
        game.pop("seed")
        path = tmp_path / f"{name}.xlsx"
        write_new_workbook(claims, path, build_state(claims, tables, orders, turn=2,
                                                     settings=game))
        (tmp_path / f"{name}.xlsx.dice-secret").write_text(f"game {name}'s dice secret")
        games[name] = path
    return games


def games_toml(entries: dict[str, str]) -> None:
    """games.toml with games 'a' and 'b', each given these extra lines."""
    Path("games.toml").write_text("".join(
        f'[[game]]\nname = "{name}"\nfile = "{name}.xlsx"\nruleset = "claims"\n{extra}\n'
        for name, extra in entries.items()), encoding="utf-8")


OWN_NAMES = {name: f'discord = true\n[game.secrets]\ndiscord = "{name.upper()}_PUBLIC"\n'
                   f'discord_players = "{name.upper()}_PLAYERS"\n' for name in ("a", "b")}


def test_each_game_posts_to_the_webhooks_games_toml_names_for_it(two_games, discord,
                                                                 monkeypatch):
    games_toml(OWN_NAMES)
    for name in ("a", "b"):
        monkeypatch.setenv(f"{name.upper()}_PUBLIC", discord.webhook(f"{name} public"))
        monkeypatch.setenv(f"{name.upper()}_PLAYERS",
                           f"Avalon = {discord.webhook(f'{name} avalon')}\n"
                           f"GM = {discord.webhook(f'{name} gm')}")
    # what a game that names no secrets would read: neither game may post there
    monkeypatch.setenv(PUBLIC_ENV, discord.webhook("default public"))
    monkeypatch.setenv(PLAYERS_ENV, f"Avalon = {discord.webhook('default avalon')}")
    assert main(["nightly", "--all", "games.toml", "--no-map", "-q"]) == Exit.OK
    channels = {m.webhook for m in discord.messages}
    assert channels == {f"{g} {c}" for g in ("a", "b") for c in ("public", "avalon", "gm")}
    for game in ("a", "b"):
        for channel in ("public", "avalon", "gm"):
            messages = discord.to(f"{game} {channel}")
            assert messages[0].content.startswith(f"**Game {game.upper()}: turn 2")
        assert discord.to(f"{game} avalon")[0].content.endswith(": your own report")
        assert "## Avalon" in discord.text(f"{game} avalon")


def test_two_posting_games_reading_the_same_webhook_secrets_are_refused(two_games, discord,
                                                                       monkeypatch, capsys):
    """The issue's case: every game of a run read the same webhook variables."""
    games_toml({"a": "discord = true\n", "b": "discord = true\n"})
    monkeypatch.setenv(PUBLIC_ENV, discord.webhook("public"))
    monkeypatch.setenv(PLAYERS_ENV, f"Avalon = {discord.webhook('avalon')}")
    before = {name: path.read_bytes() for name, path in two_games.items()}
    assert main(["nightly", "--all", "games.toml", "--no-map"]) == Exit.USAGE
    err = capsys.readouterr().err
    assert "games 'a' and 'b' both read their Discord webhooks from " \
           f"{PLAYERS_ENV} and {PUBLIC_ENV}" in err
    assert 'discord = "B_DISCORD_WEBHOOK"' in err  # what to write instead
    assert not discord.messages and discord.requests == 0
    assert {name: path.read_bytes() for name, path in two_games.items()} == before


@pytest.mark.parametrize("shared", ["public", "GM", "Avalon"])
def test_two_games_whose_secrets_hold_one_webhook_are_refused_before_anything_is_resolved(
        two_games, discord, monkeypatch, capsys, shared):
    games_toml(OWN_NAMES)
    same = discord.webhook("shared")
    monkeypatch.setenv("A_PUBLIC", same)
    monkeypatch.setenv("A_PLAYERS", f"Avalon = {discord.webhook('a avalon')}")
    monkeypatch.setenv("B_PUBLIC", same if shared == "public" else discord.webhook("b public"))
    monkeypatch.setenv("B_PLAYERS", f"{shared if shared != 'public' else 'Avalon'} = "
                                    f"{same if shared != 'public' else discord.webhook('b av')}")
    before = {name: path.read_bytes() for name, path in two_games.items()}
    assert main(["nightly", "--all", "games.toml", "--no-map"]) == Exit.USAGE
    out, err = capsys.readouterr()
    channel = {"public": "the public channel", "GM": "the GM's channel",
               "Avalon": "Avalon's channel"}[shared]
    assert "games 'a' and 'b' post to the same Discord webhook ('a': the public channel, " \
           f"in A_PUBLIC; 'b': {channel}, in B_" in err
    assert "nothing was resolved" in err
    token = same.rsplit("/", 1)[1]
    assert same not in out + err and token not in out + err
    assert not discord.messages
    assert {name: path.read_bytes() for name, path in two_games.items()} == before


def test_games_sharing_secret_names_each_in_an_environment_of_their_own(two_games, discord,
                                                                       monkeypatch, capsys):
    """In the workflow, a game's job runs in its environment, whose secrets hold its own
    webhooks under the shared names: checked there, not against another environment's."""
    games_toml({"a": 'discord = true\nenvironment = "a"\n',
                "b": 'discord = true\nenvironment = "b"\n'})
    monkeypatch.setenv(PUBLIC_ENV, discord.webhook("a public"))  # a's environment's value
    assert main(["nightly", "--all", "games.toml", "--game", "a", "--no-map", "-q"]) == Exit.OK
    assert {m.webhook for m in discord.messages} == {"a public"}
    # one run of both (on the GM's machine: one environment) would post both to one channel
    assert main(["nightly", "--all", "games.toml", "--no-map"]) == Exit.USAGE
    assert "games 'a' and 'b' post to the same Discord webhook" in capsys.readouterr().err


def test_discord_for_every_game_of_a_run_is_checked_too(two_games, discord, monkeypatch,
                                                        capsys):
    games_toml({"a": "", "b": ""})  # neither posts by itself: --discord makes both post
    monkeypatch.setenv(PUBLIC_ENV, discord.webhook("public"))
    assert main(["nightly", "--all", "games.toml", "--discord", "--no-map"]) == Exit.USAGE
    assert "games 'a' and 'b' post to the same Discord webhook" in capsys.readouterr().err
    assert not discord.messages


@pytest.mark.parametrize(("players", "said"), [
    ("GM = {public}", "the public channel and the GM's channel have the same webhook"),
    ("Avalon = {one}\nBretagne = {one}", "Avalon's channel and Bretagne's channel have the "
                                         "same webhook"),
    ("Avalon = {one}\navalon  = {two}", "'avalon' is given two webhooks"),
])
def test_two_channels_of_one_game_with_one_webhook_are_refused_before_the_turn(
        two_games, discord, monkeypatch, capsys, players, said):
    public, one, two = (discord.webhook(n) for n in ("public", "one", "two"))
    monkeypatch.setenv(PUBLIC_ENV, public)
    monkeypatch.setenv(PLAYERS_ENV, players.format(public=public, one=one, two=two))
    before = two_games["a"].read_bytes()
    assert main(["resolve", str(two_games["a"]), "--discord", "--no-map"]) == Exit.USAGE
    out, err = capsys.readouterr()
    assert said in err and public not in out + err and one not in out + err
    assert two_games["a"].read_bytes() == before and not discord.messages
