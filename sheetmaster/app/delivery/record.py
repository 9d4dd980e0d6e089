"""What a turn posted where: the record that makes posting a turn again idempotent per
channel.

A webhook can post, but it cannot list a channel's messages (that takes a bot's token), so
whether a channel already has a turn is not asked of Discord: it is written down, beside the
turn's report, as the messages go out (``NAME-turn-N-discord.json`` beside
``NAME-turn-N-report.md``). For each channel: how many of its messages were posted, of how
many, and a digest of those messages. Posting again skips a channel that has every message,
goes on from the next message where a run stopped part way (the same messages), and posts a
channel's messages anew only if what it would post is not what was started.

The record lies beside the public report, which players may see: a channel is named there by
an HMAC of its webhook's token, and its messages by an HMAC keyed with the token too, so the
record tells no one which webhook it is, nor lets anyone check a guess at a private report.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sheetmaster.stores.xlsx_files import file_mode, replace_atomically, temp_beside

from .discord import Attachment
from .webhooks import Webhook

log = logging.getLogger("sheetmaster")

#: what a webhook is, whatever host, API version or query its address is written with.
_WHO = re.compile(r"/webhooks/(\d+)/([\w.~-]+)", re.IGNORECASE)
Message = tuple[str, list[Attachment]]


def record_path(report: Path) -> Path:
    """Where the record of a turn's posts goes: NAME-turn-N-report.md ->
    NAME-turn-N-discord.json (beside the map, NAME-turn-N-map.png)."""
    name = report.name
    stem = name[:-len("-report.md")] if name.endswith("-report.md") else report.stem
    return report.with_name(f"{stem}-discord.json")


def _secret(webhook: Webhook) -> bytes:
    found = _WHO.search(webhook.url)
    return ("/".join(found.groups()) if found else webhook.url).encode()


def channel_key(webhook: Webhook) -> str:
    """The channel's name in the record: keyed with its webhook's token."""
    return hmac.new(_secret(webhook), b"sheetmaster channel", hashlib.sha256).hexdigest()[:32]


def digest(webhook: Webhook, messages: list[Message]) -> str:
    """The messages a channel is to get (their text and their files' contents), as an HMAC
    keyed with the channel's webhook."""
    shape = [[content, [[f.name, hashlib.sha256(f.data).hexdigest()] for f in files]]
             for content, files in messages]
    return hmac.new(_secret(webhook), json.dumps(shape).encode(), hashlib.sha256).hexdigest()


@dataclass
class PostRecord:
    """The record of one turn's posts (``path`` None: kept in memory only)."""

    path: Path | None
    turn: int
    channels: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path | None, turn: int) -> PostRecord:
        """The record at ``path``; an empty one if there is none yet (or it is of another
        turn, or unreadable: then every channel is posted, as if for the first time)."""
        if path is None or not path.exists():
            return cls(path, turn)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            channels = data["channels"] if data.get("turn") == turn else {}
            if not isinstance(channels, dict):
                raise ValueError("channels is not an object")
        except (OSError, ValueError, KeyError, AttributeError) as exc:
            log.warning("the record of turn %d's posts (%s) cannot be read (%s): every "
                        "channel is posted", turn, path, exc)
            channels = {}
        return cls(path, turn, channels)

    def start(self, webhook: Webhook, messages: list[Message]) -> int:
        """How many of ``messages`` the channel has already: all of them if it has the whole
        turn (whatever it was sent), the ones a stopped run posted if they are these, else
        none."""
        entry = self.channels.get(channel_key(webhook))
        if not isinstance(entry, dict):
            return 0
        sent, of = entry.get("sent"), entry.get("of")
        if not isinstance(sent, int) or not isinstance(of, int):
            return 0
        if of and sent >= of:
            return len(messages)
        if entry.get("digest") == digest(webhook, messages) and of == len(messages):
            return max(0, min(sent, len(messages)))
        return 0

    def note(self, webhook: Webhook, messages: list[Message], sent: int) -> None:
        """``sent`` of the channel's ``messages`` are posted: written down at once."""
        self.channels[channel_key(webhook)] = {
            "channel": webhook.label, "sent": sent, "of": len(messages),
            "digest": digest(webhook, messages)}
        self.save()

    def save(self) -> None:
        if self.path is None:
            return
        text = json.dumps({"turn": self.turn, "about": "the channels sheetmaster posted this "
                           "turn to, and how many messages each got (sheetmaster post reads "
                           "it, to post nothing twice)", "channels": self.channels},
                          indent=2, ensure_ascii=False)
        with temp_beside(self.path) as temp:
            temp.write_text(text + "\n", encoding="utf-8")
            temp.chmod(file_mode(self.path))
            replace_atomically(temp, self.path)
