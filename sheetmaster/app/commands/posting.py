"""--discord: a resolved turn's reports and map posted to Discord, for resolve and nightly.

The webhooks are read from the secrets before the turn is resolved (a missing or malformed
secret stops the run before anything happens); the posts go out after the game is written.
"""

from __future__ import annotations

import argparse
import logging
from typing import TYPE_CHECKING

from sheetmaster.app.delivery.webhooks import PLAYERS_ENV, PUBLIC_ENV, Webhooks, from_env
from sheetmaster.app.exits import UsageError

if TYPE_CHECKING:
    from sheetmaster.app.report import TurnGroups
    from sheetmaster.app.runs import RunOutcome

log = logging.getLogger("sheetmaster")


def discord_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--discord", action="store_true",
                   help=f"post the turn to Discord: the public report and the map to the "
                        f"webhook in ${PUBLIC_ENV}, each player's own report to theirs in "
                        f"${PLAYERS_ENV} (see the README); never from the sheet")


def discord_webhooks(wanted: bool, *, public: str = PUBLIC_ENV,
                     players: str = PLAYERS_ENV) -> Webhooks | None:
    """The webhooks when posting is asked for (``public``, ``players``: the secrets' names, a
    game's own in games.toml); none configured is a usage error."""
    if not wanted:
        return None
    webhooks = from_env(public=public, players=players)
    if not webhooks:
        raise UsageError(f"--discord: set the secret {public} (the public channel's "
                         f"webhook) or {players} (each player's)")
    return webhooks


def post(outcome: RunOutcome, webhooks: Webhooks, map_png: bytes | None, *,
         quiet: bool = False, groups: TurnGroups | None = None) -> str:
    """Post the written turn; returns a line saying where it went (``quiet``: logged
    instead, and nothing else on stdout either, for --json; ``groups``: the turn grouped for
    its reports, if the run has it already)."""
    from sheetmaster.app.delivery.post import post_turn
    from sheetmaster.kit import values

    assert outcome.result is not None and outcome.ruleset is not None
    game = values.text(outcome.result.after.meta.get("game"))
    posted = post_turn(outcome.ruleset, outcome.result, webhooks, game=game, map_png=map_png,
                       mask=not quiet, groups=groups)
    line = (f"posted to Discord: {', '.join(posted.channels) or 'no channel'} "
            f"({posted.messages} messages)")
    if posted.unreached:
        line += f"; no webhook of their own: {', '.join(posted.unreached)}"
    if quiet:
        log.info("%s", line)
        return ""
    return line
