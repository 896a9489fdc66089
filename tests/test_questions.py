"""The Copier questions: defaults, every allowed combination, refusals, and agreement with the schema."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from build_registry import plain_copy
from conftest import REPO, copier_cli, render
from copier._main import Worker
from jsonschema import Draft7Validator

from validate_config import config_errors

SCHEMA = json.loads((REPO / "schema" / "stackwright.schema.json").read_text())

# What the foundation issue builds (§5), written out independently of the extension.
ARCHITECTURES = ["mvc", "feature"]
# The runtime x framework x architecture stacks this release builds: every stack the schema allows.
BUILT_STACKS = {
    (runtime, framework, architecture)
    for runtime, framework in [("node", "express"), ("bun", "express"), ("bun", "hono"), ("deno", "hono")]
    for architecture in ARCHITECTURES
} | {("node", "nestjs", "modular"), ("node", "nextjs", "file-api")}
DATABASES = [
    ("none", None),
    ("postgresql", "drizzle"),
    ("mysql", "drizzle"),
    ("mongodb", "mongoose"),
    ("postgresql", "prisma"),
    ("mysql", "prisma"),
    ("mongodb", "prisma"),
]
PACKAGE_MANAGERS = ["npm", "pnpm", "bun", "yarn"]


def read_config(project):
    return json.loads((project / "stackwright.json").read_text())


def test_defaults_give_node_express_feature_postgresql_drizzle_npm(tmp_path):
    project = render(tmp_path / "my-api")
    config = read_config(project)
    assert config_errors(config) == []
    assert {k: config[k] for k in ("runtime", "framework", "architecture", "packageManager", "language")} == {
        "runtime": "node",
        "framework": "express",
        "architecture": "feature",
        "packageManager": "npm",
        "language": "typescript",
    }
    assert config["database"] == {"engine": "postgresql", "adapter": "drizzle"}
    assert config["rootDir"] == "."
    assert json.loads((project / "package.json").read_text())["name"] == "my-api"
    # $schema points at a copy of the schema inside the project, which is the schema itself.
    assert json.loads((project / config["$schema"]).read_text()) == SCHEMA


@pytest.mark.parametrize(
    ("architecture", "database", "package_manager"),
    list(itertools.product(ARCHITECTURES, DATABASES, PACKAGE_MANAGERS)),
)
def test_every_allowed_combination_renders(tmp_path, architecture, database, package_manager):
    engine, adapter = database
    answers = {"architecture": architecture, "databaseEngine": engine, "packageManager": package_manager}
    if adapter:
        answers["databaseAdapter"] = adapter
    project = render(tmp_path / "api", projectName="api", **answers)

    config = read_config(project)
    assert config_errors(config) == []
    assert config["architecture"] == architecture
    assert config["packageManager"] == package_manager
    assert config["database"] == (None if engine == "none" else {"engine": engine, "adapter": adapter})

    files = {p.relative_to(project).as_posix() for p in project.rglob("*") if p.is_file()}
    if architecture == "mvc":
        assert {"src/controllers/health.controller.ts", "src/routes/health.routes.ts", "src/config/env.ts"} <= files
        assert not any(f.startswith("src/modules/") for f in files)
    else:
        assert {"src/modules/health/health.controller.ts", "src/shared/config/env.ts"} <= files
        assert not any(f.startswith(("src/controllers/", "src/config/")) for f in files)
    has_database_layer = any("database" in f for f in files) or "docker-compose.yml" in files
    assert has_database_layer == (engine != "none")

    manifest = json.loads((project / "package.json").read_text())
    assert manifest["type"] == "module" and "node" in manifest["engines"]
    assert {"dev", "build", "start", "typecheck", "test", "lint"} <= set(manifest["scripts"])
    assert (package_manager == "npm") == ("packageManager" not in manifest)
    if package_manager != "npm":
        assert manifest["packageManager"].startswith(f"{package_manager}@")
    run_prefix = "npm run" if package_manager == "npm" else f"{package_manager} run"
    assert f"{run_prefix} typecheck" in manifest["scripts"]["check"]
    readme = (project / "README.md").read_text()
    assert f"{package_manager} install" in readme and f"{run_prefix} dev" in readme


def test_root_dir_places_the_sources(tmp_path):
    project = render(tmp_path / "mono", rootDir="apps/api", architecture="mvc", databaseEngine="none")
    assert read_config(project)["rootDir"] == "apps/api"
    assert (project / "apps/api/src/app.ts").is_file()
    assert (project / "apps/api/tests/health.test.ts").is_file()
    assert not (project / "src").exists()
    assert (project / "package.json").is_file() and (project / "stackwright.json").is_file()
    tsconfig = json.loads((project / "tsconfig.json").read_text())
    assert tsconfig["include"][:2] == ["apps/api/src", "apps/api/tests"]
    assert "apps/api/src/server.ts" in json.loads((project / "package.json").read_text())["scripts"]["dev"]


REFUSED = [
    (["runtime=deno", "framework=express"], "framework 'express' is not available on runtime 'deno'; choose hono"),
    (
        ["runtime=bun", "framework=nextjs"],
        "framework 'nextjs' is not available on runtime 'bun'; choose hono or express",
    ),
    (["runtime=python"], "Invalid choice for 'runtime': 'python' is not in ['node', 'deno', 'bun']"),
    (["framework=hono"], "framework 'hono' is not available on runtime 'node'; choose express or nestjs or nextjs"),
    (
        ["framework=nestjs", "architecture=feature"],
        "architecture 'feature' is not available on framework 'nestjs'; choose modular",
    ),
    (["architecture=modular"], "architecture 'modular' is not available on framework 'express'; choose mvc or feature"),
    (["architecture=layered"], "Invalid choice for 'architecture': 'layered' is not in ['mvc', 'feature']"),
    (["packageManager=pip"], "Invalid choice for 'packageManager': 'pip' is not in"),
    (["language=javascript"], "Invalid choice for 'language': 'javascript' is not in ['typescript']"),
    (["databaseEngine=sqlite"], "Invalid choice for 'databaseEngine': 'sqlite' is not in"),
    (
        ["databaseEngine=mongodb", "databaseAdapter=drizzle"],
        "databaseAdapter 'drizzle' is not available on databaseEngine 'mongodb'; choose mongoose or prisma",
    ),
    (
        ["databaseEngine=postgresql", "databaseAdapter=mongoose"],
        "databaseAdapter 'mongoose' is not available on databaseEngine 'postgresql'; choose drizzle",
    ),
    (
        ["databaseEngine=mongodb", "databaseAdapter=drizzle"],
        "databaseAdapter 'drizzle' is not available on databaseEngine 'mongodb'; choose mongoose",
    ),
    (["projectName=My App"], "projectName 'My App' must be lowercase"),
    (["projectName=_private"], "must not start with '.' or '_'"),
    (["projectName=http"], "projectName 'http' is a reserved name"),
    (["rootDir=/srv/api"], "rootDir '/srv/api' must be relative to stackwright.json, not absolute"),
    (["rootDir=../api"], "rootDir '../api' must not leave the project with '..'"),
    (["rootDir=apps\\api"], "must use '/' and no backslashes"),
    (["rootDir=apps//api"], "rootDir 'apps//api' has an empty or '.' segment"),
    (["rootDir="], "rootDir must not be empty"),
]


@pytest.mark.parametrize(("data", "message"), REFUSED, ids=[" ".join(d) for d, _ in REFUSED])
def test_bad_data_is_refused_before_anything_is_written(tmp_path, data, message):
    destination = tmp_path / "project"
    destination.mkdir()
    (destination / "mine.txt").write_text("the user's own file")
    args = ["copy", "--trust", "--defaults", "--vcs-ref=HEAD"]
    for item in data:
        args += ["--data", item]
    done = copier_cli(*args, str(REPO), str(destination))
    assert done.returncode != 0
    last_line = done.stderr.strip().splitlines()[-1]
    assert message in last_line, done.stderr[-2000:]
    assert [p.name for p in destination.iterdir()] == ["mine.txt"]
    assert (destination / "mine.txt").read_text() == "the user's own file"


# --- the questions and the schema agree ------------------------------------------------


@pytest.fixture(scope="module")
def plain_template(tmp_path_factory):
    """The template without its git history, so Copier reads it in place (fast)."""
    return plain_copy(tmp_path_factory.mktemp("template"))


def questions_accept(template, destination, answers) -> bool:
    worker = Worker(src_path=str(template), dst_path=Path(destination), data=answers, defaults=True, unsafe=True)
    try:
        worker._ask()
    except ValueError:
        return False
    return True


def all_combinations():
    enum = {k: SCHEMA["properties"][k]["enum"] for k in ("runtime", "framework", "architecture")}
    db = SCHEMA["properties"]["database"]["properties"]
    databases = [(None, None)] + list(itertools.product(db["engine"]["enum"], db["adapter"]["enum"]))
    return itertools.product(enum["runtime"], enum["framework"], enum["architecture"], databases)


def test_questions_accept_exactly_what_the_schema_accepts_within_scope(plain_template, tmp_path):
    validator = Draft7Validator(SCHEMA)
    in_scope_databases = {(e, a) for e, a in DATABASES}
    accepted_by_questions = accepted_by_schema = 0
    for runtime, framework, architecture, (engine, adapter) in all_combinations():
        answers = {"runtime": runtime, "framework": framework, "architecture": architecture}
        answers["databaseEngine"] = engine or "none"
        if engine:
            answers["databaseAdapter"] = adapter
        config = {
            "$schema": "./stackwright.schema.json",
            "version": "1.0.0",
            "rootDir": ".",
            "packageManager": "npm",
            "language": "typescript",
            "runtime": runtime,
            "framework": framework,
            "architecture": architecture,
            "database": {"engine": engine, "adapter": adapter} if engine else None,
        }
        in_scope = (runtime, framework, architecture) in BUILT_STACKS and (
            engine or "none",
            adapter,
        ) in in_scope_databases
        schema_ok = validator.is_valid(config)
        questions_ok = questions_accept(plain_template, tmp_path / "dst", answers)
        label = f"{answers}: questions={questions_ok} schema={schema_ok}"
        # Within scope the two agree exactly; outside it the questions refuse everything.
        assert questions_ok == (schema_ok and in_scope), label
        accepted_by_questions += questions_ok
        accepted_by_schema += schema_ok
    assert accepted_by_questions == len(BUILT_STACKS) * len(DATABASES)
    # Every stack the schema allows is built: the two accept exactly the same.
    assert accepted_by_schema == accepted_by_questions
    assert not (tmp_path / "dst").exists()
