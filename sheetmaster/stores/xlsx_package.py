"""The parts of a workbook file (an OOXML zip package) that sheetmaster needs to find.

Which part holds which tab, where the shared strings and the calculation chain are, and the
text of a tab's header row; read from the package's relationships, whatever program wrote
it (Excel, LibreOffice, openpyxl, Google Sheets' export).
"""

from __future__ import annotations

import html
import posixpath
import re
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass, field

from sheetmaster.stores.xlsx_cells import CELL, attrs, split_ref

_OFFICE_DOCUMENT = "/officeDocument"
_WORKSHEET = "/worksheet"
_SHARED_STRINGS = "/sharedStrings"
_CALC_CHAIN = "/calcChain"
_FIRST_ROW = re.compile(rb"<(?:[\w.-]+:)?row\b([^>]*?)(/?)>")
_SI = re.compile(rb"<(?:[\w.-]+:)?si\b[^>]*?(?:/>|>(.*?)</(?:[\w.-]+:)?si>)", re.S)
_T = re.compile(rb"<(?:[\w.-]+:)?t\b[^>]*?(?:/>|>(.*?)</(?:[\w.-]+:)?t>)", re.S)
_PHONETIC = re.compile(rb"<(?:[\w.-]+:)?rPh\b.*?</(?:[\w.-]+:)?rPh>", re.S)
_V = re.compile(rb"<(?:[\w.-]+:)?v\b[^>]*>(.*?)</(?:[\w.-]+:)?v>", re.S)
_ESCAPED = re.compile(r"_x([0-9A-Fa-f]{4})_")


class PackageError(ValueError):
    """The file is a zip, but not a workbook sheetmaster can read; the message says why."""


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _rels(z: zipfile.ZipFile, part: str) -> list[dict[str, str]]:
    """The relationships of ``part``, each with its target resolved to a part name (part
    names are matched whatever their case, as Excel does)."""
    by_case = {n.casefold(): n for n in z.namelist()}
    folder, name = posixpath.split(part)
    rels_name = posixpath.join(folder, "_rels", name + ".rels")
    try:
        root = ET.fromstring(z.read(rels_name))
    except KeyError:
        return []
    except ET.ParseError as exc:
        raise PackageError(f"{rels_name} is not readable XML ({exc})") from None
    out = []
    for rel in root:
        target = rel.get("Target", "")
        if rel.get("TargetMode") == "External":
            continue
        resolved = target.lstrip("/") if target.startswith("/") else \
            posixpath.normpath(posixpath.join(folder, target))
        out.append({"id": rel.get("Id", ""), "type": rel.get("Type", ""),
                    "part": by_case.get(resolved.casefold(), resolved)})
    return out


def _of_type(rels: list[dict[str, str]], suffix: str) -> list[dict[str, str]]:
    return [r for r in rels if r["type"].endswith(suffix)]


@dataclass
class Package:
    """Where things are in one workbook package."""

    workbook: str  # the workbook part, usually xl/workbook.xml
    sheets: dict[str, str]  # tab name -> worksheet part
    shared_strings: str | None = None
    calc_chain: str | None = None
    names: set[str] = field(default_factory=set)

    @classmethod
    def read(cls, z: zipfile.ZipFile) -> Package:
        names = set(z.namelist())
        main = _of_type(_rels(z, ""), _OFFICE_DOCUMENT)
        workbook = main[0]["part"] if main else "xl/workbook.xml"
        if workbook not in names:
            raise PackageError(_not_a_workbook(z, names))
        rels = _rels(z, workbook)
        by_id = {r["id"]: r for r in rels}
        try:
            root = ET.fromstring(z.read(workbook))
        except ET.ParseError as exc:
            raise PackageError(f"{workbook} is not readable XML ({exc})") from None
        sheets: dict[str, str] = {}
        for el in root.iter():
            if _local(el.tag) != "sheet":
                continue
            rid = next((v for k, v in el.attrib.items() if _local(k) == "id"), "")
            rel = by_id.get(rid)
            if rel and rel["type"].endswith(_WORKSHEET) and rel["part"] in names:
                sheets[el.get("name", "")] = rel["part"]
        strings = _of_type(rels, _SHARED_STRINGS)
        chain = _of_type(rels, _CALC_CHAIN)
        return cls(workbook, sheets,
                   strings[0]["part"] if strings and strings[0]["part"] in names else None,
                   chain[0]["part"] if chain and chain[0]["part"] in names else None, names)


def _not_a_workbook(z: zipfile.ZipFile, names: set[str]) -> str:
    """What a zip file that is not an .xlsx is, and what to do."""
    if any(n.endswith(".bin") and n.startswith("xl/workbook") for n in names):
        return ("it is a binary workbook (.xlsb): open it in Excel and save it as an Excel "
                "Workbook (.xlsx)")
    if "mimetype" in names and b"opendocument" in z.read("mimetype"):
        return ("it is an OpenDocument spreadsheet (.ods): open it in LibreOffice and save it "
                "as Excel 2007-365 (.xlsx)")
    return "it is a zip file, but not an Excel workbook (it has no xl/workbook.xml)"


def ooxml_text(raw: bytes) -> str:
    """Element text as a spreadsheet shows it (entities and _xHHHH_ escapes undone)."""
    text = html.unescape(raw.decode("utf-8", "replace"))
    return _ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), text) if "_x" in text else text


def rich_text(content: bytes) -> str:
    """The text of an ``<si>`` or ``<is>``: its runs joined, phonetic hints left out."""
    content = _PHONETIC.sub(b"", content)
    return "".join(ooxml_text(m.group(1) or b"") for m in _T.finditer(content))


class SharedStrings:
    """The workbook's shared strings, read only as far as the highest index asked for."""

    def __init__(self, z: zipfile.ZipFile, part: str | None) -> None:
        self._data = z.read(part) if part else b""
        self._items = _SI.finditer(self._data)
        self._read: list[str] = []

    def __getitem__(self, index: int) -> str:
        while len(self._read) <= index:
            m = next(self._items, None)
            if m is None:
                return ""
            self._read.append(rich_text(m.group(1) or b""))
        return self._read[index]


def header_names(data: bytes, strings: SharedStrings) -> dict[int, str]:
    """Column number -> text of the cells of row 1 (the header) of a worksheet part."""
    m = _FIRST_ROW.search(data, max(data.find(b"sheetData"), 0))
    if m is None or m.group(2) or attrs(m.group(1)).get(b"r", b"1") != b"1":
        return {}
    end = data.find(b"row>", m.end())
    header: dict[int, str] = {}
    column = 0
    for cell in CELL.finditer(data, m.end(), end if end > 0 else len(data)):
        a = attrs(cell.group(1))
        where = split_ref(a[b"r"]) if b"r" in a else None
        column = where[1] if where else column + 1
        header[column] = _cell_text(a, cell.group(2) or b"", strings)
    return header


def _cell_text(a: dict[bytes, bytes], content: bytes, strings: SharedStrings) -> str:
    kind = a.get(b"t", b"n")
    if kind == b"inlineStr":
        return rich_text(content)
    v = _V.search(content)
    raw = v.group(1).strip() if v else b""
    if kind == b"s":
        return strings[int(raw)] if raw.isdigit() else ""
    return ooxml_text(raw)


__all__ = ["Package", "PackageError", "SharedStrings", "header_names", "ooxml_text",
           "rich_text"]
