"""Stackwright's own Python lints, is formatted and type-checks, as its generated projects do.

The tools and their settings are in pyproject.toml, their versions in requirements.txt.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

BIN = Path(sys.executable).parent

CHECKS = {
    "ruff lint": [str(BIN / "ruff"), "check", "--no-cache", "."],
    "ruff format": [str(BIN / "ruff"), "format", "--check", "--no-cache", "."],
    "mypy": [str(BIN / "mypy"), "--no-incremental"],
}


@pytest.mark.parametrize("check", CHECKS)
def test_own_python_is_clean(check):
    done = subprocess.run(CHECKS[check], cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, f"{check} found problems:\n{done.stdout}{done.stderr}"


def test_the_checks_find_problems(tmp_path):
    """The same commands fail on a file with an unused import, a bad layout and a type error."""
    (tmp_path / "pyproject.toml").write_text((REPO / "pyproject.toml").read_text())
    (tmp_path / "bad.py").write_text('import os\nx: int = "one"\ny = {  "a":1 }\n')
    for check, command in CHECKS.items():
        args = [*command[:-1], "bad.py"] if check == "mypy" else command
        done = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode != 0, f"{check} passed a bad file:\n{done.stdout}{done.stderr}"
