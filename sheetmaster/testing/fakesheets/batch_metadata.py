"""Developer metadata: its API JSON view, data filter matching, and the batchUpdate requests
createDeveloperMetadata, updateDeveloperMetadata, deleteDeveloperMetadata."""

from __future__ import annotations

import copy
from typing import Any

from .batch_common import _dim_range, _int, _Requests, _sheet
from .errors import _RequestError
from .identity import Caller
from .masks import _parse_mask
from .model import _Book

#: where the fake keeps the project that wrote a PROJECT-visible entry (never shown).
_PROJECT = "_project"


def visible(meta: dict[str, Any], viewer: Caller | None) -> bool:
    """PROJECT-visible metadata is seen only by the Cloud project that wrote it; DOCUMENT-
    visible metadata by anyone with access to the spreadsheet (None: the fake's helpers)."""
    return (viewer is None or meta.get("visibility") != "PROJECT"
            or meta.get(_PROJECT) == viewer.project)


def _metadata_out(meta: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(meta)
    out.pop(_PROJECT, None)
    loc = out["location"]
    if loc.get("spreadsheet"):
        loc["locationType"] = "SPREADSHEET"
    elif "sheetId" in loc:
        loc["locationType"] = "SHEET"
    else:
        loc["locationType"] = "ROW" if loc["dimensionRange"]["dimension"] == "ROWS" else "COLUMN"
    return out


def _metadata_matches(book: _Book, meta: dict[str, Any], data_filter: Any) -> bool:
    if not isinstance(data_filter, dict) or "developerMetadataLookup" not in data_filter:
        raise _RequestError("FakeSheetsServer only supports developerMetadataLookup filters")
    if not visible(meta, book.acting):
        return False
    lookup = data_filter["developerMetadataLookup"]
    out = _metadata_out(meta)
    for key in ("metadataId", "metadataKey", "metadataValue", "visibility"):
        if key in lookup and out.get(key) != lookup[key]:
            return False
    if "locationType" in lookup and out["location"]["locationType"] != lookup["locationType"]:
        return False
    where = lookup.get("metadataLocation")
    if where:
        loc = out["location"]
        if "locationType" in where and loc["locationType"] != where["locationType"]:
            return False
        for key in ("spreadsheet", "sheetId", "dimensionRange"):
            if key in where and loc.get(key) != where[key]:
                return False
    return True


class _MetadataRequests(_Requests):
    """Request handlers for developer metadata."""

    def _check_location(self, loc: Any) -> dict[str, Any]:
        if not isinstance(loc, dict):
            raise _RequestError("Developer metadata must have a location")
        loc = {k: v for k, v in loc.items() if k != "locationType"}
        if len(loc) != 1:
            raise _RequestError("A metadata location must set exactly one of spreadsheet, "
                                "sheetId or dimensionRange")
        if "spreadsheet" in loc:
            if loc["spreadsheet"] is not True:
                raise _RequestError("location.spreadsheet must be true")
        elif "sheetId" in loc:
            _sheet(self.book, loc["sheetId"])
        elif "dimensionRange" in loc:
            _dim_range(self.book, loc["dimensionRange"])
        else:
            raise _RequestError(f"Unknown metadata location: {sorted(loc)}")
        return copy.deepcopy(loc)

    def _r_createDeveloperMetadata(self, body: dict[str, Any]) -> dict[str, Any]:
        dm = copy.deepcopy(body.get("developerMetadata") or {})
        if not dm.get("metadataKey"):
            raise _RequestError("Developer metadata must always have a key specified.")
        if dm.get("visibility") not in ("DOCUMENT", "PROJECT"):
            raise _RequestError("Developer metadata must always have a visibility specified.")
        dm["location"] = self._check_location(dm.get("location"))
        taken = [m["metadataId"] for m in self.book.metadata]
        if "metadataId" in dm:
            _int(dm["metadataId"], "metadataId", 1)
            if dm["metadataId"] in taken:
                raise _RequestError(f"Developer metadata with id {dm['metadataId']} exists.")
        else:
            dm["metadataId"] = self.book.new_id(taken)
        if dm["visibility"] == "PROJECT":
            dm[_PROJECT] = self.book.acting.project if self.book.acting else "default"
        self.book.metadata.append(dm)
        return {"createDeveloperMetadata": {"developerMetadata": _metadata_out(dm)}}

    def _r_updateDeveloperMetadata(self, body: dict[str, Any]) -> dict[str, Any]:
        filters = body.get("dataFilters") or []
        given = body.get("developerMetadata") or {}
        mask = _parse_mask(body.get("fields") or "")
        if "*" in mask:
            mask = {k: None for k in given if k != "metadataId"}
        updated = []
        for meta in self.book.metadata:
            if any(_metadata_matches(self.book, meta, f) for f in filters):
                for key in mask:
                    if key not in ("metadataKey", "metadataValue", "visibility", "location"):
                        raise _RequestError(f"Invalid field mask: {key} cannot be updated")
                    if key == "location":
                        meta["location"] = self._check_location(given.get("location"))
                    elif key in given:
                        meta[key] = given[key]
                    else:
                        meta.pop(key, None)
                updated.append(_metadata_out(meta))
        return {"updateDeveloperMetadata": {"developerMetadata": updated}}

    def _r_deleteDeveloperMetadata(self, body: dict[str, Any]) -> dict[str, Any]:
        data_filter = body.get("dataFilter")
        deleted = [m for m in self.book.metadata
                   if _metadata_matches(self.book, m, data_filter)]
        if not deleted:
            # Google refuses to delete what is not there (e.g. a lock another run already
            # removed), and the whole batch with it.
            raise _RequestError("No developer metadata matches the data filter.")
        self.book.metadata = [m for m in self.book.metadata if m not in deleted]
        return {"deleteDeveloperMetadata": {
            "deletedDeveloperMetadata": [_metadata_out(m) for m in deleted]}}
