"""The built registry: its shape, its freshness, and agreement with `copier copy`."""

from __future__ import annotations

import itertools
import json

import pytest
from build_registry import STACKS, answers_for, app_stacks, build, template_names
from conftest import REPO, render
from jsonschema import Draft7Validator

REGISTRY = REPO / "registry"
SLUGS = ["auth", "banking-app", "blog-app"]
VALIDATOR = Draft7Validator(json.loads((REPO / "schema" / "registry.schema.json").read_text()))

EXPECTED_TEMPLATES = {
    "auth": {"index", "otp", "user", "session", "refresh-token"},
    "banking-app": {"index", "account", "user", "transaction", "ledger"},
    "blog-app": {"index", "category", "user", "post", "comment", "post-like", "comment-like"},
}
SPEC_DEPENDENCIES = {
    ("mysql", "drizzle"): {"runtime": {"mysql2", "drizzle-orm"}, "dev": {"drizzle-kit"}},
    ("postgresql", "drizzle"): {"runtime": {"pg", "drizzle-orm"}, "dev": {"drizzle-kit", "@types/pg"}},
    ("postgresql", "prisma"): {"runtime": {"@prisma/client", "@prisma/adapter-pg"}, "dev": {"prisma"}},
    ("mysql", "prisma"): {"runtime": {"@prisma/client", "@prisma/adapter-mariadb"}, "dev": {"prisma"}},
    ("mongodb", "prisma"): {"runtime": {"@prisma/client"}, "dev": {"prisma"}},
    ("mongodb", "mongoose"): {"runtime": {"mongoose"}, "dev": set()},
}


def load(slug: str) -> dict:
    return json.loads((REGISTRY / f"{slug}.json").read_text())


def orm(slug: str, engine: str, adapter: str, runtime: str = "node", framework: str = "express") -> dict:
    return load(slug)["runtimes"][runtime]["frameworks"][framework]["databases"][engine]["orms"][adapter]


# Every stack this release builds, with its architectures.
BUILT_STACKS = {
    ("node", "express"): {"mvc", "feature"},
    ("bun", "express"): {"mvc", "feature"},
    ("bun", "hono"): {"mvc", "feature"},
    ("deno", "hono"): {"mvc", "feature"},
    ("node", "nestjs"): {"modular"},
    ("node", "nextjs"): {"file-api"},
}


@pytest.mark.parametrize("slug", SLUGS)
def test_registry_matches_its_schema_and_the_spec(slug):
    document = load(slug)
    assert list(VALIDATOR.iter_errors(document)) == []
    assert document["slug"] == slug
    assert {(r, f) for r, body in document["runtimes"].items() for f in body["frameworks"]} == set(BUILT_STACKS)
    for (runtime, framework), (engine, adapter) in itertools.product(BUILT_STACKS, STACKS):
        entry = orm(slug, engine, adapter, runtime, framework)
        expected = EXPECTED_TEMPLATES[slug] - ({"post-like", "comment-like"} if engine == "mongodb" else set())
        assert set(entry["templates"]) == expected
        deps = entry["dependencies"]
        assert {k: set(v) for k, v in deps.items()} == SPEC_DEPENDENCIES[(engine, adapter)]
        for template in entry["templates"].values():
            assert set(template["architectures"]) == BUILT_STACKS[(runtime, framework)]
            for arch in template["architectures"].values():
                assert arch["files"], "every template adds files"


@pytest.mark.parametrize("path", ["/etc/passwd", "../x.ts", "src/../../x.ts", "a//b.ts", "a\\\\b.ts", ".."])
def test_registry_schema_rejects_unsafe_paths(path):
    document = load("auth")
    entry = orm("auth", "postgresql", "drizzle")["templates"]["index"]["architectures"]["mvc"]
    entry["files"] = [{"type": "file", "path": path, "content": ""}]
    document["runtimes"]["node"]["frameworks"]["express"]["databases"]["postgresql"]["orms"]["drizzle"]["templates"][
        "index"
    ]["architectures"]["mvc"] = entry
    assert not VALIDATOR.is_valid(document)


def test_committed_registry_is_not_stale(tmp_path):
    for path in build(tmp_path):
        committed = REGISTRY / path.name
        assert committed.exists(), f"{committed} is missing: run scripts/build_registry.py"
        assert json.loads(path.read_text()) == json.loads(committed.read_text()), (
            f"{committed.name} is stale: run .venv/bin/python scripts/build_registry.py"
        )


@pytest.mark.parametrize(("engine", "adapter"), STACKS)
@pytest.mark.parametrize("slug", SLUGS)
def test_copier_writes_every_registry_file_identically(tmp_path, slug, engine, adapter):
    entry = orm(slug, engine, adapter)
    for name, items in template_names(slug, adapter, engine).items():
        for architecture, spec in entry["templates"][name]["architectures"].items():
            project = render(
                tmp_path / f"{name}-{architecture}", **answers_for(slug, engine, adapter, architecture, items)
            )
            for file in spec["files"]:
                written = project / file["path"]
                assert written.is_file(), f"{slug}/{name}/{architecture}: {file['path']} not written"
                assert written.read_text() == file["content"], f"{slug}/{name}/{architecture}: {file['path']} differs"


OTHER_STACKS = [(r, f, archs) for r, f, archs in app_stacks() if (r, f) != ("node", "express")]


@pytest.mark.parametrize(("runtime", "framework", "architectures"), OTHER_STACKS)
@pytest.mark.parametrize("slug", SLUGS)
def test_copier_writes_the_registry_files_of_every_other_stack(tmp_path, slug, runtime, framework, architectures):
    """Per stack: each bundle's index template on each data layer, architectures taken in turn."""
    for (engine, adapter), architecture in zip(STACKS, itertools.cycle(architectures)):
        spec = orm(slug, engine, adapter, runtime, framework)["templates"]["index"]["architectures"][architecture]
        items = template_names(slug, adapter, engine)["index"]
        answers = answers_for(slug, engine, adapter, architecture, items, runtime, framework)
        project = render(tmp_path / f"{engine}-{adapter}-{architecture}", **answers)
        for file in spec["files"]:
            written = project / file["path"]
            assert written.read_text() == file["content"], f"{runtime}/{framework}/{engine}: {file['path']} differs"
