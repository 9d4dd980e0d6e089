"""When a turn may be resolved: the deadline guard shared by every store."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any


def deadline_problem(meta: dict[str, Any], now: datetime | None = None, *,
                     force_hint: bool = True) -> str:
    """Why the current turn must not be resolved yet ('' if it may be); ``force_hint`` says
    how to resolve anyway (a command that has ``--force``)."""
    deadline = meta.get("deadline_at")
    if deadline is None:
        return ""
    now = now or datetime.now(timezone.utc)
    if now < deadline:
        hint = " (use --force to resolve anyway)" if force_hint else ""
        return (f"turn {meta['turn']}'s deadline is {deadline.isoformat(sep=' ')}; orders may "
                f"still arrive{hint}")
    return ""
