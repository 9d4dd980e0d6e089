"""spreadsheets.batchUpdate: the supported request kinds and the dispatcher that applies a
batch to a (cloned) book through the ``_r_<kind>`` handlers of the request mixins."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .batch_cells import _CellRequests
from .batch_common import _sheet
from .batch_metadata import _MetadataRequests
from .batch_ranges import _RangeRequests
from .batch_sheets import _SheetRequests
from .errors import _ApiError, _bad, _RequestError
from .formulas import _Evaluator
from .model import MAX_CELLS, _Book

SUPPORTED_REQUESTS = (
    "updateCells", "repeatCell", "addSheet", "deleteSheet", "duplicateSheet",
    "updateSheetProperties", "updateSpreadsheetProperties", "appendDimension",
    "insertDimension", "deleteDimension", "setDataValidation", "addProtectedRange",
    "updateProtectedRange", "deleteProtectedRange", "addNamedRange", "updateNamedRange",
    "deleteNamedRange", "createDeveloperMetadata", "updateDeveloperMetadata",
    "deleteDeveloperMetadata", "sortRange", "copyPaste", "cutPaste", "mergeCells",
    "unmergeCells", "setBasicFilter", "clearBasicFilter", "addConditionalFormatRule",
    "deleteConditionalFormatRule",
)
ACCEPTED_NO_OP_REQUESTS = (
    "updateBorders", "updateDimensionProperties", "autoResizeDimensions",
    "addDimensionGroup", "deleteDimensionGroup", "updateDimensionGroup",
)
# Other request kinds of the real API: answered with a clear "not supported by the fake".
_REAL_UNSUPPORTED = (
    "updateConditionalFormatRule", "updateEmbeddedObjectPosition", "updateEmbeddedObjectBorder",
    "addFilterView", "updateFilterView", "deleteFilterView", "duplicateFilterView", "addChart",
    "updateChartSpec", "deleteEmbeddedObject", "addBanding", "updateBanding", "deleteBanding",
    "findReplace", "pasteData", "textToColumns", "autoFill", "moveDimension",
    "deleteDuplicates", "trimWhitespace", "randomizeRange", "addSlicer", "updateSlicerSpec",
    "addDataSource", "updateDataSource", "deleteDataSource", "refreshDataSource",
    "addTable", "updateTable", "deleteTable", "cancelDataSourceRefresh", "deleteRange",
    "insertRange", "appendCells",
)


class _BatchApplier(_CellRequests, _SheetRequests, _RangeRequests, _MetadataRequests):
    """Applies spreadsheets.batchUpdate requests to a (cloned) book."""

    def __init__(self, book: _Book, evaluator_factory: Callable[[_Book], _Evaluator]):
        self.book = book
        self.evaluator_factory = evaluator_factory

    def apply(self, requests_: Any) -> list[dict[str, Any]]:
        if not isinstance(requests_, list) or not requests_:
            raise _bad("Invalid requests: Must specify at least one request.")
        replies = []
        for i, request in enumerate(requests_):
            if not isinstance(request, dict) or len(request) != 1:
                raise _bad(f"Invalid requests[{i}]: exactly one request kind must be set.")
            (kind, body), = request.items()
            body = _drop_nulls(body)  # proto3 JSON: null means "not set"
            handler = getattr(self, f"_r_{kind}", None)
            if handler is None and kind in ACCEPTED_NO_OP_REQUESTS:
                handler = self._no_op
            if handler is None:
                if kind in _REAL_UNSUPPORTED:
                    raise _bad(f"Invalid requests[{i}].{kind}: FakeSheetsServer does not "
                               f"implement this request kind.")
                raise _bad(f"Invalid JSON payload received. Unknown name \"{kind}\" at "
                           f"'requests[{i}]': Cannot find field.")
            try:
                if not isinstance(body, dict):
                    raise _RequestError("request body must be an object")
                reply = handler(body)
                if self.book.total_cells() > MAX_CELLS:
                    raise _RequestError(
                        "This action would increase the number of cells in the workbook above "
                        f"the limit of {MAX_CELLS} cells."
                    )
            except _RequestError as err:
                raise _bad(f"Invalid requests[{i}].{kind}: {err}") from None
            except _ApiError as err:
                raise _bad(f"Invalid requests[{i}].{kind}: {err.message}") from None
            replies.append(reply or {})
        return replies

    def _no_op(self, body: dict[str, Any]) -> None:
        for key in ("range", "dimensions"):
            value = body.get(key)
            if isinstance(value, dict):
                _sheet(self.book, value.get("sheetId", 0))


def _drop_nulls(value: Any) -> Any:
    if not _has_null(value):
        return value  # the usual case: nothing to copy
    if isinstance(value, dict):
        return {k: _drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_nulls(v) for v in value]
    return value


def _has_null(value: Any) -> bool:
    """Whether a JSON value holds a null anywhere (checked without building copies)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for v in item.values():
                if v is None:
                    return True
                if isinstance(v, (dict, list)):
                    stack.append(v)
        elif isinstance(item, list):
            for v in item:
                if v is None:
                    return True
                if isinstance(v, (dict, list)):
                    stack.append(v)
    return False
