"""A resolved turn, posted where the players are: the public report and the map in the
public channel, each player's own report in their channel, the GM's full one in theirs.

Every channel is tried, whatever happened to the others; then one DeliveryError names the
channels that failed. The turn itself is written before anything is posted, so a Discord
outage never loses a turn; the reports stay in the files (and the workflow's artifacts).
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass, field

from PIL import Image

from sheetmaster.model import TurnResult
from sheetmaster.report import GM, TurnGroups, player_report, player_reports
from sheetmaster.ruleset import Ruleset

from .discord import MAX_UPLOAD, Attachment, DeliveryError, DiscordClient
from .messages import inert, split_message
from .webhooks import Webhook, Webhooks, mask_in_github_actions, scrub, scrubbed_logs

log = logging.getLogger("sheetmaster")

#: more messages than this and the report goes as a file, after its first message.
MAX_MESSAGES = 8


@dataclass
class Posted:
    """What was posted: channels reached, messages sent, channels that failed (and why)."""

    channels: list[str] = field(default_factory=list)
    messages: int = 0
    failed: dict[str, str] = field(default_factory=dict)
    #: players with no webhook of their own, and names in the secret that are no player.
    unreached: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)


def post_turn(ruleset: Ruleset, result: TurnResult, webhooks: Webhooks, *, game: str = "",
              map_png: bytes | None = None, client: DiscordClient | None = None,
              mask: bool = True, groups: TurnGroups | None = None) -> Posted:
    """Post the turn to every channel the webhooks give; raises DeliveryError at the end if
    any channel could not be reached. ``mask``: in GitHub Actions, mask the addresses in the
    job's log first (a line on stdout the runner swallows). ``groups``: the turn grouped for
    its reports, if the run has it already."""
    client = client or DiscordClient()
    if mask:
        mask_in_github_actions(webhooks)
    posted = Posted()
    title = f"**{inert(game)}: turn {result.turn}**" if game else f"**Turn {result.turn}**"
    groups = groups or TurnGroups(ruleset, result)  # the turn grouped once for every report
    with scrubbed_logs(webhooks.addresses()):
        if webhooks.public is not None:
            files = [_map_file(map_png, result.turn)] if map_png else []
            _channel(client, webhooks.public, title,
                     player_report(ruleset, result, groups=groups), [f for f in files if f],
                     f"turn-{result.turn}-report.md", posted)
        reports = player_reports(ruleset, result, groups=groups)
        for name, text in reports.items():
            webhook = webhooks.of(name)
            if webhook is None:
                if name != GM:
                    posted.unreached.append(name)
                continue
            file = "gm" if name == GM else "report"
            _channel(client, webhook, f"{title}: your own report" if name != GM else
                     f"{title}: the GM's full report", text, [],
                     f"turn-{result.turn}-{file}.md", posted)
        known = {n.casefold() for n in reports}
        posted.unknown = [n for n in webhooks.players if n.casefold() not in known]
    if posted.unknown:
        log.warning("Discord: %s in %s %s no player of this game; nothing was posted there",
                    ", ".join(repr(n) for n in posted.unknown), "the players' webhooks",
                    "is" if len(posted.unknown) == 1 else "are")
    if posted.failed:
        raise DeliveryError("the turn was written, but posting to Discord failed for " +
                            "; ".join(f"{who} ({why})" for who, why in posted.failed.items()))
    return posted


def _channel(client: DiscordClient, webhook: Webhook, title: str, report: str,
             files: list[Attachment], name: str, posted: Posted) -> None:
    """One channel's messages: the title (with the files), then the report in parts, or
    its first part and the whole report as a file when it would take too many messages."""
    parts = split_message(inert(report))
    messages: list[tuple[str, list[Attachment]]] = [(title, files)]
    if len(parts) <= MAX_MESSAGES:
        messages += [(part, []) for part in parts]
    else:
        whole = Attachment(name, report.encode("utf-8"), "text/markdown")
        messages += [(parts[0], []), (f"... and {len(parts) - 1} more messages' worth: the "
                                      f"whole report is attached.", [whole])]
    try:
        for content, attached in messages:
            client.post(webhook, content, attached)
            posted.messages += 1
    except DeliveryError as exc:
        posted.failed[str(webhook)] = scrub(str(exc), [webhook.url])
        return
    posted.channels.append(str(webhook))


def _map_file(png: bytes, turn: int) -> Attachment | None:
    """The map as an attachment, made smaller until it fits Discord's upload limit."""
    data = png
    while len(data) > MAX_UPLOAD:
        with Image.open(io.BytesIO(data)) as picture:
            smaller = picture.resize((max(1, picture.width * 7 // 10),
                                      max(1, picture.height * 7 // 10)), Image.LANCZOS)
        out = io.BytesIO()
        smaller.save(out, "PNG", optimize=True)
        data = out.getvalue()
        log.info("the map is %.1f MB, more than Discord takes: posted at %d x %d",
                 len(png) / 1e6, smaller.width, smaller.height)
    return Attachment(f"turn-{turn}-map.png", data, "image/png")
