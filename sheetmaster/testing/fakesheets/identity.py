"""Who is calling: Google accounts and Cloud projects, and a stand-in OAuth token endpoint.

Google knows the caller from the request's OAuth access token: the account (a user or a
service account) and the Cloud project of the OAuth client. Both matter to the API: a
protected range is edited only by its editors (and the spreadsheet's owner), and developer
metadata with ``PROJECT`` visibility is seen only by the project that wrote it.

The fake reads the caller from ``Authorization: Bearer fake:EMAIL:PROJECT``. A session from
:meth:`FakeSheetsServer.session` with ``user=`` sends that header; real google-auth credentials
get such a token from the fake's token endpoint (``FakeSheetsServer.token_uri``), which
accepts the JWT bearer grant a service account key signs (the signature is not checked) and
answers ``fake:<the key's client_email>:<its project>``. A request without a token acts as
the spreadsheet's owner, so code that sends no credentials (the CLI with
``SHEETMASTER_SHEETS_ENDPOINT``) can do anything the owner can.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

DEFAULT_OWNER = "owner@example.com"
_SERVICE_ACCOUNT = re.compile(r"^[^@]+@([a-z0-9-]+)\.iam\.gserviceaccount\.com$", re.I)
_JWT_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"


@dataclass(frozen=True)
class Caller:
    """An authenticated caller: the account's e-mail and the Cloud project it calls from."""

    email: str
    project: str

    @property
    def token(self) -> str:
        return f"fake:{self.email}:{self.project}"


#: a request without a token: it acts as the spreadsheet's owner, from a 'default' project.
ANONYMOUS = Caller("", "default")


def may_edit(owner: str, editors: Any, caller: Caller | None) -> bool:
    """Whether ``caller`` may edit a protected range: the owner always may, and so may the
    users its ``editors`` list (a ProtectedRange's ``editors`` object); None is the fake's
    own helpers, which may do anything."""
    if caller is None or caller.email in ("", owner):
        return True
    users = (editors or {}).get("users") or []
    return caller.email.casefold() in {u.casefold() for u in users}


def project_of(email: str) -> str:
    """The project a service account belongs to (from its address), or 'default'."""
    match = _SERVICE_ACCOUNT.match(email)
    return match.group(1) if match else "default"


def caller_from(headers: Mapping[str, str]) -> Caller | None:
    """The caller a request's bearer token names; None for a request without a token."""
    auth = headers.get("Authorization") or ""
    if not auth.startswith("Bearer fake:"):
        return None
    parts = auth[len("Bearer fake:"):].split(":", 1)
    if len(parts) != 2 or not parts[0]:
        return None
    return Caller(parts[0], parts[1])


def token_reply(raw: bytes, error: str | int | None) -> tuple[int, dict[str, Any]]:
    """The token endpoint's answer (status, JSON) to a JWT bearer grant.

    ``error`` makes it fail as Google's does: ``"invalid_grant"`` (a key that was revoked or
    deleted) answers 400, an int answers that status (e.g. 503).
    """
    if isinstance(error, int):
        return error, {"error": "internal_failure", "error_description": "Backend Error"}
    if error:
        return 400, {"error": error, "error_description": "Invalid JWT Signature."}
    form = {k: v[-1] for k, v in parse_qs(raw.decode("utf-8", "replace")).items()}
    if form.get("grant_type") != _JWT_GRANT or "assertion" not in form:
        return 400, {"error": "unsupported_grant_type",
                     "error_description": "Invalid grant_type."}
    try:
        payload = form["assertion"].split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        email = str(claims["iss"])
    except (IndexError, KeyError, ValueError):
        return 400, {"error": "invalid_grant", "error_description": "Invalid JWT."}
    caller = Caller(email, project_of(email))
    return 200, {"access_token": caller.token, "expires_in": 3600, "token_type": "Bearer"}


def service_account_key(email: str, token_uri: str) -> dict[str, Any]:
    """A service account key (the JSON Google hands out) for ``email`` with a fresh RSA key,
    whose tokens come from ``token_uri`` (a FakeSheetsServer's :attr:`token_uri`)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    return {"type": "service_account", "project_id": project_of(email),
            "private_key_id": "0" * 40, "private_key": pem, "client_email": email,
            "client_id": "1", "token_uri": token_uri}
