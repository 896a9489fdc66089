"""Drizzle schemas of the data-model bundles (PostgreSQL and MariaDB): every variant builds,
lints, generates SQL and migrates; the union variant behaves as the spec says on a real database."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from conftest import (
    FreshDatabase,
    install_node_modules,
    query,
    render,
    require_server,
    run,
    server_url,
    type_check_together,
)

ARCHITECTURES = ["mvc", "feature"]
DIALECTS = ["postgresql", "mysql"]
MIGRATE = {"mvc": "src/db/migrate.ts", "feature": "src/shared/database/migrate.ts"}
TEMPLATES = {
    "auth": ["otp", "user", "session", "refresh-token"],
    "banking-app": ["account", "user", "transaction", "ledger"],
    "blog-app": ["category", "user", "post", "comment", "post-like", "comment-like"],
}
UNION = [f"{bundle}/{model}" for bundle, models in TEMPLATES.items() for model in models]


# --- helpers ------------------------------------------------------------------


def variants(bundle: str) -> list[tuple[str, list[str]]]:
    """(template name, model items) of a bundle: its index (all models) and one per model.

    The `user` template of banking-app and blog-app generates the same schema as auth's, so it
    is built once (under auth) to keep the matrix fast.
    """
    return [("index", [f"{bundle}/{m}" for m in TEMPLATES[bundle]])] + [
        (m, [f"{bundle}/{m}"]) for m in TEMPLATES[bundle] if m != "user" or bundle == "auth"
    ]


def build(dst: Path, dialect: str, arch: str, models: list[str]) -> Path:
    """Render a variant, link node_modules and write its SQL migrations with drizzle-kit."""
    bundles = sorted({item.split("/")[0] for item in models})
    project = render(
        dst,
        projectName="x",
        architecture=arch,
        databaseEngine=dialect,
        databaseAdapter="drizzle",
        bundles=bundles,
        models=models,
    )
    install_node_modules(project)
    run(["npx", "--no-install", "drizzle-kit", "generate"], cwd=project)
    sql = list((project / "drizzle").glob("*.sql"))
    assert sql and all(f.read_text().strip() for f in sql), f"drizzle-kit wrote no SQL in {project}"
    return project


def migrate(project: Path, arch: str, url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["npx", "--no-install", "tsx", MIGRATE[arch]],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DATABASE_URL": url},
        check=False,
    )


def require(dialect: str) -> None:
    require_server("PostgreSQL" if dialect == "postgresql" else "MariaDB", 5432 if dialect == "postgresql" else 3306)


# --- 1. the matrix: every variant type-checks, lints, generates SQL and migrates ---------------


# Every template once per dialect, in one architecture; the architectures alternate, so each
# dialect meets both (the SQL is the same in both; only the files' places differ).
MATRIX = [
    (dialect, ARCHITECTURES[(d + b) % 2], bundle)
    for d, dialect in enumerate(DIALECTS)
    for b, bundle in enumerate([*TEMPLATES, "union"])
]


@pytest.mark.parametrize(("dialect", "arch", "bundle"), MATRIX, ids=["-".join(case) for case in MATRIX])
def test_every_variant_builds_and_migrates(tmp_path, dialect, arch, bundle):
    require(dialect)
    cases = [("union", UNION)] if bundle == "union" else variants(bundle)
    failures = []
    built = []
    for template, models in cases:
        try:
            built.append(build(tmp_path / template, dialect, arch, models))
        except (pytest.fail.Exception, AssertionError) as error:
            failures.append(f"--- {dialect}/{arch}/{bundle}/{template}\n{error}")
    try:
        type_check_together(tmp_path, built)
    except (pytest.fail.Exception, AssertionError) as error:
        failures.append(f"--- {dialect}/{arch}/{bundle}: tsc\n{error}")
    for project in built:
        label = f"{dialect}/{arch}/{bundle}/{project.name}"
        try:
            run(["npx", "--no-install", "biome", "check", "."], cwd=project)
            with FreshDatabase(dialect) as db:
                done = migrate(project, arch, server_url(dialect, db))
                assert done.returncode == 0, f"db:migrate failed:\n{done.stdout}\n{done.stderr}"
                if bundle == "union":  # re-running is harmless (triggers are re-created)
                    again = migrate(project, arch, server_url(dialect, db))
                    assert again.returncode == 0, f"second db:migrate failed:\n{again.stderr}"
        except (pytest.fail.Exception, AssertionError) as error:
            failures.append(f"--- {label}\n{error}")
    assert not failures, "\n".join(failures)


# --- 2. real SQL behaviour of the union variant ------------------------------------------------


def flag(column: str) -> str:
    """A boolean column as 1/0 in both dialects."""
    return f"case when {column} then 1 else 0 end"


def behaviour(dialect: str) -> list[tuple[str, str]]:
    """(statement, expectation): 'ok', 'fail' or 'fail:<text>', or '=<value>' for a query."""
    pg = dialect == "postgresql"
    long = lambda n: "'" + "x" * n + "'"
    soon = "now() + interval '1 day'" if pg else "now() + interval 1 day"
    msg = "a ledger cannot be updated"
    return [
        # users: defaults, unique email, lengths, enums
        ("insert into users (name, email) values ('Bank', 'bank@x.io')", "ok"),
        ("insert into users (name, email) values ('Blog', 'blog@x.io')", "ok"),
        (
            (
                f"select concat(role, '|', provider, '|', {flag('is_email_verified')}, '|', "
                f"failed_login_attempts, '|', {flag('is_deleted')}, '|', "
                f"{flag('created_at is not null and updated_at is not null')}, '|', "
                f"{flag('password is null and provider_id is null and deleted_at is null')}) "
                "from users where email = 'bank@x.io'"
            ),
            "=user|local|0|0|0|1|1",
        ),
        ("insert into users (name, email) values ('Dup', 'bank@x.io')", "fail"),
        (f"insert into users (name, email) values ({long(100)}, 'n100@x.io')", "ok"),
        (f"insert into users (name, email) values ({long(101)}, 'n101@x.io')", "fail"),
        (f"insert into users (name, email) values ('E', concat({long(250)}, '@x.io'))", "ok"),
        (f"insert into users (name, email) values ('E', concat({long(251)}, '@x.io'))", "fail"),
        (f"insert into users (name, email, password) values ('P', 'p1@x.io', {long(255)})", "ok"),
        (f"insert into users (name, email, password) values ('P', 'p2@x.io', {long(256)})", "fail"),
        (f"insert into users (name, email, provider_id) values ('P', 'p3@x.io', {long(256)})", "fail"),
        ("insert into users (name, email, role) values ('R', 'r1@x.io', 'admin')", "ok"),
        ("insert into users (name, email, role) values ('R', 'r2@x.io', 'root')", "fail"),
        ("insert into users (name, email, provider) values ('R', 'r3@x.io', 'github')", "ok"),
        ("insert into users (name, email, provider) values ('R', 'r4@x.io', 'gitlab')", "fail"),
        (
            (
                "insert into users (name, email, avatar) values "
                """('A', 'a1@x.io', '{"url": "https://x.io/a.png", "size": 3}')"""
            ),
            "ok",
        ),
        # sessions
        (
            (
                "insert into sessions (user_id, token_hash, expires_at) "
                f"select id, 'tok1', {soon} from users where email = 'blog@x.io'"
            ),
            "ok",
        ),
        (
            (
                f"select concat({flag('is_active')}, '|', {flag('last_used_at is not null')}) "
                "from sessions where token_hash = 'tok1'"
            ),
            "=1|1",
        ),
        ("insert into sessions (user_id, token_hash, expires_at) values (1, 'tok1', now())", "fail"),
        ("insert into sessions (user_id, token_hash, expires_at) values (999999, 'tok2', now())", "fail"),
        (f"insert into sessions (user_id, token_hash, expires_at) values (1, {long(256)}, now())", "fail"),
        (f"insert into sessions (user_id, token_hash, ip, expires_at) values (2, 't3', {long(45)}, now())", "ok"),
        (f"insert into sessions (user_id, token_hash, ip, expires_at) values (1, 't4', {long(46)}, now())", "fail"),
        (
            f"insert into sessions (user_id, token_hash, user_agent, expires_at) values (2, 't5', {long(512)}, now())",
            "ok",
        ),
        (
            f"insert into sessions (user_id, token_hash, user_agent, expires_at) values (1, 't6', {long(513)}, now())",
            "fail",
        ),
        # refresh tokens
        (
            (
                "insert into refresh_tokens (user_id, token_hash, expires_at) "
                f"select id, 'rt1', {soon} from users where email = 'blog@x.io'"
            ),
            "ok",
        ),
        (f"select {flag('is_revoked')} from refresh_tokens where token_hash = 'rt1'", "=0"),
        ("insert into refresh_tokens (user_id, token_hash, expires_at) values (999999, 'rt2', now())", "fail"),
        (
            (
                "insert into refresh_tokens (user_id, token_hash, expires_at, replaced_by_token_hash) "
                f"values (1, 'rt3', now(), {long(256)})"
            ),
            "fail",
        ),
        # otps
        (
            (
                "insert into otps (email, otp_hash_code, next_resend_allowed_at, type, expires_at) "
                "values ('o@x.io', 'h', now(), 'signin', now())"
            ),
            "ok",
        ),
        (f"select concat({flag('is_used')}, '|', attempts, '|', max_attempts) from otps", "=0|0|5"),
        (
            (
                "insert into otps (email, otp_hash_code, next_resend_allowed_at, type, expires_at) "
                "values ('o@x.io', 'h', now(), 'magic-link', now())"
            ),
            "fail",
        ),
        (
            (
                "insert into otps (email, otp_hash_code, next_resend_allowed_at, type, expires_at) "
                f"values ({long(256)}, 'h', now(), 'signin', now())"
            ),
            "fail",
        ),
        (
            (
                "insert into otps (email, otp_hash_code, next_resend_allowed_at, type, expires_at) "
                f"values ('o@x.io', {long(256)}, now(), 'signin', now())"
            ),
            "fail",
        ),
        # accounts (owned by the bank user, id 1)
        ("insert into accounts (user_id, type) values (1, 'savings')", "ok"),
        ("insert into accounts (user_id, type) values (1, 'current')", "ok"),
        (
            f"select concat(currency, '|', status, '|', {flag('system_account')}) from accounts where id = 1",
            "=NPR|active|0",
        ),
        # the spec's pg default; MariaDB gives a NOT NULL enum its first value (savings) too
        ("insert into accounts (user_id) values (1)", "ok"),
        ("select type from accounts where id = 3", "=savings"),
        ("insert into accounts (user_id, type) values (1, 'loan')", "fail"),
        ("insert into accounts (user_id, type, currency) values (1, 'savings', 'EUR')", "fail"),
        ("insert into accounts (user_id, type, status) values (1, 'savings', 'open')", "fail"),
        ("insert into accounts (user_id, type) values (999999, 'savings')", "fail"),
        # the cached balance (not in the spec): exact, never below zero but on the bank's own accounts
        ("select balance from accounts where id = 1", "=0.00"),
        ("update accounts set balance = 12.345 where id = 1", "ok"),
        ("select balance from accounts where id = 1", "=12.35"),
        ("update accounts set balance = -0.01 where id = 1", "fail"),
        ("update accounts set system_account = true, balance = -0.01 where id = 3", "ok"),
        # transactions: money, checks, unique idempotency key, FKs
        (
            "insert into transactions (from_account_id, to_account_id, amount, idempotency_key) values (1, 2, 10.5, 'k1')",
            "ok",
        ),
        ("select concat(status, '|', amount) from transactions where idempotency_key = 'k1'", "=pending|10.50"),
        (
            "insert into transactions (from_account_id, to_account_id, amount, idempotency_key) values (1, 2, 1, 'k1')",
            "fail",
        ),
        (
            "insert into transactions (from_account_id, to_account_id, amount, idempotency_key) values (1, 2, 0, 'k2')",
            "fail",
        ),
        (
            "insert into transactions (from_account_id, to_account_id, amount, idempotency_key) values (1, 2, -5, 'k3')",
            "fail",
        ),
        (
            "insert into transactions (from_account_id, to_account_id, amount, idempotency_key) values (1, 1, 5, 'k4')",
            "fail",
        ),
        (
            "insert into transactions (from_account_id, to_account_id, amount, idempotency_key) values (1, 999999, 5, 'k5')",
            "fail",
        ),
        (
            (
                "insert into transactions (from_account_id, to_account_id, amount, idempotency_key) "
                "values (1, 2, 9999999999999.99, 'k6')"
            ),
            "ok",
        ),
        (
            (
                "insert into transactions (from_account_id, to_account_id, amount, idempotency_key) "
                "values (1, 2, 10000000000000.00, 'k7')"
            ),
            "fail",
        ),
        (
            (
                "insert into transactions (from_account_id, to_account_id, amount, idempotency_key) "
                "values (2, 1, 0.01, 'k8')"
            ),
            "ok",
        ),
        ("select amount from transactions where idempotency_key = 'k8'", "=0.01"),
        (
            (
                "insert into transactions (from_account_id, to_account_id, amount, status, idempotency_key) "
                "values (2, 1, 1, 'lost', 'k9')"
            ),
            "fail",
        ),
        (
            (
                "insert into transactions (from_account_id, to_account_id, amount, idempotency_key) "
                f"values (2, 1, 1, {long(256)})"
            ),
            "fail",
        ),
        # ledgers: checks, FKs, immutability trigger
        ("insert into ledgers (account_id, transaction_id, entry_type, amount) values (1, 1, 'debit', 10.5)", "ok"),
        ("insert into ledgers (account_id, transaction_id, entry_type, amount) values (2, 1, 'credit', 10.5)", "ok"),
        ("insert into ledgers (account_id, transaction_id, entry_type, amount) values (1, 1, 'debit', 0)", "fail"),
        ("insert into ledgers (account_id, transaction_id, entry_type, amount) values (1, 1, 'refund', 1)", "fail"),
        ("insert into ledgers (account_id, transaction_id, entry_type, amount) values (1, 999999, 'debit', 1)", "fail"),
        ("update ledgers set amount = 1 where id = 1", f"fail:{msg}"),
        ("delete from ledgers where id = 1", f"fail:{msg}"),
        ("select count(*) from ledgers", "=2"),
        # banking restricts: nothing cascades into ledgers
        ("delete from transactions where id = 1", "fail"),
        ("delete from accounts where id = 1", "fail"),
        ("delete from users where id = 1", "fail"),
        # categories
        ("insert into categories (name, slug) values ('Tech', 'tech')", "ok"),
        ("insert into categories (name, slug) values ('Tech', 'tech-2')", "fail"),
        ("insert into categories (name, slug) values ('Tech 2', 'tech')", "fail"),
        (f"insert into categories (name, slug) values ({long(101)}, 'long')", "fail"),
        # posts (by the blog user, id 2)
        ("insert into posts (title, slug, author_id, category_id) values ('Hello', 'hello', 2, 1)", "ok"),
        ("select concat(views, '|', status) from posts where slug = 'hello'", "=0|draft"),
        ("insert into posts (title, slug, author_id, category_id) values ('Again', 'hello', 2, 1)", "fail"),
        ("insert into posts (title, slug, author_id, category_id) values ('Other', 'hello', 1, 1)", "fail"),
        (f"insert into posts (title, slug, author_id, category_id) values ({long(101)}, 'long', 2, 1)", "fail"),
        ("insert into posts (title, slug, author_id, category_id, status) values ('S', 's', 2, 1, 'gone')", "fail"),
        ("insert into posts (title, slug, author_id, category_id) values ('C', 'c', 2, 999999)", "fail"),
        ("insert into posts (title, slug, author_id, category_id) values ('U', 'u', 999999, 1)", "fail"),
        ("delete from categories where id = 1", "fail"),  # restrict
        # comments, likes
        ("insert into comments (post_id, author_id, content) values (1, 2, 'first')", "ok"),
        ("insert into comments (post_id, author_id, content, parent_comment_id) values (1, 2, 'reply', 1)", "ok"),
        ("insert into comments (post_id, author_id, content) values (999999, 2, 'x')", "fail"),
        ("insert into comments (post_id, author_id, content, parent_comment_id) values (1, 2, 'x', 999999)", "fail"),
        ("insert into post_likes (user_id, post_id) values (2, 1)", "ok"),
        ("insert into post_likes (user_id, post_id) values (2, 1)", "fail"),
        ("insert into post_likes (user_id, post_id) values (999999, 1)", "fail"),
        (f"select {flag('created_at is not null and updated_at is not null')} from post_likes", "=1"),
        ("insert into comment_likes (user_id, comment_id) values (2, 2)", "ok"),
        ("insert into comment_likes (user_id, comment_id) values (2, 2)", "fail"),
        ("insert into comment_likes (user_id, comment_id) values (2, 999999)", "fail"),
        # deleting a parent comment keeps its replies as top-level comments (set null)
        ("delete from comments where id = 1", "ok"),
        ("select count(*) from comments where id = 2 and parent_comment_id is null", "=1"),
        # deleting the post cascades to its comments, their likes and the post's likes
        ("insert into posts (title, slug, author_id, category_id) values ('Two', 'two', 2, 1)", "ok"),
        ("delete from posts where slug = 'hello'", "ok"),
        (
            (
                "select concat((select count(*) from comments), '|', (select count(*) from post_likes), '|', "
                "(select count(*) from comment_likes))"
            ),
            "=0|0|0",
        ),
        # deleting the blog user cascades to sessions, refresh tokens and posts
        ("insert into comments (post_id, author_id, content) select id, 2, 'c' from posts", "ok"),
        ("delete from users where id = 2", "ok"),
        (
            (
                "select concat((select count(*) from sessions), '|', (select count(*) from refresh_tokens), '|', "
                "(select count(*) from posts), '|', (select count(*) from comments))"
            ),
            "=0|0|0|0",
        ),
        ("delete from categories where id = 1", "ok"),
    ]


def behaviour_problems(dialect: str, db: str) -> list[str]:
    """Run behaviour(dialect) on a database holding the union's tables; what went otherwise."""
    problems = []
    for statement, expect in behaviour(dialect):
        done = query(dialect, db, statement)
        out = done.stdout.strip()
        if expect == "ok" and done.returncode != 0:
            problems.append(f"should succeed: {statement}\n  {done.stderr.strip()}")
        elif expect.startswith("fail") and done.returncode == 0:
            problems.append(f"should fail: {statement}")
        elif expect.startswith("fail:") and expect[5:] not in done.stderr:
            problems.append(f"should fail with {expect[5:]!r}: {statement}\n  {done.stderr.strip()}")
        elif expect.startswith("=") and (done.returncode != 0 or out != expect[1:]):
            problems.append(f"{statement}\n  expected {expect[1:]!r}, got {out!r} {done.stderr.strip()}")
    return problems


