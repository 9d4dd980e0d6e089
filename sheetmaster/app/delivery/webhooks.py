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
  report: no player may be named GM; ``#`` starts a comment), or the same as a JSON object.
  One secret for all players because a workflow can only hand a job secrets it names: a
  secret per player would mean editing the workflow for every player who joins.

Those are the default names; each game of a games.toml reads its own two from the names its
``[game.secrets]`` gives (:mod:`sheetmaster.app.games`). A webhook is one channel's: two channels
given one webhook (of one game here, of two games in ``nightly --all``) are refused before
anything is resolved, as one would read what is posted for the other.

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

from sheetmaster.app.exits import UsageError

PUBLIC_ENV = "SHEETMASTER_DISCORD_WEBHOOK"
PLAYERS_ENV = "SHEETMASTER_DISCORD_PLAYER_WEBHOOKS"
GM_KEY = "GM"
HIDDEN = "[webhook]"
#: a webhook's address; for scrubbing, its path alone too (urllib3 logs the path).
_PATH = r"/api(?:/v\d+)?/webhooks/\d+/[\w.~-]+(?:\?[^\s'\"]*)?"
_ADDRESS = re.compile(r"[a-z][a-z0-9+.-]*://[^\s/'\"]+" + _PATH, re.IGNORECASE)
_ANYWHERE = re.compile(r"(?:[a-z][a-z0-9+.-]*://[^\s/'\"]+)?" + _PATH, re.IGNORECASE)
_LOCAL = ("127.0.0.1", "localhost", "::1")
_ID = re.compile(r"/api(?:/v\d+)?/webhooks/(\d+)/", re.IGNORECASE)


@dataclass(frozen=True)
class Webhook:
    """One channel's webhook. Its address never shows in ``repr`` or ``str``."""

    url: str = field(repr=False)
    #: who reads it, for messages: 'the public channel', "Avalon's channel".
    label: str
    #: the secret it came from.
    source: str = ""

    def __str__(self) -> str:
        return self.label


@dataclass
class Webhooks:
    public: Webhook | None = None
    #: a player's name as the secret writes it (the GM's: "GM") -> their webhook.
    players: dict[str, Webhook] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.public is not None or bool(self.players)

    def all(self) -> list[Webhook]:
        """Every channel's webhook: the public one first."""
        return ([self.public] if self.public else []) + list(self.players.values())

    def addresses(self) -> list[str]:
        return [w.url for w in self.all()]

    def of(self, player: str) -> Webhook | None:
        """The webhook of ``player`` (names compared as the sheet compares them)."""
        from sheetmaster.kit import values  # (see from_env)

        folded = values.fold(player)
        return next((w for name, w in self.players.items() if values.fold(name) == folded),
                    None)


def from_env(environ: Mapping[str, str] | None = None, *, public: str = PUBLIC_ENV,
             players: str = PLAYERS_ENV) -> Webhooks:
    """The webhooks the environment's secrets give (``public`` and ``players``: the names of
    the two secrets, a game's own in games.toml); a malformed secret is a usage error that
    names the secret and the line, never the address. Each channel has a webhook of its own:
    two channels with one webhook are refused (the GM's full report, or one player's own,
    would be posted where others read it)."""
    # kit.values brings numpy: imported here, as the command line's parser reads this
    # module's names (--discord's help) and must start at once
    from sheetmaster.kit import values

    environ = os.environ if environ is None else environ
    found = Webhooks()
    address = environ.get(public, "").strip()
    if address:
        found.public = Webhook(_checked(address, public), "the public channel", public)
    text = environ.get(players, "").strip()
    seen: dict[str, str] = {}
    for name, url in _entries(text, players) if text else ():
        if values.fold(name) in seen:
            raise UsageError(f"{players}: {name!r} is given two webhooks (as "
                             f"{seen[values.fold(name)]!r} too)")
        seen[values.fold(name)] = name
        label = "the GM's channel" if values.fold(name) == values.fold(GM_KEY) else \
            f"{name}'s channel"
        found.players[name] = Webhook(_checked(url, f"{players} ({name})"), label, players)
    same = shared_webhooks({"": found})
    if same:
        (_, one), (_, other) = same[0]
        raise UsageError(f"{one} and {other} have the same webhook ({_sources(one, other)}): "
                         f"each channel needs a webhook of its own, or one would read what "
                         f"is posted for the other")
    return found


def webhook_id(url: str) -> str:
    """What tells one webhook from another: its number (the same webhook can be written with
    discord.com or discordapp.com, an API version, a query)."""
    found = _ID.search(url)
    return found.group(1) if found else url


def shared_webhooks(channels: Mapping[str, Webhooks]
                    ) -> list[tuple[tuple[str, Webhook], tuple[str, Webhook]]]:
    """Each pair of channels (game, webhook) that post to one webhook, games given as
    ``{game: webhooks}``, in the order given."""
    first: dict[str, tuple[str, Webhook]] = {}
    pairs = []
    for game, webhooks in channels.items():
        for hook in webhooks.all():
            key = webhook_id(hook.url)
            if key in first:
                pairs.append((first[key], (game, hook)))
            else:
                first[key] = (game, hook)
    return pairs


def _sources(*hooks: Webhook) -> str:
    names = list(dict.fromkeys(h.source for h in hooks if h.source))
    return f"the secret{'s' if len(names) > 1 else ''} {' and '.join(names)}"


def _entries(text: str, secret: str = PLAYERS_ENV) -> list[tuple[str, str]]:
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{secret} is not valid JSON (line {exc.lineno}): write "
                             f"one 'Player = address' a line, or a JSON object") from None
        if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                 for k, v in data.items()):
            raise UsageError(f"{secret}: the JSON must map each player's name to an "
                             "address")
        return [(k.strip(), v.strip()) for k, v in data.items()]
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, equals, url = line.partition("=")
        if not equals or not name.strip() or not url.strip():
            raise UsageError(f"{secret}, line {number}: write 'Player name = address'")
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
