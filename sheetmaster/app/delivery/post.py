"""A resolved turn, posted where the players are: the public report and the map in the
public channel, each player's own report in their channel, the GM's full one in theirs.

The reports are the markdown ones the turn writes (:class:`TurnReports`: made from the turn
by a resolve, read back from its files by ``sheetmaster post``), each composed for Discord
(:mod:`~.compose`: its summary first, plain lines for tables, every section). Every channel
is tried, whatever happened to the others (a webhook Discord refuses, Discord failing past
the retries, even a bug in making one channel's messages); then one DeliveryError names the
channels that failed. The turn itself is written before anything is posted, so a Discord
outage never loses a turn; ``sheetmaster post`` posts it later.

Each message posted is written down at once in the turn's :class:`~.record.PostRecord`, so
posting the turn again posts nothing twice to a channel: one that has the turn is skipped,
one a run left part way gets the rest.

Within Discord's limits: a report that would take more than :data:`~.compose.MAX_MESSAGES`
messages has each section shortened alike, and goes along whole as files, cut between lines
into files of at most 8 MiB, at most 10 files and 8 MiB a message, and at most
:data:`MAX_ATTACHED` bytes a channel a turn (the rest is said to be in the GM's files).
"""

from __future__ import annotations

import io
import logging
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from sheetmaster.app.exits import UsageError
from sheetmaster.app.report import (
    GLANCE,
    GM,
    GM_ONLY_LINES,
    WHOLE_GAME,
    TurnGroups,
    md,
    one_line,
    player_report,
    player_reports,
)
from sheetmaster.kit import values
from sheetmaster.kit.model import TurnResult
from sheetmaster.kit.ruleset import Ruleset

from . import compose as composing
from .discord import MAX_FILES, MAX_UPLOAD, Attachment, DeliveryError, DiscordClient
from .messages import file_parts, inert
from .record import Message, PostRecord
from .webhooks import Webhook, Webhooks, mask_in_github_actions, scrub, scrubbed_logs

log = logging.getLogger("sheetmaster")

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
    #: channels that had the turn already (the record says so): nothing posted there.
    had_it: list[str] = field(default_factory=list)
    #: players with a webhook but no report of their own to post (not among the files).
    no_report: list[str] = field(default_factory=list)


@dataclass
class TurnReports:
    """A turn's reports as markdown: what each channel is posted."""

    turn: int
    #: the game's name, for the channels' first message ('' if it has none).
    game: str = ""
    #: the public report (None: none to post).
    public: str | None = None
    #: each player's own report, by the player's name as the reports write it.
    own: dict[str, str] = field(default_factory=dict)
    #: the GM's full report.
    gm: str | None = None
    #: the game's players (a name in the players' webhooks that is none of them is told).
    players: list[str] = field(default_factory=list)
    map_png: bytes | None = None


def turn_reports(ruleset: Ruleset, result: TurnResult, *, game: str = "",
                 map_png: bytes | None = None, groups: TurnGroups | None = None
                 ) -> TurnReports:
    """The reports of a resolved turn, as its files hold them."""
    groups = groups or TurnGroups(ruleset, result)  # the turn grouped once for every report
    reports = player_reports(ruleset, result, groups=groups)
    gm = reports.pop(GM)
    return TurnReports(result.turn, game, player_report(ruleset, result, groups=groups),
                       reports, gm, list(groups.players), map_png)


class ReportFileError(UsageError):
    """A report file to post cannot be read, or is not the turn's (the one named is wrong:
    a usage error)."""


def reports_from_files(public: Path, folder: Path | None, turn: int, *, game: str = "",
                       map_png: Path | None = None) -> TurnReports:
    """A turn's reports as the resolve wrote them: the public report (``public``), and each
    player's own and the GM's from ``folder`` (the resolve's --report-dir), each known by its
    title; a file there of another turn is left out, saying so."""
    text = _read(public)
    first = text.split("\n", 1)[0]
    if first != f"# Turn {turn} results":
        raise ReportFileError(f"{public} is not the public report of turn {turn} (its first "
                              f"line is {one_line(first[:80])!r})")
    reports = TurnReports(turn, game, text, players=report_players(text))
    if map_png is not None and map_png.is_file():
        reports.map_png = map_png.read_bytes()
    if folder is None:
        return reports
    if not folder.is_dir():
        raise ReportFileError(f"{folder} is not a folder of reports (the resolve's "
                              f"--report-dir)")
    mine, others = f"# Turn {turn} results for ", []
    for path in sorted(folder.glob("*.md")):
        text = _read(path)
        first = text.split("\n", 1)[0]
        if first == f"# Turn {turn} results (GM's full report)":
            reports.gm = text
        elif first.startswith(mine):
            reports.own[first[len(mine):]] = text
        else:
            others.append(path.name)
    if others:
        log.warning("left out of turn %d's posts, not being its reports: %s", turn,
                    ", ".join(others))
    return reports


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportFileError(f"cannot read the report {path}: {exc}") from None


