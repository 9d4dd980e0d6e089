"""batchUpdate requests on range-anchored structures: protected ranges, named ranges, and
the stored-only merges, basic filter and conditional format rules."""

from __future__ import annotations

import copy
import re
from typing import Any

from .a1 import _parse_cells
from .batch_common import _grid_range, _int, _Requests, _sheet
from .errors import _RequestError
from .masks import _parse_mask
from .model import _Sheet
from .protection import check_new_protection, check_protection, may_change


class _RangeRequests(_Requests):
    """Request handlers for protected and named ranges, merges, filters and conditional
    formats."""

    # -- protected and named ranges ------------------------------------------------------

    def _check_protected(self, pr: dict[str, Any]) -> _Sheet:
        if pr.get("warningOnly") and pr.get("editors"):
            raise _RequestError("ProtectedRange is warningOnly. Editors cannot be set on it.")
        if "namedRangeId" in pr:
            named = next((n for n in self.book.named_ranges
                          if n["namedRangeId"] == pr["namedRangeId"]), None)
            if named is None:
                raise _RequestError(f"No named range with id: {pr['namedRangeId']}")
            return _sheet(self.book, named["range"].get("sheetId", 0))
        if "range" not in pr:
            raise _RequestError("A protected range needs a range or a namedRangeId")
        return _grid_range(self.book, pr["range"])[0]

    def _r_addProtectedRange(self, body: dict[str, Any]) -> dict[str, Any]:
        pr = copy.deepcopy(body.get("protectedRange") or {})
        sheet = self._check_protected(pr)
        check_new_protection(sheet, pr)
        taken = self._protected_ids()
        if "protectedRangeId" in pr:
            if pr["protectedRangeId"] in taken:
                raise _RequestError(f"A protected range with id {pr['protectedRangeId']} "
                                    "already exists.")
        else:
            pr["protectedRangeId"] = self.book.new_id(taken)
        pr.pop("requestingUserCanEdit", None)  # read-only; computed for each reader
        sheet.protected.append(pr)
        shown = dict(copy.deepcopy(pr), requestingUserCanEdit=may_change(self.book, pr))
        return {"addProtectedRange": {"protectedRange": shown}}

    def _find_protected(self, pr_id: Any) -> tuple[_Sheet, dict[str, Any]]:
        for sheet in self.book.sheets:
            for pr in sheet.protected:
                if pr["protectedRangeId"] == pr_id:
                    return sheet, pr
        raise _RequestError(f"No protected range with id: {pr_id}")

    def _r_updateProtectedRange(self, body: dict[str, Any]) -> None:
        given = body.get("protectedRange") or {}
        sheet, pr = self._find_protected(given.get("protectedRangeId"))
        check_protection(self.book, pr)
        mask = _parse_mask(body.get("fields") or "")
        if "*" in mask:
            mask = {k: None for k in given if k != "protectedRangeId"}
        updated = copy.deepcopy(pr)
        for key in mask:
            if key in given:
                updated[key] = copy.deepcopy(given[key])
            else:
                updated.pop(key, None)
        new_sheet = self._check_protected(updated)
        sheet.protected.remove(pr)
        check_new_protection(new_sheet, updated)
        new_sheet.protected.append(updated)

    def _r_deleteProtectedRange(self, body: dict[str, Any]) -> None:
        sheet, pr = self._find_protected(body.get("protectedRangeId"))
        check_protection(self.book, pr)
        sheet.protected.remove(pr)

    def _check_named(self, nr: dict[str, Any], exclude: dict[str, Any] | None = None) -> None:
        name = nr.get("name")
        valid = isinstance(name, str) and re.match(r"^[A-Za-z_][A-Za-z0-9_.]*$", name)
        if not valid or _parse_cells(name) is not None or name.upper() in ("TRUE", "FALSE"):
            raise _RequestError(f"Invalid name for a named range: {name!r}")
        for other in self.book.named_ranges:
            if other is not exclude and other["name"].casefold() == name.casefold():
                raise _RequestError(f"A named range with the name {name} already exists.")
        _grid_range(self.book, nr.get("range"))

    def _r_addNamedRange(self, body: dict[str, Any]) -> dict[str, Any]:
        nr = copy.deepcopy(body.get("namedRange") or {})
        self._check_named(nr)
        taken = {n["namedRangeId"] for n in self.book.named_ranges}
        if "namedRangeId" in nr:
            if nr["namedRangeId"] in taken:
                raise _RequestError(f"A named range with id {nr['namedRangeId']} exists.")
        else:
            nr["namedRangeId"] = f"nr{self.book.new_id()}"
        self.book.named_ranges.append(nr)
        return {"addNamedRange": {"namedRange": copy.deepcopy(nr)}}

    def _find_named(self, nr_id: Any) -> dict[str, Any]:
        found = next((n for n in self.book.named_ranges if n["namedRangeId"] == nr_id), None)
        if found is None:
            raise _RequestError(f"No named range with id: {nr_id}")
        return found

    def _r_updateNamedRange(self, body: dict[str, Any]) -> None:
        given = body.get("namedRange") or {}
        current = self._find_named(given.get("namedRangeId"))
        mask = _parse_mask(body.get("fields") or "")
        if "*" in mask:
            mask = {k: None for k in given if k != "namedRangeId"}
        updated = copy.deepcopy(current)
        for key in mask:
            if key not in ("name", "range"):
                raise _RequestError(f"Invalid field mask: unknown NamedRange field {key}")
            updated[key] = copy.deepcopy(given.get(key))
        self._check_named(updated, exclude=current)
        current.clear()
        current.update(updated)

    def _r_deleteNamedRange(self, body: dict[str, Any]) -> None:
        self.book.named_ranges.remove(self._find_named(body.get("namedRangeId")))

    # -- stored-only structures -----------------------------------------------------------

    def _r_mergeCells(self, body: dict[str, Any]) -> None:
        sheet, r0, r1, c0, c1 = _grid_range(self.book, body.get("range", {}))
        merge_type = body.get("mergeType", "MERGE_ALL")
        if merge_type == "MERGE_ALL":
            spans = [(r0, r1, c0, c1)]
        elif merge_type == "MERGE_COLUMNS":
            spans = [(r0, r1, c, c + 1) for c in range(c0, c1)]
        elif merge_type == "MERGE_ROWS":
            spans = [(r, r + 1, c0, c1) for r in range(r0, r1)]
        else:
            raise _RequestError(f"Invalid mergeType: {merge_type!r}")
        for a, b, c, d in spans:
            for m in sheet.merges:
                if (a < m["endRowIndex"] and m["startRowIndex"] < b
                        and c < m["endColumnIndex"] and m["startColumnIndex"] < d):
                    raise _RequestError("You can't merge cells that overlap an existing merge.")
            sheet.merges.append({"sheetId": sheet.id, "startRowIndex": a, "endRowIndex": b,
                                 "startColumnIndex": c, "endColumnIndex": d})

    def _r_unmergeCells(self, body: dict[str, Any]) -> None:
        sheet, r0, r1, c0, c1 = _grid_range(self.book, body.get("range", {}))
        sheet.merges = [
            m for m in sheet.merges
            if not (r0 < m["endRowIndex"] and m["startRowIndex"] < r1
                    and c0 < m["endColumnIndex"] and m["startColumnIndex"] < c1)
        ]

    def _r_setBasicFilter(self, body: dict[str, Any]) -> None:
        flt = copy.deepcopy(body.get("filter") or {})
        sheet = _grid_range(self.book, flt.get("range", {}))[0]
        sheet.basic_filter = flt

    def _r_clearBasicFilter(self, body: dict[str, Any]) -> None:
        _sheet(self.book, body.get("sheetId", 0)).basic_filter = None

    def _r_addConditionalFormatRule(self, body: dict[str, Any]) -> None:
        rule = copy.deepcopy(body.get("rule") or {})
        ranges = rule.get("ranges") or []
        if not ranges:
            raise _RequestError("A conditional format rule needs ranges")
        sheet = _grid_range(self.book, ranges[0])[0]
        index = _int(body.get("index", 0), "index")
        sheet.conditional_formats.insert(min(index, len(sheet.conditional_formats)), rule)

    def _r_deleteConditionalFormatRule(self, body: dict[str, Any]) -> dict[str, Any]:
        sheet = _sheet(self.book, body.get("sheetId", 0))
        index = _int(body.get("index", 0), "index")
        if index >= len(sheet.conditional_formats):
            raise _RequestError(f"No conditional format rule at index {index}")
        rule = sheet.conditional_formats.pop(index)
        return {"deleteConditionalFormatRule": {"rule": rule}}
