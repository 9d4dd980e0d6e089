"""Google credentials for the Sheets store, and keeping secrets out of every message.

Where credentials come from, first found wins:

1. ``SHEETMASTER_SERVICE_ACCOUNT_JSON``: the service account key file's *content* (a GitHub
   secret, for instance);
2. a key file path: ``--credentials FILE`` or ``SHEETMASTER_CREDENTIALS_FILE``;
3. Application Default Credentials (``GOOGLE_APPLICATION_CREDENTIALS``, gcloud, or keyless
   Workload Identity Federation in GitHub Actions via google-github-actions/auth).

Every way is scoped to Google Sheets only.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from typing import Any

SCOPES = ("https://www.googleapis.com/auth/spreadsheets",)
JSON_ENV = "SHEETMASTER_SERVICE_ACCOUNT_JSON"
FILE_ENV = "SHEETMASTER_CREDENTIALS_FILE"

_KEY_BLOCK = re.compile(
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)", re.S)
_JSON_SECRET = re.compile(
    r'("(?:private_key|private_key_id|access_token|refresh_token|id_token|client_secret)"'
    r'\s*:\s*")[^"]*(")')
_TOKEN = re.compile(r"\bya29\.[\w.\-]+")
_BEARER = re.compile(r"(Bearer\s+)[\w.\-]+")


class CredentialsError(Exception):
    """No usable Google credentials; the message says where sheetmaster looked."""


def redact(text: str, extra: tuple[str, ...] = ()) -> str:
    """``text`` with private keys, tokens and the given secret strings blanked out."""
    for secret in extra:
        if secret and len(secret) >= 8:
            text = text.replace(secret, "[redacted]")
    text = _KEY_BLOCK.sub("[redacted]", text)
    text = _JSON_SECRET.sub(r"\1[redacted]\2", text)
    text = _TOKEN.sub("[redacted]", text)
    text = _BEARER.sub(r"\1[redacted]", text)
    return text


def load_credentials(path: str | None = None, env: Mapping[str, str] | None = None) -> Any:
    """Google credentials scoped to Sheets, from the first source that has them."""
    env = os.environ if env is None else env
    from google.oauth2 import service_account

    content = env.get(JSON_ENV, "").strip()
    if content:
        try:
            info = json.loads(content)
            return service_account.Credentials.from_service_account_info(info, scopes=SCOPES)
        except (ValueError, KeyError) as exc:
            raise CredentialsError(f"{JSON_ENV} does not hold a service account key "
                                   f"({type(exc).__name__}); paste the whole JSON key") from None
    path = path or env.get(FILE_ENV, "").strip() or None
    if path:
        return _from_file(path)
    import google.auth
    from google.auth.exceptions import DefaultCredentialsError

    try:
        credentials, _ = google.auth.default(scopes=list(SCOPES))
    except DefaultCredentialsError:
        raise CredentialsError(
            f"no Google credentials: set {JSON_ENV} to a service account key, pass "
            f"--credentials FILE, or set up Application Default Credentials") from None
    return credentials


def _from_file(path: str) -> Any:
    """A service account key, or a Workload Identity Federation configuration file."""
    from google.auth import identity_pool
    from google.oauth2 import service_account

    try:
        with open(path, encoding="utf-8") as f:
            info = json.load(f)
    except FileNotFoundError:
        raise CredentialsError(f"credentials file {path} does not exist") from None
    except (OSError, ValueError) as exc:
        raise CredentialsError(f"credentials file {path} is not JSON "
                               f"({type(exc).__name__})") from None
    kind = info.get("type") if isinstance(info, dict) else None
    try:
        if kind == "service_account":
            return service_account.Credentials.from_service_account_info(info, scopes=SCOPES)
        if kind == "external_account":
            return identity_pool.Credentials.from_info(info, scopes=SCOPES)
    except (ValueError, KeyError) as exc:
        raise CredentialsError(f"credentials file {path} holds a {kind} key sheetmaster "
                               f"cannot use ({type(exc).__name__}: {redact(str(exc))})") from None
    raise CredentialsError(f"credentials file {path} is not a service account key or a "
                           f"workload identity configuration (type: {kind!r})")


def service_account_email(credentials: Any) -> str:
    return getattr(credentials, "service_account_email", "") or ""
