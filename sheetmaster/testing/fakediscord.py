"""A fake Discord webhook endpoint served over HTTP on 127.0.0.1, for tests (no network).

It takes "execute webhook" POSTs as Discord does and checks what a test cannot see from the
client's side: a ``multipart/form-data`` body, a ``payload_json`` part with content of at
most 2,000 characters and ``allowed_mentions`` that allows no ping, one ``files[N]`` part
per ``attachments`` entry, at most 10 files and 8 MiB in all. A breach is answered 400 like
Discord (and recorded in ``refused``); a good message is recorded in ``messages``.

::

    with FakeDiscord() as discord:
        url = discord.webhook("public")        # http://127.0.0.1:PORT/api/webhooks/1/...
        discord.fail_next(429, retry_after=0.05)
        ... post ...
        discord.messages[0].content, discord.messages[0].files

``fail_next(status, retry_after=None, times=1)`` queues error answers (429 with Discord's
body and Retry-After header, or a 5xx); ``bucket`` (an int) makes each answer carry
``X-RateLimit-Remaining`` counting down to 0 with ``X-RateLimit-Reset-After``; a token not
made by :meth:`webhook` is answered 404 Unknown Webhook.

``rate_limit = (posts, seconds)`` holds each webhook to Discord's rate limit as Discord does:
at most ``posts`` messages in any ``seconds``, every answer saying what is left
(``X-RateLimit-Remaining``) and when the window has room again
(``X-RateLimit-Reset-After``), and a post past the limit answered 429 with its
``retry_after`` (counted in ``limited``), not taken. A client that heeds the headers is never
answered 429.
"""

from __future__ import annotations

import email.parser
import email.policy
import json
import math
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MAX_CONTENT = 2000
MAX_FILES = 10
MAX_UPLOAD = 8 * 1024 * 1024


@dataclass
class Message:
    """A message the fake accepted."""

    webhook: str  # the name given to webhook()
    content: str
    files: dict[str, bytes]
    payload: dict[str, Any]
    #: each file part's Content-Type.
    kinds: dict[str, str] = field(default_factory=dict)