@pytest.mark.parametrize("dialect", DIALECTS)
def test_union_schema_enforces_the_spec(tmp_path, dialect):
    require(dialect)
    project = build(tmp_path / "union", dialect, "feature", UNION)
    with FreshDatabase(dialect) as db:
        done = migrate(project, "feature", server_url(dialect, db))
        assert done.returncode == 0, done.stderr
        if dialect == "mysql":  # length limits rely on strict mode (MariaDB's default)
            mode = query(dialect, db, "select @@sql_mode").stdout
            assert "STRICT_TRANS_TABLES" in mode or "STRICT_ALL_TABLES" in mode, mode
        problems = behaviour_problems(dialect, db)
        if dialect == "mysql":  # updated_at is refreshed by the database itself (ON UPDATE)
            query(dialect, db, "update users set created_at = '2000-01-01', updated_at = '2000-01-01' where id = 1")
            query(dialect, db, "update users set name = 'Bank 2' where id = 1")
            out = query(dialect, db, "select year(created_at), year(updated_at) > 2000 from users where id = 1")
            if out.stdout.split() != ["2000", "1"]:
                problems.append(f"updated_at not refreshed on update: {out.stdout!r} {out.stderr}")
    assert not problems, "\n".join(problems)


# --- 3. db:migrate reports the real error ---------------------------------------------------------


