"""A resolved turn, posted where the players are: the public report and the map in the
public channel, each player's own report in their channel, the GM's full one in theirs.

Every channel is tried, whatever happened to the others (a webhook Discord refuses, Discord
failing past the retries, even a bug in making one channel's messages); then one
DeliveryError names the channels that failed. The turn itself is written before anything is
posted, so a Discord outage never loses a turn; the reports stay in the files (and the
workflow's artifacts).

Within Discord's limits: a report too long for :data:`MAX_MESSAGES` messages goes as files
after its first part, cut between lines into files of at most 8 MiB, at most 10 files and
8 MiB a message, and at most :data:`MAX_ATTACHED` bytes a channel a turn (the rest is said
to be in the GM's files).
"""

from __future__ import annotations

import io
import logging
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

from PIL import Image

from sheetmaster.app.report import GM, TurnGroups, player_report, player_reports
from sheetmaster.kit.model import TurnResult
from sheetmaster.kit.ruleset import Ruleset

from .discord import MAX_FILES, MAX_UPLOAD, Attachment, DeliveryError, DiscordClient
from .messages import file_parts, inert, split_message
from .webhooks import Webhook, Webhooks, mask_in_github_actions, scrub, scrubbed_logs

log = logging.getLogger("sheetmaster")

#: more messages than this and the report goes as a file, after its first message.
MAX_MESSAGES = 8
#: the most a channel is sent as files in one turn: three messages' worth.
MAX_ATTACHED = 3 * MAX_UPLOAD


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
            _isolated(posted, webhooks.public, lambda: _channel(
                client, webhooks.public, title, player_report(ruleset, result, groups=groups),
                [_map_file(map_png, result.turn)] if map_png else [],
                f"turn-{result.turn}-report.md", posted))
        reports = player_reports(ruleset, result, groups=groups)
        for name, text in reports.items():
            webhook = webhooks.of(name)
            if webhook is None:
                if name != GM:
                    posted.unreached.append(name)
                continue
            file = "gm" if name == GM else "report"
            _isolated(posted, webhook, lambda webhook=webhook, name=name, text=text, file=file:
                      _channel(client, webhook, f"{title}: your own report" if name != GM
                               else f"{title}: the GM's full report", text, [],
                               f"turn-{result.turn}-{file}.md", posted))
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


def _isolated(posted: Posted, webhook: Webhook, post: Callable[[], None]) -> None:
    """Post one channel's messages; whatever goes wrong there is that channel's failure,
    recorded, and the next channel is tried all the same."""
    try:
        post()
    except DeliveryError as exc:
        posted.failed[str(webhook)] = scrub(str(exc), [webhook.url])
    except Exception as exc:  # a bug: logged whole, and it stops this channel only
        log.error("Discord: could not post to %s:\n%s", webhook,
                  scrub(traceback.format_exc(), [webhook.url]))
        posted.failed[str(webhook)] = scrub(f"{type(exc).__name__}: {exc}", [webhook.url])


def _channel(client: DiscordClient, webhook: Webhook, title: str, report: str,
             files: list[Attachment], name: str, posted: Posted) -> None:
    """One channel's messages: the title (with the files), then the report in parts, or
    its first part and the whole report as files when it would take too many messages."""
    parts = split_message(inert(report))
    messages: list[tuple[str, list[Attachment]]] = [(title, files)]
    if len(parts) <= MAX_MESSAGES:
        messages += [(part, []) for part in parts]
    else:
        messages += [(parts[0], []), *_as_files(report, name, len(parts) - 1)]
    for content, attached in messages:
        client.post(webhook, content, attached)
        posted.messages += 1
    posted.channels.append(str(webhook))


def _as_files(report: str, name: str, more: int) -> list[tuple[str, list[Attachment]]]:
    """The whole report as files within Discord's limits, in as few messages as they fit
    (at most MAX_ATTACHED bytes: a note says where the rest is)."""
    pieces = file_parts(report, MAX_UPLOAD)
    total = sum(map(len, pieces))
    kept: list[bytes] = []
    for piece in pieces:
        if sum(map(len, kept)) + len(piece) > MAX_ATTACHED:
            break
        kept.append(piece)
    stem = name.removesuffix(".md")
    files = [Attachment(name if len(pieces) == 1 else f"{stem}-part-{i}-of-{len(pieces)}.md",
                        piece, "text/markdown") for i, piece in enumerate(kept, 1)]
    groups: list[list[Attachment]] = []
    for file in files:
        if groups and len(groups[-1]) < MAX_FILES and \
                sum(len(f.data) for f in groups[-1]) + len(file.data) <= MAX_UPLOAD:
            groups[-1].append(file)
        else:
            groups.append([file])
    whole = "the whole report is attached" if len(pieces) == 1 else \
        f"the whole report is attached, in {len(pieces)} files"
    if len(kept) < len(pieces):
        whole = (f"the report is {total / 2**20:.1f} MiB: its first "
                 f"{sum(map(len, kept)) / 2**20:.1f} MiB are attached, in {len(kept)} files "
                 f"(the GM has the whole report)")
    notes = [f"... and {more} more messages' worth: {whole}."] + [""] * (len(groups) - 1)
    return list(zip(notes, groups))


def _map_file(png: bytes, turn: int) -> Attachment:
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
