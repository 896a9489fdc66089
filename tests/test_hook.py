"""The post-generation hook, used as a command on good and bad configs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import REPO
from test_schema import VALID

HOOK = REPO / "hooks" / "validate_config.py"


def validate(path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(HOOK), str(path)], capture_output=True, text=True)


def test_a_valid_config_passes_silently(tmp_path):
    config = tmp_path / "stackwright.json"
    config.write_text(json.dumps(VALID))
    before = config.read_bytes()
    for _ in range(3):  # copier update runs tasks three times: it must be idempotent
        done = validate(config)
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert config.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stackwright.json"]


def test_each_error_gets_one_line_with_its_pointer(tmp_path):
    config = tmp_path / "stackwright.json"
    bad = {**VALID, "version": "v1", "extra": True, "database": {"engine": "mongodb", "adapter": "drizzle"}}
    config.write_text(json.dumps(bad))
    done = validate(config)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 3, lines
    assert any(line.endswith("/version: 'v1' does not match '^\\\\d+\\\\.\\\\d+\\\\.\\\\d+$'") for line in lines), lines
    assert any("/database/adapter: 'drizzle' is not one of ['mongoose', 'prisma']" in line for line in lines)
    assert any("/: Additional properties are not allowed ('extra' was unexpected)" in line for line in lines)


def test_a_missing_required_field_is_reported(tmp_path):
    config = tmp_path / "stackwright.json"
    config.write_text(json.dumps({k: v for k, v in VALID.items() if k != "runtime"}))
    done = validate(config)
    assert done.returncode == 1
    assert "'runtime' is a required property" in done.stderr


@pytest.mark.parametrize("content", [None, "{not json"])
def test_unreadable_files_exit_2_with_one_line(tmp_path, content):
    config = tmp_path / "stackwright.json"
    if content is not None:
        config.write_text(content)
    done = validate(config)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr
