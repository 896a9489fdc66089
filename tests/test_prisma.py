"""Prisma's data layer (issue 10), proven on this machine, which cannot download Prisma's
native engines (shared/notes/prisma.md):

- every engine: `prisma validate`, `format --check` and `generate` with a stand-in schema engine
  that fails loudly; the project type-checks, lints and passes its own tests; a broken schema fails;
- PostgreSQL: Prisma's own schema engine (its WASM build, through @prisma/adapter-pg) writes the
  migration from schema.prisma and applies it to the real server; the migrations-vs-schema diff is
  empty; db:migrate's constraints script adds what schema.prisma cannot say; the Drizzle variant's
  SQL behaviour tests pass on those tables; the generated client runs against them;
- MySQL: no Prisma migration engine runs offline for MySQL, so schema.prisma's structure (its
  DMMF) is compared with the tables the Drizzle MySQL variant creates on the real MariaDB, and the
  generated client runs against those tables.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import (
    API_TEST_FILES,
    REPO,
    FreshDatabase,
    assert_api_tests_ran,
    install_node_modules,
    npm_tool,
    prisma_stand_in,
    query,
    render,
    require_server,
    run,
    server_url,
    type_check,
)
from test_drizzle_models import UNION, behaviour_problems
from test_drizzle_models import build as build_drizzle
from test_drizzle_models import migrate as migrate_drizzle

from stackwright.bundles import RELATIONAL_ONLY
from stackwright.layouts import LAYOUTS
from stackwright.packages import VERSIONS

HELPERS = REPO / "tests" / "prisma"
# Prisma's WASM builds (not dependencies of generated projects): the schema engine that migrates,
# and prisma-fmt's DMMF. Internal, unversioned API: exact versions.
PRISMA_WASM = "8.1.0-2.59be4fda12412a79eeb9c2ae727b6aa723593323"
PACKAGES = VERSIONS["packages"]


def wasm_tools() -> Path:
    return npm_tool(
        "@prisma/schema-engine-wasm",
        PRISMA_WASM,
        f"@prisma/prisma-schema-wasm@{PRISMA_WASM}",
        f"@prisma/adapter-pg@{PACKAGES['@prisma/adapter-pg']}",
        f"@prisma/driver-adapter-utils@{PACKAGES['@prisma/adapter-pg']}",
        f"pg@{PACKAGES['pg']}",
    )


def prisma_project(dst: Path, engine: str, architecture: str, models: list[str] | None = None) -> tuple[Path, dict]:
    """Render a Prisma project, install its dependency set and generate its client, as its
    postinstall does; returns it with the environment its Prisma CLI needs here."""
    models = models or UNION
    bundles = sorted({item.split("/")[0] for item in models})
    project = render(
        dst,
        projectName="api",
        architecture=architecture,
        databaseEngine=engine,
        databaseAdapter="prisma",
        bundles=bundles,
        models=models,
    )
    install_node_modules(project)
    env = prisma_stand_in(dst.parent)
    scripts = json.loads((project / "package.json").read_text())["scripts"]
    assert scripts["postinstall"] == "prisma generate"
    run(["npx", "--no-install", "prisma", "generate"], project, env)
    return project, env


def checks_pass(project: Path, env: dict, url: str | None = None) -> None:
    """What `check` runs, plus Prisma's own validation and layout check; the project's tests
    run on the database of `url` (where its tables are), the domain APIs' among them. Without
    one (MongoDB: no server here) the APIs' tests are left out, by name."""
    run(["npx", "--no-install", "prisma", "validate"], project, env)
    run(["npx", "--no-install", "prisma", "format", "--check"], project, env)
    type_check(project)
    run(["npx", "--no-install", "biome", "check", "."], project)
    # The project's own test script (its Vitest options: one module cache, one file at a time).
    if url:
        output = run(["npm", "run", "test"], project, {"DATABASE_URL": url}, with_stderr=True)
        assert_api_tests_ran(output, project)
    else:
        apis = [f"--exclude=**/{name}" for names in API_TEST_FILES.values() for name in names]
        output = run(["npm", "run", "test", "--", *apis], project, env, with_stderr=True)
        ran = output.split(" RUN ", 1)[-1]  # what Vitest ran (npm echoes the command first)
        assert "health.test.ts" in ran and "sign-up.test.ts" not in ran, output


