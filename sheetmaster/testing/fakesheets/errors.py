"""Errors answered in Google's JSON error shape, and invalid batchUpdate requests."""

from __future__ import annotations

from typing import Any

_STATUS = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}
_FAULT_MESSAGES = {
    429: "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute per user' "
    "of service 'sheets.googleapis.com' for consumer 'project_number:0'.",
    500: "Internal error encountered.",
    503: "The service is currently unavailable.",
    504: "The request timed out. Please try again.",
}


class _ApiError(Exception):
    """An error answered to the client in Google's JSON error shape."""

    def __init__(self, code: int, message: str, status: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status or _STATUS.get(code, "UNKNOWN")

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, "status": self.status}}


def _bad(message: str) -> _ApiError:
    return _ApiError(400, message)


class _RequestError(Exception):
    """An invalid batchUpdate request; the dispatcher prefixes ``Invalid requests[i].kind:``."""