def report_players(report: str) -> list[str]:
    """The players a public report has a section for (their names as it writes them)."""
    fixed = {GLANCE, WHOLE_GAME, GM_ONLY_LINES}
    return [line[3:].strip() for line in report.split("\n")
            if line.startswith("## ") and line[3:].strip() not in fixed]


def webhook_of(webhooks: Webhooks, name: str) -> Webhook | None:
    """The webhook of the player ``name`` (as the sheet writes it, or as a report does)."""
    found = webhooks.of(name)
    if found is None:
        shown = values.fold(name)
        found = next((w for who, w in webhooks.players.items()
                      if values.fold(md(who)) == shown), None)
    return found


def post_turn(ruleset: Ruleset, result: TurnResult, webhooks: Webhooks, *, game: str = "",
              map_png: bytes | None = None, client: DiscordClient | None = None,
              mask: bool = True, groups: TurnGroups | None = None,
              record: PostRecord | None = None) -> Posted:
    """Post a resolved turn to every channel the webhooks give (see :func:`post_reports`)."""
    return post_reports(turn_reports(ruleset, result, game=game, map_png=map_png,
                                     groups=groups), webhooks, client=client, mask=mask,
                        record=record)


def post_reports(reports: TurnReports, webhooks: Webhooks, *,
                 client: DiscordClient | None = None, mask: bool = True,
                 record: PostRecord | None = None, again: bool = False) -> Posted:
    """Post the turn's reports to every channel the webhooks give; raises DeliveryError at
    the end if any channel could not be reached. ``mask``: in GitHub Actions, mask the
    addresses in the job's log first (a line on stdout the runner swallows). ``record``:
    what was posted already, written as messages go (``again``: post every channel all the
    same)."""
    client = client or DiscordClient()
    if mask:
        mask_in_github_actions(webhooks)
    record = record or PostRecord(None, reports.turn)
    posted = Posted()
    turn = reports.turn
    title = f"**{inert(reports.game)}: turn {turn}**" if reports.game else f"**Turn {turn}**"

    def channel(webhook: Webhook, heading: str, text: str, files: Callable[[], list],
                name: str) -> None:
        _isolated(posted, webhook, lambda: _channel(
            client, webhook, heading, text, files(), name, posted, record, again))

    with scrubbed_logs(webhooks.addresses()):
        if webhooks.public is not None and reports.public is not None:
            png = reports.map_png
            channel(webhooks.public, title, reports.public,
                    lambda: [_map_file(png, turn)] if png else [], f"turn-{turn}-report.md")
        for name, text in reports.own.items():
            webhook = webhook_of(webhooks, name)
            if webhook is None:
                posted.unreached.append(name)
                continue
            channel(webhook, f"{title}: your own report", text, list,
                    f"turn-{turn}-report.md")
        gm = webhooks.of(GM)
        if gm is not None and reports.gm is not None:
            channel(gm, f"{title}: the GM's full report", reports.gm, list, f"turn-{turn}-gm.md")
        elif gm is not None:
            posted.no_report.append(GM)
        known = {values.fold(n) for n in [*reports.players, *reports.own]}
        for name in webhooks.players:
            if values.fold(name) == values.fold(GM):
                continue
            if values.fold(name) not in known and values.fold(md(name)) not in known:
                posted.unknown.append(name)
            elif webhook_of(webhooks, name) is not None and not any(
                    webhook_of(webhooks, own) is webhooks.players[name] for own in reports.own):
                posted.no_report.append(name)
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


def channel_messages(title: str, report: str, files: list[Attachment], name: str
                     ) -> list[Message]:
    """One channel's messages: the title (with the files), then the report composed for
    Discord; when its sections had to be shortened, the whole report as files after."""
    composed = composing.compose(report)
    messages: list[Message] = [(title, files), *((m, []) for m in composed.messages)]
    if composed.cut:
        messages += _as_files(report, name)
    return messages


def _channel(client: DiscordClient, webhook: Webhook, title: str, report: str,
             files: list[Attachment], name: str, posted: Posted,
             record: PostRecord | None = None, again: bool = False) -> None:
    """Post one channel's messages, from the first it does not have yet (the record says)."""
    messages = channel_messages(title, report, files, name)
    record = record or PostRecord(None, 0)
    start = 0 if again else record.start(webhook, messages)
    if start >= len(messages):
        posted.had_it.append(str(webhook))
        return
    if start:
        log.info("Discord: %s has %d of this turn's %d messages already; posting the rest",
                 webhook, start, len(messages))
    for sent, (content, attached) in enumerate(messages[start:], start + 1):
        client.post(webhook, content, attached)
        posted.messages += 1
        record.note(webhook, messages, sent)
    posted.channels.append(str(webhook))


def _as_files(report: str, name: str) -> list[Message]:
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
    whole = "The whole report is attached" if len(pieces) == 1 else \
        f"The whole report is attached, in {len(pieces)} files"
    if len(kept) < len(pieces):
        whole = (f"The report is {total / 2**20:.1f} MiB: its first "
                 f"{sum(map(len, kept)) / 2**20:.1f} MiB are attached, in {len(kept)} files "
                 f"(the GM has the whole report)")
    notes = [f"{whole}."] + [""] * (len(groups) - 1)
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
