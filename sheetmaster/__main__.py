"""``python -m sheetmaster``: the same as the ``sheetmaster`` command."""

import sys

from sheetmaster.cli import main

sys.exit(main())
