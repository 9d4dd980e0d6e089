"""Posting to a Discord webhook: one message with its files, within Discord's limits, with
retries, and nothing a player typed able to ping anyone.

Each message is a ``multipart/form-data`` POST (Discord's "execute webhook"): a
``payload_json`` part with the content, ``allowed_mentions: {"parse": []}`` (no @everyone,
no role or user pings, whatever the text says) and one ``attachments`` entry per file, and a
``files[N]`` part per file. Discord answers 429 when a webhook posts too fast (its body's
``retry_after`` says how long to wait, and is honoured) and 5xx when it is unwell: both are
retried with back-off (tenacity) until ``deadline`` seconds have gone by. When a response
says the webhook's bucket is empty (``X-RateLimit-Remaining: 0``), that webhook's next post
waits for ``X-RateLimit-Reset-After`` first, so a long report rarely meets a 429 at all.
"""

from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import dataclass

import requests
from tenacity import (
    RetryCallState,
    RetryError,
    Retrying,
    retry_if_exception,
    stop_after_delay,
    wait_random_exponential,
)

from sheetmaster.stores.base import StoreError

from .messages import MAX_CONTENT
from .webhooks import Webhook, scrub

log = logging.getLogger("sheetmaster")

#: files in one message, and their bytes together: the smallest limit Discord gives a server.
MAX_FILES = 10
MAX_UPLOAD = 8 * 1024 * 1024
#: the environment variable (shared with the Sheets store) that bounds the retries, seconds.
DEADLINE_ENV = "SHEETMASTER_RETRY_DEADLINE"
REQUEST_TIMEOUT = 60.0
NO_PINGS = {"parse": []}


class DeliveryError(StoreError):
    """A message could not be posted; the text names the channel, never its address."""


@dataclass(frozen=True)
class Attachment:
    name: str
    data: bytes
    kind: str = "application/octet-stream"


class _Retry(Exception):
    """A response worth trying again: 429 (``wait``: Discord's retry_after) or 5xx."""

    def __init__(self, status: int, wait: float | None, text: str) -> None:
        super().__init__(f"{status}: {text}")
        self.status, self.wait = status, wait


def _retryable(exc: BaseException) -> bool:
    return isinstance(exc, (_Retry, requests.ConnectionError, requests.Timeout))


class DiscordClient:
    """Posts messages to webhooks, one at a time, within Discord's limits."""

    def __init__(self, *, deadline: float | None = None, first_wait: float = 1.0,
                 max_wait: float = 60.0, session: requests.Session | None = None) -> None:
        self.deadline = deadline if deadline is not None else _deadline()
        self.first_wait, self.max_wait = first_wait, max_wait
        self.session = session or requests.Session()
        #: webhook address -> monotonic time before which its next post waits (its rate
        #: limit's bucket is empty: Discord's buckets are a webhook's own).
        self._quiet_until: dict[str, float] = {}
        self.posted = 0
        self.retries = 0

    def post(self, webhook: Webhook, content: str, files: list[Attachment] = ()) -> None:
        """One message; raises DeliveryError (after the retries) if Discord will not take it."""
        files = list(files)
        if len(content) > MAX_CONTENT:
            raise ValueError(f"a message of {len(content)} characters (at most {MAX_CONTENT})")
        if len(files) > MAX_FILES or sum(len(f.data) for f in files) > MAX_UPLOAD:
            raise ValueError("too many files or bytes for one message")
        payload = {"content": content, "allowed_mentions": NO_PINGS,
                   "attachments": [{"id": i, "filename": f.name} for i, f in enumerate(files)]}
        parts = {"payload_json": (None, json.dumps(payload), "application/json")}
        for i, f in enumerate(files):
            parts[f"files[{i}]"] = (f.name, f.data, f.kind)
        retrying = Retrying(retry=retry_if_exception(_retryable), wait=self._wait,
                            stop=stop_after_delay(self.deadline), reraise=False,
                            before_sleep=self._say_retry(webhook))
        try:
            for attempt in retrying:
                with attempt:
                    self._send(webhook, parts)
        except RetryError as exc:
            last = exc.last_attempt.exception()
            raise DeliveryError(f"Discord kept failing for {self.deadline:.0f} s while posting "
                                f"to {webhook} ({self._describe(webhook, last)})") from None
        self.posted += 1

    def _send(self, webhook: Webhook, parts: dict) -> None:
        pause = self._quiet_until.get(webhook.url, 0.0) - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        try:
            response = self.session.post(webhook.url, files=parts, timeout=REQUEST_TIMEOUT)
        except requests.RequestException as exc:
            if isinstance(exc, (requests.ConnectionError, requests.Timeout)):
                raise type(exc)(scrub(str(exc), [webhook.url])) from None
            raise DeliveryError(f"could not post to {webhook}: "
                                f"{scrub(str(exc), [webhook.url])}") from None
        self._note_bucket(webhook, response)
        if response.status_code == 429 or response.status_code >= 500:
            raise _Retry(response.status_code, _retry_after(response),
                         _reason(response, webhook))
        if response.status_code >= 400:
            raise DeliveryError(f"Discord refused the message to {webhook}: "
                                f"{response.status_code} {_reason(response, webhook)}")

    def _note_bucket(self, webhook: Webhook, response: requests.Response) -> None:
        if response.headers.get("X-RateLimit-Remaining") == "0":
            try:
                after = float(response.headers.get("X-RateLimit-Reset-After", "0"))
            except ValueError:
                return
            self._quiet_until[webhook.url] = time.monotonic() + min(max(after, 0.0),
                                                                     self.max_wait)

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, _Retry) and exc.wait is not None:
            return min(exc.wait, self.max_wait)
        return wait_random_exponential(multiplier=self.first_wait, max=self.max_wait)(state)

    def _say_retry(self, webhook: Webhook):
        def say(state: RetryCallState) -> None:
            self.retries += 1
            exc = state.outcome.exception() if state.outcome else None
            log.info("Discord: %s while posting to %s; trying again in %.1f s",
                     self._describe(webhook, exc), webhook,
                     state.next_action.sleep if state.next_action else 0.0)
        return say

    @staticmethod
    def _describe(webhook: Webhook, exc: BaseException | None) -> str:
        if exc is None:
            return "unknown error"
        if isinstance(exc, _Retry):
            return str(exc)
        return scrub(f"{type(exc).__name__}: {exc}", [webhook.url])


def _retry_after(response: requests.Response) -> float | None:
    """Seconds Discord asks to wait: the body's retry_after, else the Retry-After header."""
    try:
        body = response.json()
        if isinstance(body, dict) and isinstance(body.get("retry_after"), (int, float)):
            return max(0.0, float(body["retry_after"]))
    except ValueError:
        pass
    try:
        return max(0.0, float(response.headers.get("Retry-After", "")))
    except ValueError:
        return None


def _reason(response: requests.Response, webhook: Webhook) -> str:
    try:
        body = response.json()
        text = body.get("message", "") if isinstance(body, dict) else ""
    except ValueError:
        text = response.text[:200]
    return scrub(str(text or response.reason or ""), [webhook.url])


def _deadline() -> float:
    try:
        return max(0.0, float(os.environ.get(DEADLINE_ENV, "") or 300))
    except ValueError:
        return 300.0