class FakeDiscord:
    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.refused: list[str] = []
        self.requests = 0
        self.bucket: int | None = None
        self.reset_after = 0.05
        self.rate_limit: tuple[int, float] | None = None
        self.limited = 0
        self._sent: dict[str, list[float]] = {}  # a webhook's posts' times, in the window
        self._tokens: dict[str, str] = {}
        self._faults: list[tuple[int, float | None]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def webhook(self, name: str) -> str:
        """A webhook address for a channel called ``name`` (messages record the name)."""
        number = len(self._tokens) + 1
        token = f"tok{number:02d}-" + "x" * 40
        self._tokens[f"{number}/{token}"] = name
        return f"{self.url}/api/webhooks/{number}/{token}"

    def fail_next(self, status: int, retry_after: float | None = None, times: int = 1) -> None:
        with self._lock:
            self._faults += [(status, retry_after)] * times

    def to(self, name: str) -> list[Message]:
        return [m for m in self.messages if m.webhook == name]

    def text(self, name: str) -> str:
        """Every message the channel ``name`` got, one after the other."""
        return "\n\n".join(m.content for m in self.to(name))

    def start(self) -> FakeDiscord:
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeDiscord:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- the endpoint -----------------------------------------------------------------
    def handle(self, path: str, content_type: str, body: bytes) -> tuple[int, dict, dict]:
        with self._lock:
            self.requests += 1
            key = path.split("?", 1)[0].removeprefix("/api/webhooks/").strip("/")
            name = self._tokens.get(key)
            if name is None:
                return 404, {"message": "Unknown Webhook", "code": 10015}, {}
            if self._faults:
                status, wait = self._faults.pop(0)
                if status == 429:
                    wait = 0.01 if wait is None else wait
                    return 429, {"message": "You are being rate limited.",
                                 "retry_after": wait, "global": False}, \
                        {"Retry-After": str(max(1, round(wait)))}
                return status, {"message": "Internal Server Error", "code": 0}, {}
            if self.rate_limit is not None:
                limited, headers = self._window(key)
                if limited:
                    self.limited += 1
                    return 429, {"message": "You are being rate limited.",
                                 "retry_after": limited, "global": False}, headers
            problem, message = _read(name, content_type, body)
            if problem:
                self.refused.append(problem)
                return 400, {"message": problem, "code": 50035}, {}
            self.messages.append(message)  # type: ignore[arg-type]
            if self.rate_limit is not None:
                self._sent[key].append(time.monotonic())
                return 204, {}, self._window(key)[1]
            headers = {}
            if self.bucket is not None:
                self.bucket = max(0, self.bucket - 1)
                headers = {"X-RateLimit-Remaining": str(self.bucket),
                           "X-RateLimit-Reset-After": str(self.reset_after)}
            return 204, {}, headers


    def _window(self, key: str) -> tuple[float, dict[str, str]]:
        """(seconds a post must wait, 0 if it may go; the rate-limit headers) for a webhook,
        as its posts in the last ``rate_limit`` seconds have it."""
        posts, seconds = self.rate_limit  # type: ignore[misc]
        now = time.monotonic()
        sent = self._sent.setdefault(key, [])
        sent[:] = [t for t in sent if now - t < seconds]
        reset = math.ceil((sent[0] + seconds - now) * 1000) / 1000 if sent else 0.0
        headers = {"X-RateLimit-Limit": str(posts),
                   "X-RateLimit-Remaining": str(max(0, posts - len(sent))),
                   "X-RateLimit-Reset-After": str(max(reset, 0.0))}
        return (0.0 if len(sent) < posts else max(reset, 0.001)), headers


def _read(name: str, content_type: str, body: bytes) -> tuple[str, Message | None]:
    """The message in a multipart body, or what is wrong with it."""
    if not content_type.startswith("multipart/form-data"):
        return f"expected multipart/form-data, got {content_type!r}", None
    parsed = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body)
    parts: dict[str, Any] = {}
    for part in parsed.iter_parts():
        parts[part.get_param("name", header="content-disposition")] = part
    if "payload_json" not in parts:
        return "no payload_json part", None
    payload = json.loads(parts["payload_json"].get_content())
    content = payload.get("content", "")
    if len(content) > MAX_CONTENT:
        return f"content is {len(content)} characters (at most {MAX_CONTENT})", None
    if payload.get("allowed_mentions") != {"parse": []}:
        return f"allowed_mentions must allow no ping: {payload.get('allowed_mentions')}", None
    files: dict[str, bytes] = {}
    kinds: dict[str, str] = {}
    listed = payload.get("attachments", [])
    for entry in listed:
        part = parts.get(f"files[{entry['id']}]")
        if part is None:
            return f"attachment {entry['id']} has no files[{entry['id']}] part", None
        if part.get_filename() != entry["filename"]:
            return f"files[{entry['id']}] is named {part.get_filename()!r}, not " \
                   f"{entry['filename']!r}", None
        files[entry["filename"]] = part.get_payload(decode=True)
        kinds[entry["filename"]] = part.get_content_type()
    extra = [k for k in parts if k.startswith("files[") and k not in
             {f"files[{e['id']}]" for e in listed}]
    if extra:
        return f"file parts with no attachments entry: {extra}", None
    if len(files) > MAX_FILES or sum(len(v) for v in files.values()) > MAX_UPLOAD:
        return "too many files or bytes", None
    if not content and not files:
        return "Cannot send an empty message", None
    return "", Message(name, content, files, payload, kinds)


def _handler(fake: FakeDiscord) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            length = int(self.headers.get("Content-Length", "0") or 0)
            body = self.rfile.read(length)
            status, answer, headers = fake.handle(self.path,
                                                  self.headers.get("Content-Type", ""), body)
            data = json.dumps(answer).encode() if status != 204 else b""
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            if data:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    return Handler
