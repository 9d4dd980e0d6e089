"""Routing of the REST endpoints, and the spreadsheets (get, create, batchUpdate,
sheets.copyTo), developerMetadata and Drive ``files`` endpoints."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from .api_base import _q
from .api_values import _ValuesApi
from .batch_metadata import _metadata_matches, _metadata_out, visible
from .batch_update import _BatchApplier
from .errors import _ApiError, _bad, _RequestError
from .formulas import _Evaluator
from .identity import ANONYMOUS, Caller, may_edit, token_reply
from .masks import _mask_selects, _parse_mask
from .model import _Book
from .value_ranges import _clip, _grid_data


class _RestApi(_ValuesApi):
    """Routes a request to its endpoint handler; answers (status, JSON body).

    ``create_spreadsheet`` (used by spreadsheets.create and Drive files.create) is
    :meth:`FakeSheetsServer.create_spreadsheet`.
    """

    def _dispatch(self, method: str, raw_path: str, query: dict[str, list[str]],
                  raw: bytes) -> tuple[int, Any]:
        def body() -> dict[str, Any]:
            if not raw.strip():
                return {}
            try:
                parsed = json.loads(raw)
            except ValueError:
                raise _bad("Invalid JSON payload received. Unexpected token.") from None
            if not isinstance(parsed, dict):
                raise _bad("Invalid JSON payload received. Expected an object.")
            return parsed

        if raw_path == "/token" and method == "POST":
            return token_reply(raw, self.token_error)
        if raw_path.startswith("/drive/v3/files"):
            return self._drive(method, raw_path[len("/drive/v3/files"):], query, body)
        prefix = "/v4/spreadsheets"
        if not raw_path.startswith(prefix):
            raise _ApiError(404, f"Method not found: {unquote(raw_path)}")
        rest = raw_path[len(prefix):].lstrip("/")
        if rest == "":
            if method == "POST":
                return 200, self._create_from_api(body())
            raise _ApiError(404, "Method not found.")
        segments = rest.split("/")
        head = unquote(segments[0])
        if len(segments) == 1:
            if head.endswith(":batchUpdate") and method == "POST":
                return 200, self._batch_update(head[: -len(":batchUpdate")], body())
            if method == "GET":
                with self._lock:
                    book = self._access(head)
                    ranges = query.get("ranges", [])
                    fields = _q(query, "fields")
                    grid = _q(query, "includeGridData", "false").lower() == "true"
                    if fields:
                        grid = _mask_selects(_parse_mask(fields), ["sheets", "data"])
                    viewer = self._caller() or ANONYMOUS
                    return 200, self._spreadsheet_json(book, ranges, grid, viewer)
            raise _ApiError(404, "Method not found.")
        second = segments[1]
        if second == "values" and len(segments) >= 3:
            return 200, self._values_range(method, head, "/".join(segments[2:]), query, body)
        if second.startswith("values:") and len(segments) == 2 and method in ("GET", "POST"):
            return 200, self._values_batch(method, head, second[len("values:"):], query, body)
        if second == "developerMetadata" and len(segments) == 3 and method == "GET":
            return 200, self._metadata_get(head, unquote(segments[2]))
        if second == "developerMetadata:search" and method == "POST":
            return 200, self._metadata_search(head, body())
        copy_to = len(segments) == 3 and segments[2].endswith(":copyTo")
        if second == "sheets" and copy_to and method == "POST":
            return 200, self._copy_to(head, unquote(segments[2][: -len(":copyTo")]), body())
        raise _ApiError(404, f"Method not found: {unquote(raw_path)}")

    # -- spreadsheets ------------------------------------------------------------------------

    def _spreadsheet_json(self, book: _Book, ranges: list[str], grid: bool,
                          viewer: Caller | None = None) -> dict[str, Any]:
        """spreadsheets.get as ``viewer`` sees it (None: everything, for the fake's helpers):
        PROJECT metadata of other projects is left out, and so are the editors of protected
        ranges the viewer may not edit."""
        wanted: dict[int, list[tuple[int, int, int, int]]] = {}
        for a1 in ranges:
            sheet, box = book.resolve(a1)
            wanted.setdefault(sheet.id, []).append(_clip(sheet, box))
        evaluator = _Evaluator(book)
        sheets_out = []
        for sheet in book.sheets:
            if ranges and sheet.id not in wanted:
                continue
            entry: dict[str, Any] = {"properties": sheet.properties_json()}
            if sheet.merges:
                entry["merges"] = copy.deepcopy(sheet.merges)
            if sheet.conditional_formats:
                entry["conditionalFormats"] = copy.deepcopy(sheet.conditional_formats)
            if sheet.protected:
                entry["protectedRanges"] = [_protection_seen(book, p, viewer)
                                            for p in sheet.protected]
            if sheet.basic_filter:
                entry["basicFilter"] = copy.deepcopy(sheet.basic_filter)
            sheet_meta = [_metadata_out(m) for m in book.metadata
                          if m["location"].get("sheetId") == sheet.id and visible(m, viewer)]
            if sheet_meta:
                entry["developerMetadata"] = sheet_meta
            if grid:
                boxes = wanted.get(sheet.id) or [(0, sheet.rows, 0, sheet.cols)]
                entry["data"] = [_grid_data(sheet, b, evaluator) for b in boxes]
            sheets_out.append(entry)
        out: dict[str, Any] = {
            "spreadsheetId": book.id,
            "properties": copy.deepcopy(book.props),
            "sheets": sheets_out,
            "spreadsheetUrl": f"https://docs.google.com/spreadsheets/d/{book.id}/edit",
        }
        if book.named_ranges:
            out["namedRanges"] = copy.deepcopy(book.named_ranges)
        book_meta = [_metadata_out(m) for m in book.metadata
                     if m["location"].get("spreadsheet") and visible(m, viewer)]
        if book_meta:
            out["developerMetadata"] = book_meta
        return out

    def _create_from_api(self, body: dict[str, Any]) -> dict[str, Any]:
        props = body.get("properties") or {}
        sheets = body.get("sheets") or [{}]
        titles = [(s.get("properties") or {}).get("title") or f"Sheet{i + 1}"
                  for i, s in enumerate(sheets)]
        try:
            sid = self.create_spreadsheet(
                props.get("title", "Untitled spreadsheet"), titles,
                time_zone=props.get("timeZone", "Etc/GMT"), locale=props.get("locale", "en_US"),
            )
        except ValueError as err:
            raise _bad(str(err)) from None
        with self._lock:
            book = self._books[sid]
            for sheet, given in zip(book.sheets, sheets):
                grid = (given.get("properties") or {}).get("gridProperties") or {}
                sheet.grid.update(grid)
            return self._spreadsheet_json(book, [], False)

    def _batch_update(self, spreadsheet_id: str, body: dict[str, Any]) -> dict[str, Any]:
        def change(book: _Book) -> dict[str, Any]:
            replies = _BatchApplier(book, _Evaluator).apply(body.get("requests"))
            out: dict[str, Any] = {"spreadsheetId": book.id, "replies": replies}
            if body.get("includeSpreadsheetInResponse"):
                out["updatedSpreadsheet"] = self._spreadsheet_json(
                    book, body.get("responseRanges") or [],
                    bool(body.get("responseIncludeGridData")), book.acting,
                )
            return out

        return self._mutate(spreadsheet_id, change)

    def _copy_to(self, spreadsheet_id: str, sheet_id: str, body: dict[str, Any]) -> dict:
        with self._lock:
            source = self._access(spreadsheet_id)
            try:
                sheet = source.sheet_by_id(int(sheet_id))
            except ValueError:
                sheet = None
            if sheet is None:
                raise _ApiError(404, "Requested entity was not found.")
            dest_id = body.get("destinationSpreadsheetId")
            if not dest_id:
                raise _bad("destinationSpreadsheetId is required")

            def change(book: _Book) -> dict[str, Any]:
                new = sheet.clone()
                new.protected, new.merges = [], []
                new.props["sheetId"] = book.new_id(s.id for s in book.sheets)
                title, n = f"Copy of {sheet.title}", 2
                while book.sheet_by_title(title) is not None:
                    title, n = f"Copy of {sheet.title} {n}", n + 1
                new.props["title"] = title
                new.props["index"] = len(book.sheets)
                book.sheets.append(new)
                return new.properties_json()

            return self._mutate(dest_id, change)

    # -- developer metadata ------------------------------------------------------------------

    def _metadata_get(self, spreadsheet_id: str, metadata_id: str) -> dict[str, Any]:
        with self._lock:
            book = self._access(spreadsheet_id)
            viewer = self._caller() or ANONYMOUS
            for meta in book.metadata:
                if str(meta["metadataId"]) == metadata_id and visible(meta, viewer):
                    return _metadata_out(meta)
            raise _ApiError(404, f"No developer metadata with ID: {metadata_id}")

    def _metadata_search(self, spreadsheet_id: str, body: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            book = self._access(spreadsheet_id)
            filters = body.get("dataFilters") or []
            matched = []
            viewer = self._caller() or ANONYMOUS
            for meta in book.metadata:
                if not visible(meta, viewer):
                    continue
                hits = []
                for data_filter in filters:
                    try:
                        if _metadata_matches(book, meta, data_filter):
                            hits.append(data_filter)
                    except _RequestError as err:
                        raise _bad(str(err)) from None
                if hits:
                    matched.append({"developerMetadata": _metadata_out(meta), "dataFilters": hits})
            return {"matchedDeveloperMetadata": matched} if matched else {}

    # -- Drive -------------------------------------------------------------------------------

    def _drive(self, method: str, rest: str, query: dict[str, list[str]],
               body: Callable[[], dict[str, Any]]) -> tuple[int, Any]:
        def file_json(book: _Book) -> dict[str, Any]:
            return {"kind": "drive#file", "id": book.id, "name": book.props["title"],
                    "mimeType": "application/vnd.google-apps.spreadsheet",
                    "createdTime": book.created, "modifiedTime": book.modified}

        file_id = unquote(rest.lstrip("/"))
        if not file_id and method == "GET":
            q = _q(query, "q", "")
            name = re.search(r"""name\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""", q)
            with self._lock:
                files = [file_json(b) for b in self._books.values() if b.id not in self._denied]
            if name:
                wanted = (name.group(1) if name.group(1) is not None else name.group(2))
                wanted = re.sub(r"\\(.)", r"\1", wanted)
                files = [f for f in files if f["name"] == wanted]
            return 200, {"kind": "drive#fileList", "incompleteSearch": False, "files": files}
        if not file_id and method == "POST":
            payload = body()
            sid = self.create_spreadsheet(payload.get("name") or "Untitled spreadsheet")
            with self._lock:
                return 200, file_json(self._books[sid])
        if file_id and "/" not in file_id and method in ("GET", "DELETE"):
            with self._lock:
                book = self._books.get(file_id)
                if book is None or file_id in self._denied:
                    raise _ApiError(404, f"File not found: {file_id}.")
                if method == "DELETE":
                    del self._books[file_id]
                    return 204, None
                return 200, file_json(book)
        raise _ApiError(404, "FakeSheetsServer implements only files list/create/get/delete "
                             "of the Drive API.")


def _protection_seen(book: _Book, pr: dict[str, Any], viewer: Caller | None) -> dict[str, Any]:
    """A protected range as ``viewer`` reads it: whether they may edit it, and its editors
    only if they may (as the API documents for ``editors``)."""
    out = copy.deepcopy(pr)
    can = bool(pr.get("warningOnly")) or may_edit(book.owner, pr.get("editors"), viewer)
    out["requestingUserCanEdit"] = can
    if not can:
        out.pop("editors", None)
    return out
