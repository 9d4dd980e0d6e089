"""The project's own test machinery: fuzzing and reliability harnesses.

Not part of the installed package (``pip install .`` ships ``sheetmaster`` only): the test
suite and the benchmarks import it from a checkout of the repository.
"""
