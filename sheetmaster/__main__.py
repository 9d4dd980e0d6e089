"""``python -m sheetmaster``: the same as the ``sheetmaster`` command."""

import sys

from sheetmaster.app.cli import main

sys.exit(main())
