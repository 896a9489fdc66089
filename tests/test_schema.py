"""The configuration schema: every rule of the spec, with valid and invalid cases."""

from __future__ import annotations

import copy
import itertools
import json
from typing import Any

import pytest
from conftest import REPO, ecma
from jsonschema import Draft7Validator

from validate_config import config_errors

SCHEMA = json.loads((REPO / "schema" / "stackwright.schema.json").read_text())

# The spec's tables, written out here independently of the schema.
FRAMEWORKS_BY_RUNTIME = {
    "node": {"express", "nestjs", "nextjs"},
    "deno": {"hono"},
    "bun": {"hono", "express"},
}
ARCHITECTURES_BY_FRAMEWORK = {
    "nestjs": {"modular"},
    "express": {"mvc", "feature"},
    "nextjs": {"file-api"},
    "hono": {"mvc", "feature"},  # the spec leaves hono open; we decided mvc and feature
}
ADAPTERS_BY_ENGINE = {
    "mongodb": {"mongoose", "prisma"},
    "postgresql": {"drizzle", "prisma"},
    "mysql": {"drizzle", "prisma"},
}
REQUIRED = ["$schema", "version", "rootDir", "packageManager", "runtime", "language", "framework", "architecture"]

VALID = {
    "$schema": "./stackwright.schema.json",
    "version": "1.0.0",
    "rootDir": ".",
    "packageManager": "npm",
    "runtime": "node",
    "language": "typescript",
    "framework": "express",
    "architecture": "feature",
    "database": {"engine": "postgresql", "adapter": "drizzle"},
}


def valid(config: object) -> bool:
    """The hook's verdict, checked against ajv's (ECMA-262, what editors run) on every case."""
    verdict = config_errors(config) == []
    assert verdict == ecma().valid(SCHEMA, config), f"the hook says {verdict}, ajv the opposite, for {config!r}"
    return verdict


def with_(**changes: Any) -> dict:
    config = copy.deepcopy(VALID)
    config.update(changes)
    return config


def test_schema_is_draft_07_and_well_formed():
    assert SCHEMA["$schema"] == "http://json-schema.org/draft-07/schema#"
    Draft7Validator.check_schema(SCHEMA)
    assert valid(VALID)


@pytest.mark.parametrize("field", REQUIRED)
def test_every_required_field_is_required(field):
    config = with_()
    del config[field]
    assert not valid(config)


def test_database_is_optional_and_may_be_null():
    config = with_()
    del config["database"]
    assert valid(config)
    assert valid(with_(database=None))


def test_no_other_property_is_allowed():
    assert not valid(with_(extra=1))
    assert not valid(with_(database={"engine": "mysql", "adapter": "drizzle", "url": "x"}))


@pytest.mark.parametrize("database", [{"engine": "mysql"}, {"adapter": "drizzle"}, {}, "mysql", 1, []])
def test_database_object_needs_engine_and_adapter(database):
    assert not valid(with_(database=database))


@pytest.mark.parametrize("version", ["0.0.0", "1.2.3", "10.20.30"])
def test_version_pattern_accepts(version):
    assert valid(with_(version=version))


@pytest.mark.parametrize(
    "version",
    [
        "1.2",
        "v1.2.3",
        "1.2.3-beta",
        "1.2.3.4",
        "a.b.c",
        "",
        "1..3",
        # Python's re alone accepts these: its $ matches before a final newline, its \\d any digit.
        "1.2.3\n",
        "\n1.2.3",
        "1.2.3\r",
        "1.2.3\u2028",
        "\u0661.\u0662.\u0663",
        "1.2.\uff13",
        "1.2.\u0663",
    ],
)
def test_version_pattern_rejects(version):
    assert not valid(with_(version=version))


@pytest.mark.parametrize(
    ("field", "values"),
    [
        ("packageManager", ["npm", "pnpm", "bun", "yarn"]),
        ("language", ["typescript"]),
    ],
)
def test_enumerations(field, values):
    for value in values:
        assert valid(with_(**{field: value})), value
    assert not valid(with_(**{field: "javascript" if field == "language" else "pip"}))


@pytest.mark.parametrize("field", ["runtime", "framework", "architecture", "packageManager", "language"])
def test_unknown_values_are_rejected(field):
    assert not valid(with_(**{field: "cobol"}))


@pytest.mark.parametrize(
    ("runtime", "framework"),
    list(itertools.product(FRAMEWORKS_BY_RUNTIME, ["express", "nestjs", "nextjs", "hono"])),
)
def test_runtime_decides_framework(runtime, framework):
    architecture = min(ARCHITECTURES_BY_FRAMEWORK[framework])
    config = with_(runtime=runtime, framework=framework, architecture=architecture)
    assert valid(config) == (framework in FRAMEWORKS_BY_RUNTIME[runtime])


@pytest.mark.parametrize(
    ("framework", "architecture"),
    list(itertools.product(ARCHITECTURES_BY_FRAMEWORK, ["mvc", "feature", "modular", "file-api"])),
)
def test_framework_decides_architecture(framework, architecture):
    runtime = next(r for r, frameworks in FRAMEWORKS_BY_RUNTIME.items() if framework in frameworks)
    config = with_(runtime=runtime, framework=framework, architecture=architecture)
    assert valid(config) == (architecture in ARCHITECTURES_BY_FRAMEWORK[framework])


@pytest.mark.parametrize(
    ("engine", "adapter"),
    list(itertools.product(ADAPTERS_BY_ENGINE, ["mongoose", "drizzle", "prisma"])),
)
def test_engine_decides_adapter(engine, adapter):
    config = with_(database={"engine": engine, "adapter": adapter})
    assert valid(config) == (adapter in ADAPTERS_BY_ENGINE[engine])


def test_unknown_engine_is_rejected():
    assert not valid(with_(database={"engine": "sqlite", "adapter": "drizzle"}))


def test_every_property_has_a_description_and_the_spec_defaults():
    properties = SCHEMA["properties"]
    assert all(p.get("description") for p in properties.values())
    assert properties["rootDir"]["default"] == "."
    assert properties["packageManager"]["default"] == "npm"
    assert properties["language"]["default"] == "typescript"
    for name in ("engine", "adapter"):
        assert properties["database"]["properties"][name]["description"]
