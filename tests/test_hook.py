"""The post-generation hook, used as a command on good and bad configs."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import REPO, ecma
from test_schema import VALID

from validate_config import ecma_regex

HOOK = REPO / "hooks" / "validate_config.py"


def validate(path, cache=None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)} if cache else None
    return subprocess.run([sys.executable, str(HOOK), str(path)], capture_output=True, text=True, env=env, check=False)


def test_a_valid_verdict_is_reused_only_for_the_same_config(tmp_path):
    cache, config = tmp_path / "cache", tmp_path / "stackwright.json"
    config.write_text(json.dumps(VALID))
    assert validate(config, cache).returncode == 0
    (verdict,) = (cache / "stackwright" / "valid-configs").iterdir()
    assert validate(config, cache).returncode == 0
    config.write_text(json.dumps({**VALID, "packageManager": "pip"}))  # a new config is checked again
    done = validate(config, cache)
    assert done.returncode == 1 and "/packageManager: 'pip' is not one of" in done.stderr
    assert list(verdict.parent.iterdir()) == [verdict], "an invalid config must leave no verdict"


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


@pytest.mark.parametrize("version", ["1.2.3\n", "\u0661.\u0662.\u0663", "1.2.\uff13"])
def test_versions_that_editors_reject_are_rejected_with_one_line(tmp_path, version):
    config = tmp_path / "stackwright.json"
    config.write_text(json.dumps({**VALID, "version": version}))
    done = validate(config)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"{config}: /version: {version!r} does not match '^\\\\d+\\\\.\\\\d+\\\\.\\\\d+$'"
    ]


# Patterns with every construct ecma_regex translates, and strings on which Python's re alone
# would decide differently from ECMA-262.
PATTERNS = [
    r"^\d+\.\d+\.\d+$",
    r"^\w+$",
    r"^\W$",
    r"^\D+$",
    r"\s",
    r"^\S+$",
    r"^a.c$",
    r"x$",
    r"^[\d.]+$",
    r"^[^\w\s]+$",
    r"\bword\b",
    r"^(?<major>[0-9]+)\.(?:[0-9]+)$",
    r"(?<=v)1",
    r"(?<!v)1",
    r"^[a-z][a-z0-9-]*(/[a-z0-9._-]+)?$",
    r"^\u00e9\x41$",
    r"^\$\.\[\]$",
]
INPUTS = [
    "1.2.3",
    "1.2.3\n",
    "\n1.2.3",
    "\u0661.\u0662.\u0663",
    "1.2.\uff13",
    "abc",
    "\u00e9t\u00e9",
    "_",
    "-",
    "a\nc",
    "a\rc",
    "a\u2028c",
    "abc",
    "x\n",
    "x",
    " ",
    "\u00a0",
    "\u3000",
    "\ufeff",
    "\u0085",
    "\u001c",
    "a word here",
    "a w\u00f6rd",
    "12.3",
    "v1",
    "21",
    "@scope/name",
    "name",
    "\u00e9A",
    "$.[]",
]


def test_the_translation_matches_v8_for_every_construct():
    disagreements = [
        (pattern, text)
        for pattern in PATTERNS
        for text in INPUTS
        if bool(ecma_regex(pattern).search(text)) != ecma().matches(pattern, text)
    ]
    assert disagreements == []


@pytest.mark.parametrize("pattern", [r"\k<a>", r"\p{L}", r"\cJ", r"[\D]", r"[^]", r"\Z"])
def test_untranslated_constructs_are_refused_by_name(pattern):
    with pytest.raises(ValueError, match="pattern "):
        ecma_regex(pattern)
