"""Where the Discord webhooks come from: secrets, never the shared sheet; and keeping their
addresses out of every message and log.

A webhook's address is its password: whoever has it can post as it (and read nothing, but
forge everything). Anyone can read every tab of a shared Google Sheet, so no address ever
lives in the sheet. Two secrets (environment variables; GitHub Actions secrets of the game's
environment) give them:

- ``SHEETMASTER_DISCORD_WEBHOOK``: the public channel's webhook (the public report and the
  map);
- ``SHEETMASTER_DISCORD_PLAYER_WEBHOOKS``: each player's own channel, one a line,
  ``Player name = https://discord.com/api/webhooks/...`` (``GM = ...`` for the GM's full
  report; ``#`` starts a comment), or the same as a JSON object. One secret for all players
  because a workflow can only hand a job secrets it names: a secret per player would mean
  editing the workflow for every player who joins.

An address is never printed: :func:`scrub` blanks any webhook address (and the ones read
here, and their tokens) out of a text, :class:`ScrubbingFilter` does it to log records, and
in GitHub Actions each address read from the players' secret is masked in the job's log.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from sheetmaster import values
from sheetmaster.exits import UsageError

PUBLIC_ENV = "SHEETMASTER_DISCORD_WEBHOOK"
PLAYERS_ENV = "SHEETMASTER_DISCORD_PLAYER_WEBHOOKS"
GM_KEY = "GM"
HIDDEN = "[webhook]"
#: a webhook's address; for scrubbing, its path alone too (urllib3 logs the path).
_PATH = r"/api(?:/v\d+)?/webhooks/\d+/[\w.~-]+(?:\?[^\s'\"]*)?"
_ADDRESS = re.compile(r"[a-z][a-z0-9+.-]*://[^\s/'\"]+" + _PATH, re.IGNORECASE)
_ANYWHERE = re.compile(r"(?:[a-z][a-z0-9+.-]*://[^\s/'\"]+)?" + _PATH, re.IGNORECASE)
_LOCAL = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class Webhook:
    """One channel's webhook. Its address never shows in ``repr`` or ``str``."""

    url: str = field(repr=False)
    #: who reads it, for messages: 'the public channel', "Avalon's channel".
    label: str

    def __str__(self) -> str:
        return self.label


@dataclass
class Webhooks:
    public: Webhook | None = None
    #: a player's name as the secret writes it (the GM's: "GM") -> their webhook.
    players: dict[str, Webhook] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.public is not None or bool(self.players)

    def addresses(self) -> list[str]:
        return [w.url for w in ([self.public] if self.public else []) + list(self.players.values())]

    def of(self, player: str) -> Webhook | None:
        """The webhook of ``player`` (names compared as the sheet compares them)."""
        folded = values.fold(player)
        return next((w for name, w in self.players.items() if values.fold(name) == folded),
                    None)


def from_env(environ: Mapping[str, str] | None = None) -> Webhooks:
    """The webhooks the environment's secrets give; a malformed secret is a usage error that
    names the secret and the line, never the address."""
    environ = os.environ if environ is None else environ
    found = Webhooks()
    public = environ.get(PUBLIC_ENV, "").strip()
    if public:
        found.public = Webhook(_checked(public, PUBLIC_ENV), "the public channel")
    text = environ.get(PLAYERS_ENV, "").strip()
    if text:
        for name, url in _entries(text):
            label = "the GM's channel" if values.fold(name) == values.fold(GM_KEY) else \
                f"{name}'s channel"
            found.players[name] = Webhook(_checked(url, f"{PLAYERS_ENV} ({name})"), label)
    return found


def _entries(text: str) -> list[tuple[str, str]]:
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{PLAYERS_ENV} is not valid JSON (line {exc.lineno}): write "
                             f"one 'Player = address' a line, or a JSON object") from None
        if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                 for k, v in data.items()):
            raise UsageError(f"{PLAYERS_ENV}: the JSON must map each player's name to an "
                             "address")
        return [(k.strip(), v.strip()) for k, v in data.items()]
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, equals, url = line.partition("=")
        if not equals or not name.strip() or not url.strip():
            raise UsageError(f"{PLAYERS_ENV}, line {number}: write 'Player name = address'")
        entries.append((name.strip(), url.strip()))
    return entries


def _checked(url: str, where: str) -> str:
    """A webhook address as Discord gives it: https (plain http only to this machine)."""
    parts = urlsplit(url)
    local = parts.hostname in _LOCAL
    if parts.scheme != "https" and not (parts.scheme == "http" and local):
        raise UsageError(f"{where}: a webhook address starts with https://")
    if not _ADDRESS.fullmatch(url):
        raise UsageError(f"{where}: not a webhook address (Discord's look like "
                         "https://discord.com/api/webhooks/NUMBER/TOKEN)")
    return url


def scrub(text: str, addresses: list[str] | tuple[str, ...] = ()) -> str:
    """``text`` without any webhook address or token in it."""
    for url in addresses:
        text = text.replace(url, HIDDEN)
        token = urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1]
        if len(token) >= 16:
            text = text.replace(token, "[token]")
    return _ANYWHERE.sub(HIDDEN, text)


class ScrubbingFilter(logging.Filter):
    """Blanks webhook addresses out of every record a handler is given (urllib3's debug
    lines name the request's path, token and all)."""

    def __init__(self, addresses: list[str]) -> None:
        super().__init__()
        self.addresses = list(addresses)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = scrub(message, self.addresses)
        if clean != message:
            record.msg, record.args = clean, ()
        return True


@contextmanager
def scrubbed_logs(addresses: list[str]) -> Iterator[None]:
    """While posting: every log handler there is scrubs webhook addresses."""
    scrubber = ScrubbingFilter(addresses)
    handlers = {*logging.getLogger().handlers, *logging.getLogger("sheetmaster").handlers}
    if logging.lastResort is not None:
        handlers.add(logging.lastResort)
    for handler in handlers:
        handler.addFilter(scrubber)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(scrubber)


def mask_in_github_actions(webhooks: Webhooks, environ: Mapping[str, str] | None = None
                           ) -> None:
    """In GitHub Actions, ask the runner to mask each address in the job's log: it masks a
    secret's whole value, not the addresses inside a multi-address secret."""
    environ = os.environ if environ is None else environ
    if environ.get("GITHUB_ACTIONS") != "true":
        return
    for url in webhooks.addresses():
        sys.stdout.write(f"::add-mask::{url}\n")
    sys.stdout.flush()