@pytest.mark.parametrize("dialect", DIALECTS)
def test_migrate_prints_the_database_error(tmp_path, dialect):
    project = build(tmp_path / "auth", dialect, "mvc", ["auth/user", "auth/session"])
    closed = "postgres://postgres@127.0.0.1:1/x" if dialect == "postgresql" else "mysql://root@127.0.0.1:1/x"
    done = migrate(project, "mvc", closed)
    assert done.returncode != 0
    assert "db:migrate failed" in done.stderr and "ECONNREFUSED" in done.stderr, done.stderr


# --- 4. a reference to an absent model keeps its column, without the foreign key ------------------


def fk_rule(dialect: str, db: str, table: str, column: str) -> list[str]:
    """Delete rules of the foreign keys on table.column."""
    if dialect == "postgresql":
        sql = (
            "select rc.delete_rule from information_schema.referential_constraints rc "
            "join information_schema.key_column_usage k on k.constraint_name = rc.constraint_name "
            f"where k.table_name = '{table}' and k.column_name = '{column}'"
        )
    else:
        sql = (
            "select rc.delete_rule from information_schema.referential_constraints rc "
            "join information_schema.key_column_usage k on k.constraint_name = rc.constraint_name "
            "and k.constraint_schema = rc.constraint_schema "
            f"where rc.constraint_schema = database() and k.table_name = '{table}' and k.column_name = '{column}'"
        )
    return query(dialect, db, sql).stdout.split()


