"""When a turn may be resolved: the deadline guard shared by every store."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any


def deadline_problem(meta: dict[str, Any], now: datetime | None = None) -> str:
    """Why the current turn must not be resolved yet ('' if it may be)."""
    deadline = meta.get("deadline_at")
    if deadline is None:
        return ""
    now = now or datetime.now(timezone.utc)
    if now < deadline:
        return (f"turn {meta['turn']}'s deadline is {deadline.isoformat(sep=' ')}; orders may "
                f"still arrive (use --force to resolve anyway)")
    return ""
