"""Performance benchmarks for sheetmaster (run them as scripts, see README.md)."""