def schema_engine(command: str, project: Path, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["node", str(HELPERS / "schema-engine.mjs"), str(wasm_tools()), command, str(project), url, *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def db_migrate_rest(project: Path, url: str, env: dict[str, str] | None = None) -> None:
    """The part of db:migrate after `prisma migrate deploy`: the constraints script, run by the
    project's runtime (tsx, bun or deno; `env` puts the latter two on the PATH)."""
    script = json.loads((project / "package.json").read_text())["scripts"]["db:migrate"]
    deploy, _, rest = script.partition(" && ")
    assert deploy.endswith("migrate deploy") and rest, script
    command = rest.split()
    if command[0] == "tsx":
        command = ["npx", "--no-install", *command]
    run(command, project, {**(env or {}), "DATABASE_URL": url})


def create_tables(project: Path, engine: str, url: str, scratch: Path, env: dict[str, str] | None = None) -> None:
    """Create a Prisma SQL project's tables on the empty database of `url`, as its `db:generate`
    and `db:migrate` would where Prisma's native schema engine can be downloaded. PostgreSQL:
    Prisma's own engine (WASM) writes and applies the migration. MySQL: the Drizzle twin of the
    same models migrates (the same tables: test_mysql_prisma_schema_equals_the_drizzle_tables…).
    Then the rest of db:migrate (the constraints script) runs, where the models have one."""
    if engine == "postgresql":
        # Once written (an earlier database of the same project), the migration is applied again.
        migrations = project / "prisma" / "migrations"
        written = migrations.is_dir() and any(path.is_dir() for path in migrations.iterdir())
        for command in [["apply"]] if written else (["create", "init"], ["apply"]):
            done = schema_engine(command[0], project, url, *command[1:])
            assert done.returncode == 0, done.stdout + done.stderr
    else:
        answers = yaml.safe_load((project / ".copier-answers.yml").read_text())
        twin = build_drizzle(scratch / "drizzle-twin", "mysql", "mvc", answers["models"])
        done = migrate_drizzle(twin, "mvc", url)
        assert done.returncode == 0, done.stdout + done.stderr
    if " && " in json.loads((project / "package.json").read_text())["scripts"]["db:migrate"]:
        db_migrate_rest(project, url, env)


def runtime_checks(project: Path, architecture: str, url: str) -> None:
    database = LAYOUTS[architecture]["database.ts"]
    done = subprocess.run(
        ["npx", "--no-install", "tsx", str(HELPERS / "runtime-checks.mts"), database, url],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and "FAILED" not in done.stdout, f"{done.stdout}\n{done.stderr}"
    assert done.stdout.count("ok ") >= 11, done.stdout


# --- PostgreSQL: Prisma's own migration, then the spec's behaviour and the client -------------


def test_postgresql_prisma_migrates_with_its_own_engine_and_enforces_the_spec(tmp_path):
    require_server("PostgreSQL", 5432)
    project, env = prisma_project(tmp_path / "api", "postgresql", "feature")
    with FreshDatabase("postgresql") as db:
        url = server_url("postgresql", db)
        created = schema_engine("create", project, url, "init")
        assert created.returncode == 0, created.stderr
        migration = next((project / "prisma" / "migrations").glob("*_init/migration.sql")).read_text()
        assert 'CREATE TABLE "ledgers"' in migration and "ON DELETE RESTRICT" in migration
        applied = schema_engine("apply", project, url)
        assert applied.returncode == 0 and "_init" in applied.stdout, applied.stderr
        diff = schema_engine("diff", project, url)
        assert diff.returncode == 0 and "empty migration" in diff.stdout, diff.stdout + diff.stderr
        db_migrate_rest(project, url)
        db_migrate_rest(project, url)  # running it again is harmless
        problems = behaviour_problems("postgresql", db)
        assert not problems, "\n".join(problems)
    with FreshDatabase("postgresql") as db:
        url = server_url("postgresql", db)
        assert schema_engine("apply", project, url).returncode == 0
        db_migrate_rest(project, url)
        # The project's own tests first: their ledger checks cover the whole database, and the
        # runtime checks write rows behind the API's back.
        checks_pass(project, env, url)
        runtime_checks(project, "feature", url)


def test_a_schema_change_shows_in_the_migrations_diff(tmp_path):
    """The diff that proves migrations and schema agree can fail."""
    require_server("PostgreSQL", 5432)
    project = render(
        tmp_path / "api",
        projectName="api",
        databaseEngine="postgresql",
        databaseAdapter="prisma",
        bundles=["auth"],
        models=["auth/user", "auth/session"],
    )
    with FreshDatabase("postgresql") as db:
        url = server_url("postgresql", db)
        assert schema_engine("create", project, url, "init").returncode == 0
        session = project / "prisma" / "schema" / "session.prisma"
        session.write_text(session.read_text().replace("  ip ", "  device String? @db.VarChar(20)\n  ip "))
        diff = schema_engine("diff", project, url)
        assert diff.returncode == 2 and '"device"' in diff.stdout, diff.stdout + diff.stderr


# --- MySQL: schema.prisma's structure equals the Drizzle variant's tables -------------------


def dmmf(project: Path) -> dict:
    done = run(["node", str(HELPERS / "dmmf.cjs"), str(wasm_tools()), str(project / "prisma" / "schema")], project)
    return json.loads(done)


# Native types whose MariaDB column type is not their name in lower case.
NATIVE_MYSQL_TYPES = {"UnsignedBigInt": "bigint(20) unsigned"}
MYSQL_TYPES = {
    "Int": "int(11)",
    "BigInt": "bigint(20)",
    "Boolean": "tinyint(1)",
    "Json": "longtext",
}  # MariaDB's JSON is LONGTEXT
REFERENTIAL = {"Restrict": "RESTRICT", "Cascade": "CASCADE", "SetNull": "SET NULL", "NoAction": "NO ACTION"}


def expected_mysql(datamodel: dict) -> dict[str, set]:
    """What schema.prisma says of each table, in information_schema's terms."""
    enums = {e["name"]: [v.get("dbName") or v["name"] for v in e["values"]] for e in datamodel["enums"]}
    columns, indexes, foreign_keys = set(), set(), set()
    tables = {m["name"]: m.get("dbName") or m["name"] for m in datamodel["models"]}
    for model in datamodel["models"]:
        table = tables[model["name"]]
        by_name = {f["name"]: f.get("dbName") or f["name"] for f in model["fields"]}
        for field in model["fields"]:
            if field["kind"] == "object":
                if field.get("relationFromFields"):
                    target = next(m for m in datamodel["models"] if m["name"] == field["type"])
                    target_columns = {f["name"]: f.get("dbName") or f["name"] for f in target["fields"]}
                    foreign_keys.add(
                        (
                            table,
                            tuple(by_name[f] for f in field["relationFromFields"]),
                            tables[field["type"]],
                            tuple(target_columns[f] for f in field["relationToFields"]),
                            REFERENTIAL[field.get("relationOnDelete", "NoAction")],
                        )
                    )
                continue
            native = field.get("nativeType")
            if field["kind"] == "enum":
                kind = "enum(" + ",".join(f"'{v}'" for v in enums[field["type"]]) + ")"
            elif native:
                name, args = native
                kind = NATIVE_MYSQL_TYPES.get(name) or name.lower() + (
                    f"({','.join(args)})" if args and args != ["0"] else ""
                )
            else:
                kind = MYSQL_TYPES[field["type"]]
            default = field.get("default")
            if isinstance(default, dict):
                default = {"autoincrement": None, "now": "current_timestamp()"}[default["name"]]
            elif isinstance(default, bool):
                default = str(int(default))
            elif isinstance(default, str) and field["type"] == "String":
                default = f"'{default}'"  # MariaDB shows a string's default quoted
            elif isinstance(default, str) and field["kind"] == "enum":
                default = f"'{next(v.get('dbName') or v['name'] for v in next(e for e in datamodel['enums'] if e['name'] == field['type'])['values'] if v['name'] == default)}'"
            elif default is not None and kind.startswith("decimal("):
                # MariaDB shows a decimal's default at the column's scale (0 -> 0.00).
                default = f"{float(default):.{int(kind[:-1].split(',')[1])}f}"
            elif default is not None:
                default = str(default)
            columns.add((table, by_name[field["name"]], kind, "NO" if field["isRequired"] else "YES", default))
    for index in datamodel["indexes"]:
        table = tables[index["model"]]
        model = next(m for m in datamodel["models"] if m["name"] == index["model"])
        by_name = {f["name"]: f.get("dbName") or f["name"] for f in model["fields"]}
        name = "PRIMARY" if index["type"] == "id" else index["dbName"]
        indexes.add((table, name, index["type"] != "normal", tuple(by_name[f["name"]] for f in index["fields"])))
    return {"columns": columns, "indexes": indexes, "foreign_keys": foreign_keys}


def actual_mysql(db: str) -> dict[str, set]:
    """The same facts, read from MariaDB's information_schema (Drizzle's own table left out)."""

    def rows(sql: str) -> list[list[str]]:
        done = query("mysql", db, sql)
        assert done.returncode == 0, done.stderr
        return [line.split("\t") for line in done.stdout.strip().splitlines()]

    where = "table_schema = database() and table_name <> '__drizzle_migrations'"
    columns = {
        (t, c, kind, nullable, None if default == "NULL" else default)
        for t, c, kind, nullable, default in rows(
            f"select table_name, column_name, column_type, is_nullable, column_default from information_schema.columns where {where}"
        )
    }
    grouped: dict[tuple[str, str], list[tuple[int, str, bool]]] = {}
    for table, name, non_unique, seq, column in rows(
        f"select table_name, index_name, non_unique, seq_in_index, column_name from information_schema.statistics where {where}"
    ):
        grouped.setdefault((table, name), []).append((int(seq), column, non_unique == "0"))
    indexes = {(t, n, cols[0][2], tuple(c for _, c, _ in sorted(cols))) for (t, n), cols in grouped.items()}
    foreign_keys: dict[tuple[str, str], list] = {}
    for table, name, column, ref_table, ref_column, rule, position in rows(
        "select k.table_name, k.constraint_name, k.column_name, k.referenced_table_name, k.referenced_column_name, "
        "r.delete_rule, k.ordinal_position from information_schema.key_column_usage k "
        "join information_schema.referential_constraints r on r.constraint_name = k.constraint_name "
        "and r.constraint_schema = k.constraint_schema where k.constraint_schema = database()"
    ):
        foreign_keys.setdefault((table, name), []).append((int(position), column, ref_table, ref_column, rule))
    keys = {
        (t, tuple(c[1] for c in sorted(cols)), cols[0][2], tuple(c[3] for c in sorted(cols)), cols[0][4])
        for (t, _), cols in foreign_keys.items()
    }
    return {"columns": columns, "indexes": indexes, "foreign_keys": keys}


def test_mysql_prisma_schema_equals_the_drizzle_tables_and_its_client_runs_on_them(tmp_path):
    require_server("MariaDB", 3306)
    project, env = prisma_project(tmp_path / "api", "mysql", "mvc")
    drizzle = build_drizzle(tmp_path / "drizzle", "mysql", "mvc", UNION)
    with FreshDatabase("mysql") as db:
        url = server_url("mysql", db)
        done = migrate_drizzle(drizzle, "mvc", url)
        assert done.returncode == 0, done.stderr
        expected, actual = expected_mysql(dmmf(project)), actual_mysql(db)
        for fact in ("columns", "foreign_keys"):
            assert expected[fact] == actual[fact], (
                f"{fact}: only in schema.prisma {sorted(expected[fact] - actual[fact])}; "
                f"only in the database {sorted(actual[fact] - expected[fact])}"
            )
        assert expected["indexes"] == actual["indexes"], (
            f"indexes: only in schema.prisma {sorted(expected['indexes'] - actual['indexes'])}; "
            f"only in the database {sorted(actual['indexes'] - expected['indexes'])}"
        )
        db_migrate_rest(project, url)  # finds Drizzle's CHECKs by name; re-creates the triggers
        checks_pass(project, env, url)  # before the runtime checks' rows, as above
        runtime_checks(project, "mvc", url)


def test_mysql_migrations_with_prismas_native_engine(tmp_path):
    """Where Prisma's native schema engine can be downloaded, db:generate and db:migrate run for
    real on MariaDB. Not on this machine: its download host is unreachable."""
    require_server("MariaDB", 3306)
    project, _ = prisma_project(tmp_path / "api", "mysql", "mvc")  # the install of the MariaDB test above
    probe = subprocess.run(
        ["npx", "--no-install", "prisma", "version"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        env={k: v for k, v in os.environ.items() if k != "PRISMA_SCHEMA_ENGINE_BINARY"},
        check=False,
    )
    if probe.returncode != 0:
        error = next((line for line in probe.stderr.splitlines() if "Error" in line), probe.stderr[-300:])
        pytest.skip(f"Prisma's native schema engine cannot be downloaded here: {error.strip()}")
    with FreshDatabase("mysql") as db:
        env = {"DATABASE_URL": server_url("mysql", db)}
        run(["npx", "--no-install", "prisma", "migrate", "dev", "--name", "init"], project, env)
        run(["npx", "--no-install", "prisma", "migrate", "deploy"], project, env)
        assert query("mysql", db, "select count(*) from sessions").stdout.strip() == "0"


# --- every engine: the stand-in fails loudly, and so does a broken schema -------------------


def test_migrate_commands_fail_loudly_with_the_stand_in_engine(tmp_path):
    project, _ = prisma_project(tmp_path / "api", "postgresql", "feature")  # the install of the tests above
    done = subprocess.run(
        ["npx", "--no-install", "prisma", "migrate", "deploy"],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, **prisma_stand_in(tmp_path), "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/postgres"},
        check=False,
    )
    assert done.returncode != 0, "a migrate command passed with an engine that does nothing"


@pytest.mark.parametrize("engine", ["postgresql", "mongodb"])
def test_a_broken_schema_fails_validation(tmp_path, engine):
    # Every model: the dependency set (and its install) of the engine's tests above and below.
    project, _ = prisma_project(tmp_path / "api", engine, "mvc", UNION_MONGODB if engine == "mongodb" else UNION)
    # Prisma 6 (MongoDB) reads the URL when it validates; the project's .env would give it.
    env = {
        **prisma_stand_in(tmp_path),
        "DATABASE_URL": server_url(engine, "app") if engine != "mongodb" else "mongodb://localhost/app",
    }
    run(["npx", "--no-install", "prisma", "validate"], project, env)
    post = project / "prisma" / "schema" / "post.prisma"
    post.write_text(post.read_text().replace("model Post {", "model Post {\n  author2 Usr"))
    done = subprocess.run(
        ["npx", "--no-install", "prisma", "validate"],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
    )
    assert done.returncode != 0 and "Usr" in done.stdout + done.stderr


# --- MongoDB: Prisma 6, proven without a server ---------------------------------------------


def test_mongodb_prisma_generates_checks_and_keeps_its_rules_without_a_server(tmp_path):
    """No MongoDB server and no Prisma 6 query engine here: the schema validates and generates,
    the project passes its checks, and the parts schema.prisma cannot express are tested as
    code: the TTL and text index commands, and the extension that keeps ledgers immutable."""
    project, env = prisma_project(tmp_path / "api", "mongodb", "mvc", UNION_MONGODB)
    assert VERSIONS["adapterDependencies"]["mongodb/prisma"]["packages"]["prisma"].startswith("6.")
    assert (project / LAYOUTS["mvc"]["sign-up.test.ts"]).is_file(), "the auth API is generated"
    checks_pass(project, {**env, "DATABASE_URL": "mongodb://localhost:27017/app"})
    layout = LAYOUTS["mvc"]
    done = run(
        [
            "npx",
            "--no-install",
            "tsx",
            str(HELPERS / "mongodb-checks.mts"),
            layout["database.ts"],
            layout["indexes.ts"],
            layout["constants.ts"],
        ],
        project,
    )
    report = json.loads(done.strip().splitlines()[-1])
    ttl = {c["createIndexes"]: c["indexes"][0] for c in report["commands"] if "expireAfterSeconds" in c["indexes"][0]}
    assert {name: index["expireAfterSeconds"] for name, index in ttl.items()} == report["ttl"]
    assert all(index["key"] == {"createdAt": 1} and index["name"] == "createdAt_1" for index in ttl.values())
    assert {
        "createIndexes": "posts",
        "indexes": [{"key": {"title": "text", "content": "text"}, "name": "title_text_content_text"}],
    } in report["commands"]
    # A post's slug is unique on its own, as in SQL (GET /posts/{slug} names one post): the client
    # Prisma generated finds a post by its slug alone.
    client = (project / "node_modules" / ".prisma" / "client" / "index.d.ts").read_text()
    unique_input = client.split("export type PostWhereUniqueInput = Prisma.AtLeast<{", 1)[1].split("}", 1)[0]
    assert re.search(r"^\s*slug\?: string$", unique_input, re.MULTILINE), unique_input
    for call in ("update", "deleteMany", "upsert"):
        assert report[call] == f"LedgerImmutableError: {report['message']}", report
    # Reads are not the extension's business: they reach Prisma's engine (which cannot load here).
    assert not report["findMany"].startswith("LedgerImmutableError"), report


def test_mongodb_repositories_put_every_condition_outside_a_transaction_in_one_update_command():
    """Prisma's update and updateMany on MongoDB read the ids their `where` matches, then update
    those ids unconditionally (prisma-engines: mongodb-query-connector, update_records). Outside
    a transaction such a condition is not atomic: parallel requests could all pass it (spend one
    code twice). So there they select a document by a unique key alone, and every condition goes
    through updateWhere, one update command. Inside `inTransaction` a write conflict retries."""
    calls = []
    for fragment in sorted((REPO / "template" / "layers" / "apis").glob("*/storage/prisma-mongodb/*.jinja")):
        for match in re.finditer(r"\bdb\.(\w+)\.(update|updateMany)\(\{\s*where:\s*\{([^}]*)\}", fragment.read_text()):
            keys = {part.split(":")[0].strip() for part in match[3].split(",") if part.strip()}
            calls.append((fragment.name, f"{match[1]}.{match[2]}", sorted(keys)))
    assert len(calls) >= 5, f"the pattern no longer finds the repositories' updates: {calls}"
    unique_keys = {"id", "email"}
    assert [call for call in calls if not set(call[2]) <= unique_keys] == []


UNION_MONGODB = [item for item in UNION if item.split("/")[1] not in RELATIONAL_ONLY]