def column_facts(dialect: str, db: str, table: str, column: str) -> str:
    schema = "current_schema()" if dialect == "postgresql" else "database()"
    sql = (
        "select concat(data_type, '|', is_nullable) from information_schema.columns "
        f"where table_schema = {schema} and table_name = '{table}' and column_name = '{column}'"
    )
    return query(dialect, db, sql).stdout.strip()


@pytest.mark.parametrize("dialect", DIALECTS)
def test_absent_reference_keeps_column_without_foreign_key(tmp_path, dialect):
    require(dialect)
    integer = "integer" if dialect == "postgresql" else "int"
    alone = build(tmp_path / "alone", dialect, "mvc", ["auth/session"])
    both = build(tmp_path / "both", dialect, "mvc", ["auth/user", "auth/session"])
    assert "references(" not in (alone / "src/db/schema/session.ts").read_text()
    with FreshDatabase(dialect) as db:
        assert migrate(alone, "mvc", server_url(dialect, db)).returncode == 0
        assert column_facts(dialect, db, "sessions", "user_id") == f"{integer}|NO"
        assert fk_rule(dialect, db, "sessions", "user_id") == []
    with FreshDatabase(dialect) as db:
        assert migrate(both, "mvc", server_url(dialect, db)).returncode == 0
        assert column_facts(dialect, db, "sessions", "user_id") == f"{integer}|NO"
        assert fk_rule(dialect, db, "sessions", "user_id") == ["CASCADE"]
