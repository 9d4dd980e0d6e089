"""A static site of a game's public record: every turn's map with a slider, each turn's public
report, and charts of each player over the turns (``sheetmaster site``).

- :mod:`.record` reads the record from a workbook (its backups and the reports beside it) or
  a Google Sheet (its tabs and undo snapshot): the package's one door into the engine;
- :mod:`.logged` rebuilds a turn's public report from the sheet's Log and order rows;
- :mod:`.numbers` says what is charted, from what the ruleset declares;
- :mod:`.build` makes the site's data and writes the folder; :mod:`.pages` renders it with
  Jinja2 templates (``templates/``) and the vendored Chart.js (``assets/``).
"""

from __future__ import annotations

from sheetmaster.app.site.build import Built, SiteError, build_site
from sheetmaster.app.site.record import Record, RecordError, sheet_record, workbook_record

__all__ = ["Built", "Record", "RecordError", "SiteError", "build_site", "sheet_record",
           "workbook_record"]
