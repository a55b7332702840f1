"""Test options: ``--fuzz-long`` runs the fuzz suite (tests/test_fuzz*.py) 20 times longer."""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="run 20 times the fuzz cases (same as TRIO_FUZZ_LONG=1)")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--fuzz-long", default=False):
        os.environ["TRIO_FUZZ_LONG"] = "1"
