"""Retrying Google requests safely, and saying clearly (and without secrets) why they failed.

Retried, with jittered exponential back-off under an overall deadline: 408, 429 and 5xx
answers, lost connections and timeouts, and the same troubles on the way to Google's token
endpoint (a network that cannot reach it, a 5xx from it). Not retried: what waiting cannot
fix, such as a key Google refuses (``invalid_grant``: revoked, deleted, or a clock far off).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import requests
from google.auth.exceptions import RefreshError, TransportError
from gspread.exceptions import APIError
from tenacity import (
    RetryError,
    Retrying,
    retry_if_exception,
    stop_after_delay,
    wait_random_exponential,
)

from sheetmaster.stores.base import StoreError
from sheetmaster.stores.google_auth import redact

RETRY_STATUS = {408, 429, 500, 502, 503, 504}
T = TypeVar("T")


def _retryable(exc: BaseException) -> bool:
    if isinstance(exc, APIError):
        return _status(exc) in RETRY_STATUS
    if isinstance(exc, TransportError):
        return True  # the token endpoint could not be reached
    if isinstance(exc, RefreshError):
        return bool(getattr(exc, "retryable", False))  # e.g. a 5xx from the token endpoint
    return isinstance(exc, (requests.ConnectionError, requests.Timeout))


def _status(exc: APIError) -> int:
    code = getattr(exc, "code", None)
    if isinstance(code, int):
        return code
    response = getattr(exc, "response", None)
    return getattr(response, "status_code", 0) or 0


@dataclass
class RetryPolicy:
    """Jittered exponential back-off, given up after ``deadline`` seconds in all."""

    deadline: float = 300.0
    first_wait: float = 0.5
    max_wait: float = 30.0
    attempts: int = field(default=0, init=False)

    def call(self, what: str, request: Callable[[], T]) -> T:
        retrying = Retrying(
            retry=retry_if_exception(_retryable),
            wait=wait_random_exponential(multiplier=self.first_wait, max=self.max_wait),
            stop=stop_after_delay(self.deadline),
            reraise=False,
        )
        try:
            for attempt in retrying:
                with attempt:
                    self.attempts += 1
                    return request()
        except RetryError as exc:
            last = exc.last_attempt.exception()
            if isinstance(last, (TransportError, RefreshError)):
                raise StoreError(f"could not sign in to Google while {what}: its sign-in "
                                 f"service (the token endpoint) kept failing for "
                                 f"{self.deadline:.0f} s ({_describe(last)}); check this "
                                 f"machine's network and try again later. Nothing more was "
                                 f"sent") from None
            raise StoreError(f"Google Sheets kept failing while {what} for "
                             f"{self.deadline:.0f} s ({_describe(last)}); nothing more was "
                             f"sent, try again later") from None
        except RefreshError as exc:
            raise StoreError(f"Google refused sheetmaster's credentials while {what} "
                             f"({_describe(exc)}): the service account key was revoked or "
                             f"deleted, or this machine's clock is wrong. Make a new key "
                             f"(Google Cloud console: IAM & Admin -> Service accounts -> Keys) "
                             f"and put it where sheetmaster reads it "
                             f"(SHEETMASTER_SERVICE_ACCOUNT_JSON or --credentials). Nothing "
                             f"was changed") from None
        except APIError as exc:
            raise StoreError(f"Google Sheets refused {what}: {_describe(exc)}") from None
        raise AssertionError("unreachable")


def _describe(exc: BaseException | None) -> str:
    if isinstance(exc, APIError):
        error = getattr(exc, "error", {}) or {}
        status = error.get("status") or ""
        message = error.get("message") or str(exc)
        return redact(f"{_status(exc)} {status}: {message}".strip())
    if isinstance(exc, RefreshError) and exc.args:
        return redact(f"{type(exc).__name__}: {exc.args[0]}")
    return redact(f"{type(exc).__name__}: {exc}") if exc else "unknown error"
