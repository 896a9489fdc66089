"""Every stack but Node + Express (tests/test_generated_projects.py), proven alike: installed
with the chosen package manager, type-checked, linted, its own tests run, built where it
builds, migrated on the real PostgreSQL and MariaDB, and served (/health, /health/ready 200
against the real server and 503 on a closed port, a JSON 404, a graceful SIGTERM, and a bad
environment stops it with one line).

The bun and deno binaries are the npm packages pinned in extensions/versions.json,
fetched once into .cache/tools. Each case is one project: the union of all bundles per
stack and data layer, plus one single-model selection per stack. Between them the cases
install with every package manager.

Every case runs on this machine's Node.js 20. Each Node framework is proven once more on the
current Node LTS (conftest.NODE_LTS_VERSION), installed by its package manager running on it.
"""

from __future__ import annotations

import contextlib
import functools
import http.client
import http.server
import json
import os
import posixpath
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from email.message import Message
from pathlib import Path

import pytest
import yaml
from balancer import Balancer, Load
from conftest import (
    API_TEST_FILES,
    CACHE,
    NODE_LTS_VERSION,
    FreshDatabase,
    _server_up,
    assert_api_tests_ran,
    copied,
    failure_output,
    free_port,
    get_json,
    install_node_modules,
    node_lts_bin,
    npm_tool,
    prisma_stand_in,
    query,
    render,
    require_server,
    run,
    server_url,
    timed,
    wait_listening,
)
from otlp_sink import OtlpSink
from own_database import OwnMariaDB, OwnPostgres, transfers_through
from pgbouncer import TransactionPooler
from query_counter import counting_queries
from smtp_sink import SmtpSink
from test_package_managers import install as install_with
from test_package_managers import package_manager, tool_env
from test_prisma import create_tables

from stackwright.bundles import BUNDLES
from stackwright.layouts import LAYOUTS, import_path, layout_path
from stackwright.packages import VERSIONS, lockfile

ALL_BUNDLES = list(BUNDLES)
DATA_LAYERS = {
    "none": {"databaseEngine": "none"},
    "postgresql": {"databaseEngine": "postgresql", "databaseAdapter": "drizzle"},
    "mysql": {"databaseEngine": "mysql", "databaseAdapter": "drizzle"},
    "mongodb": {"databaseEngine": "mongodb", "databaseAdapter": "mongoose"},
}
# Each stack's architectures, taken in turn across its data layers.
STACKS = {
    "bun-express": {
        "runtime": "bun",
        "framework": "express",
        "packageManager": "bun",
        "architecture": ["mvc", "feature"],
    },
    "bun-hono": {"runtime": "bun", "framework": "hono", "packageManager": "bun", "architecture": ["mvc", "feature"]},
    "deno-hono": {"runtime": "deno", "framework": "hono", "packageManager": "npm", "architecture": ["mvc", "feature"]},
    "node-nestjs": {"runtime": "node", "framework": "nestjs", "packageManager": "npm", "architecture": ["modular"]},
    "node-nextjs": {"runtime": "node", "framework": "nextjs", "packageManager": "npm", "architecture": ["file-api"]},
}


def stack_answers(stack: str, turn: int) -> dict:
    answers = dict(STACKS[stack])
    architectures = answers.pop("architecture")
    return {**answers, "architecture": architectures[turn % len(architectures)]}


CASES = {
    f"{stack}-{layer}": {
        **stack_answers(stack, turn),
        **DATA_LAYERS[layer],
        **({"bundles": ALL_BUNDLES} if layer != "none" else {}),
    }
    for stack in STACKS
    for turn, layer in enumerate(DATA_LAYERS)
}
# Each pairing of layers once: Hono on Bun adds none on MariaDB or MongoDB (Bun meets both in
# its Express cases, Hono in its Deno ones), so it runs without a database and on PostgreSQL.
# NestJS and Next.js meet MariaDB through Prisma (below, and the Node LTS case) and Drizzle on
# PostgreSQL: Drizzle on MariaDB adds no pairing to them (it meets Express, Hono, Bun and Deno).
del CASES["bun-hono-mysql"], CASES["bun-hono-mongodb"]
del CASES["node-nestjs-mysql"], CASES["node-nextjs-mysql"]
# Every package manager installs a Deno project and a NestJS one: npm above, bun, pnpm and Yarn
# here and in the Prisma cases; a project in a sub-folder (rootDir) on each framework.
CASES["deno-hono-none"].update(packageManager="bun", rootDir="apps/api")
CASES["deno-hono-mysql"]["packageManager"] = "pnpm"
CASES["deno-hono-postgresql"]["packageManager"] = "yarn"
CASES["node-nestjs-none"]["packageManager"] = "bun"
CASES["node-nestjs-mongodb"]["packageManager"] = "yarn"
CASES["node-nextjs-none"]["packageManager"] = "bun"
CASES["node-nextjs-mongodb"].update(packageManager="yarn", rootDir="apps/api")
# Prisma with every framework (Node + Express: tests/test_prisma.py; Next.js: the Node LTS case
# below), every runtime, every engine and every package manager, each pairing once; the SQL
# ones are served and run their API tests.
PRISMA_CASES = [
    ("bun-express", "mysql", "bun"),
    ("bun-hono", "mongodb", "bun"),
    ("deno-hono", "postgresql", "yarn"),
    ("node-nestjs", "mysql", "pnpm"),
]
CASES.update(
    {
        f"{stack}-prisma-{engine}": {
            **stack_answers(stack, 1),
            "databaseEngine": engine,
            "databaseAdapter": "prisma",
            "bundles": ALL_BUNDLES,
            "packageManager": manager,
        }
        for stack, engine, manager in PRISMA_CASES
    }
)
CASES["node-nestjs-prisma-mysql"]["rootDir"] = "apps/api"

# The current Node.js LTS (every other case runs on this machine's Node 20): each Node framework
# once, each on another data layer and package manager, which installs it running on that Node.
# NestJS's MongoDB case runs there rather than twice.
NODE_LTS_CASES = {
    "node-express-postgresql": {
        "runtime": "node",
        "framework": "express",
        "architecture": "feature",
        **DATA_LAYERS["postgresql"],
        "bundles": ALL_BUNDLES,
        "packageManager": "npm",
    },
    "node-nestjs-mongodb": CASES.pop("node-nestjs-mongodb"),
    "node-nextjs-prisma-mysql": {
        **stack_answers("node-nextjs", 0),
        "databaseEngine": "mysql",
        "databaseAdapter": "prisma",
        "bundles": ALL_BUNDLES,
        "packageManager": "pnpm",
    },
}

CLOSED_PORT_URLS = {
    "postgresql": "postgres://postgres@127.0.0.1:1/postgres",
    "mysql": "mysql://root@127.0.0.1:1/mysql",
    "mongodb": "mongodb://127.0.0.1:1/app",
}


def runtime_env() -> dict[str, str]:
    """PATH with the pinned bun and deno; their caches inside .cache."""
    versions = VERSIONS["runtimes"]
    bins = [str(npm_tool(name, versions[name]) / ".bin") for name in ("bun", "deno")]
    return {
        **os.environ,
        "PATH": os.pathsep.join([*bins, os.environ["PATH"]]),
        "BUN_INSTALL_CACHE_DIR": str(CACHE / "bun"),
        "DENO_DIR": str(CACHE / "deno"),
        "DENO_TLS_CA_STORE": "system",  # this machine's proxy re-signs TLS (see shared/notes/runtimes.md)
        "NEXT_TELEMETRY_DISABLED": "1",
        "NO_COLOR": "1",
    }


def manager_env(manager: str) -> tuple[str, dict[str, str]]:
    """The package manager's command and environment: pnpm and Yarn at their pinned versions."""
    env = runtime_env()
    if manager in ("pnpm", "yarn"):
        exe = package_manager(manager)
        runtime_vars = {k: v for k, v in env.items() if k.startswith(("BUN_", "DENO_"))}
        # The runtimes' PATH, and the manager on it: scripts that run others (`typecheck`:
        # `pnpm run client:generate && ...`) find it there, as they find a user's own.
        path = os.pathsep.join([str(exe.parent), env["PATH"]])
        return str(exe), {**tool_env(manager), **runtime_vars, "PATH": path}
    return manager, env


def install(project: Path, manager: str, scratch: Path, node: Path | None = None) -> tuple[str, dict[str, str]]:
    """Install with the project's package manager (npm: once per dependency set, unless `node`);
    returns how to run it. `node`: a folder whose `node` runs the package manager and every script."""
    command, env = manager_env(manager)
    env = {**env, **prisma_stand_in(scratch)}  # for a Prisma project's postinstall (prisma generate)
    if node:
        env["PATH"] = os.pathsep.join([str(node), env["PATH"]])
    if manager == "npm" and not node:
        # Turbopack refuses a node_modules symlinked from outside the project.
        install_node_modules(
            project, real_folder="next" in json.loads((project / "package.json").read_text())["dependencies"]
        )
        if "postinstall" in json.loads((project / "package.json").read_text())["scripts"]:
            run([command, "run", "postinstall"], project, env)  # the shared install ran no project script
    else:
        install_with(command, manager, project, scratch, env)
        assert (project / lockfile(manager)).is_file()
    return command, env


def get(port: int, path: str, timeout: float = 10) -> tuple[int, dict]:
    return get_json(f"http://127.0.0.1:{port}{path}", timeout)


def headers_of(port: int, method: str, path: str) -> tuple[int, Message]:
    """The status and headers (looked up by any case: Deno sends `allow`) of a request without a body."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.headers


def script_command(script: str) -> list[str]:
    """A package.json script run as its package manager would (sh), the command in the shell's
    place: SIGTERM reaches it, not a shell or package manager that might not pass it on."""
    return ["sh", "-c", f"exec env {script}"]  # env: also for scripts that start with VAR=value


class Server:
    """The project's `start` script's command, run directly (see script_command)."""

    def __init__(self, project: Path, env: dict[str, str], database_url: str | None):
        self.port = free_port()
        start = json.loads((project / "package.json").read_text())["scripts"]["start"]
        # As a user does (cp .env.example .env), then this server's own values.
        env = {**example_env(project), **env, "PORT": str(self.port), "HOST": "127.0.0.1"}
        if database_url:
            env["DATABASE_URL"] = database_url
        self.process = subprocess.Popen(
            script_command(start),
            cwd=project,
            env=with_local_bin(project, env),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        wait_listening(self.process, self.port, f"`{start}`")
        # Read as it comes: a server that prints much (under the fuzzer) must not block on a full pipe.
        self.output: list[str] = []
        self.reader = threading.Thread(target=lambda: self.output.extend(self.process.stdout or []), daemon=True)
        self.reader.start()

    def stop(self) -> tuple[int, str]:
        """SIGTERM; the exit status and everything the server printed."""
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=15)
            self.reader.join(timeout=5)
            return status, "".join(self.output)
        finally:
            self.process.kill()

    def kill(self) -> None:
        """Ends a server a failed check left running (a no-op after stop())."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def example_env(project: Path) -> dict[str, str]:
    """The variables .env.example sets, without its DATABASE_URL (each server names its own)."""
    pairs = (line.split("=", 1) for line in (project / ".env.example").read_text().splitlines())
    return {key: value for key, value in (p for p in pairs if len(p) == 2) if not key.startswith("#")} | {
        "DATABASE_URL": ""
    }


def with_local_bin(project: Path, env: dict[str, str]) -> dict[str, str]:
    """The environment a package manager gives scripts: node_modules/.bin first on PATH."""
    return {**env, "PATH": os.pathsep.join([str(project / "node_modules" / ".bin"), env["PATH"]])}


# How a graceful SIGTERM ends each framework's server: every one exits 0 once closed (shutdown.ts).
SIGTERM_EXIT: dict[str, int] = {}
# The line that Nest's and Next's servers print once they have closed the database connection.
DATABASE_CLOSED = "Database connection closed"
LOGS_DATABASE_CLOSED = {"nestjs", "nextjs"}
# The frameworks that answer another method on a record's path with 405 and the allowed ones
# from the records (every one: Next.js in its custom server's edge, next-edge.ts).
ALLOW_FROM_RECORDS = {"express", "hono", "nestjs", "nextjs"}


def apis_of(project: Path) -> list[str]:
    return yaml.safe_load((project / ".copier-answers.yml").read_text()).get("apis") or []


# The generated CI's check of the typed client, run for real once.
CLIENT_DRIFT_CHECKED = {"node-express-postgresql"}


def the_served_document_is_the_clients(port: int, project: Path) -> None:
    """The typed client (client/) was generated by `typecheck` from the route records, without a
    server: the document the server serves is the one the client's types were made from."""
    status, document = get(port, "/api/v1/openapi.json")
    assert status == 200
    answers = yaml.safe_load((project / ".copier-answers.yml").read_text())
    assert document == json.loads((project / layout_path(answers, "client") / "openapi.json").read_text())


def the_ci_check_refuses_a_client_left_behind(project: Path, env: dict[str, str]) -> None:
    """The generated CI's step that checks client/ passes on a commit whose client is current, and
    fails once a route's record changes without `client:generate` (issue: drift fails CI)."""
    workflow = yaml.safe_load((project / ".github" / "workflows" / "ci.yml").read_text())
    (step,) = [
        s for s in workflow["jobs"]["check"]["steps"] if s.get("name", "").startswith("Check that the typed client")
    ]
    git = ["git", "-c", "user.name=Tests", "-c", "user.email=tests@example.test"]
    run(["git", "init", "-q"], project)
    run([*git, "add", "-A"], project)
    run([*git, "commit", "-q", "-m", "generated"], project)
    run(["bash", "-e", "-c", step["run"]], project, env)
    schemas = next(project.rglob("session.schemas.ts"))
    record = schemas.read_text()
    changed = record.replace('summary: "End this session"', 'summary: "End this session now"')
    assert changed != record
    schemas.write_text(changed)
    try:
        refused = refused_as_developer(["bash", "-e", "-c", step["run"]], project, env)
        assert "::error title=Typed client out of date::" in refused.stdout, refused.stdout
    finally:
        schemas.write_text(record)
        run(["bash", "-e", "-c", step["run"]], project, env)


# Schemathesis, once per framework: the checks that need no knowledge of the business ("positive
# data acceptance" is left out: a guessed code is rightly refused), in a bounded time.
FUZZED = {"bun-express-postgresql", "bun-hono-postgresql", "node-nestjs-postgresql", "node-nextjs-postgresql"}
FUZZ_CHECKS = [
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
    "response_headers_conformance",
    "negative_data_rejection",
    "unsupported_method",
    "ignored_auth",
    "use_after_free",
    "ensure_resource_availability",
]
FUZZ_SECONDS = 20
FUZZ_EXAMPLES = 10


def verified_user(port: int, smtp: SmtpSink) -> tuple[str, str]:
    """A new user's email and password, made through the API: sign-up and the mailed code."""
    email = f"user-{uuid.uuid4().hex[:12]}@example.test"
    password = "correct horse battery"
    post(port, "/api/v1/auth/sign-up", {"name": "Someone", "email": email, "password": password}, 201)
    post(port, "/api/v1/auth/verify-email", {"email": email, "code": smtp.code_for(email)}, 200)
    return email, password


def signed_in_token(port: int, smtp: SmtpSink) -> str:
    """A new user's access token, made through the API: a verified user, then sign-in."""
    email, password = verified_user(port, smtp)
    return post(port, "/api/v1/auth/sign-in", {"email": email, "password": password}, 200)["accessToken"]


def post(port: int, path: str, body: dict, expected: int) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == expected, (path, response.status)
        return json.loads(response.read())


def the_fuzzer_finds_nothing(server: Server, smtp: SmtpSink, scratch: Path) -> None:
    """Schemathesis, signed in, against the served OpenAPI document: no failure of any check.
    Signing out and ending a session are left out: they would end the fuzzer's own session."""
    port = server.port
    token = signed_in_token(port, smtp)
    report = scratch / "schemathesis.json"
    command = [
        str(Path(sys.executable).parent / "st"),
        "run",
        f"http://127.0.0.1:{port}/api/v1/openapi.json",
        "--header",
        f"Authorization: Bearer {token}",
        "--checks",
        ",".join(FUZZ_CHECKS),
        "--exclude-operation-id",
        "signOut",
        "--exclude-operation-id",
        "endSession",
        # Few examples per operation, so the time reaches every operation, on a loaded machine too.
        "--max-examples",
        str(FUZZ_EXAMPLES),
        "--max-time",
        str(FUZZ_SECONDS),
        "--seed",
        "1",
        "--workers",
        "1",
        "--report",
        "json",
        "--report-json-path",
        str(report),
    ]
    done = subprocess.run(command, cwd=scratch, capture_output=True, text=True, timeout=FUZZ_SECONDS + 120, check=False)
    summary = json.loads(report.read_text()) if report.is_file() else {}
    if done.returncode != 0 or summary.get("failures") != []:
        pytest.fail(
            f"Schemathesis failed:\n{failures_of(done.stdout)}\n{done.stderr[-2000:]}\n"
            f"The server:\n{server.stop()[1][-4000:]}"
        )
    assert summary["operations"]["tested"] >= 40, summary["operations"]


def failures_of(report: str) -> str:
    """The head of Schemathesis's FAILURES section (each failure names its check and request),
    or the report's tail when it has none (an error before any test)."""
    _, found, failures = report.partition("= FAILURES =")
    if not found:
        return report[-8000:]
    return failures.split("= WARNINGS =")[0].split("= SUMMARY =")[0][:8000]


FRONT_END = "http://localhost:5173"


def the_edge_holds(port: int) -> None:
    """The served edge: a request id (a safe one kept), the security headers, a listed origin's
    preflight answered, an unlisted one's given no CORS header; no ETag."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/health", headers={"X-Request-Id": "probe-1"})
    with urllib.request.urlopen(request, timeout=10) as response:
        headers = response.headers
    assert headers.get("X-Request-Id") == "probe-1", dict(headers)
    assert headers.get("X-Content-Type-Options") == "nosniff" and headers.get("X-Frame-Options") == "DENY"
    assert headers.get("Cache-Control") == "no-store" and "X-Powered-By" not in headers, dict(headers)
    assert "ETag" not in headers, dict(headers)  # no-store: a hash of each body would go unused
    for origin, expected in ((FRONT_END, FRONT_END), ("https://elsewhere.example", None)):
        preflight = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/v1/auth/sign-in",
            method="OPTIONS",
            headers={"Origin": origin, "Access-Control-Request-Method": "POST"},
        )
        try:
            with urllib.request.urlopen(preflight, timeout=10) as response:
                status, headers = response.status, response.headers
        except urllib.error.HTTPError as error:
            status, headers = error.code, error.headers
        assert headers.get("Access-Control-Allow-Origin") == expected, (origin, status, dict(headers))
        if expected:
            assert status == 204, (origin, status, dict(headers))


PLAYWRIGHT_CORE_VERSION = "1.65.1"
CHROMIUM = Path("/usr/bin/chromium")  # Debian's package, which .ci/run installs
BROWSER_PAGES = Path(__file__).parent / "browser"
BROWSED = {"node-express-postgresql"}  # the defaults' stack, on Node's LTS


class QuietFiles(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def front_end_pages() -> Iterator[int]:
    """tests/browser served on a free port of 127.0.0.1: http://localhost:<port> and
    http://127.0.0.1:<port> are two origins of one front end."""
    handler = functools.partial(QuietFiles, directory=str(BROWSER_PAGES))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as pages:
        threading.Thread(target=pages.serve_forever, daemon=True).start()
        try:
            yield pages.server_address[1]
        finally:
            pages.shutdown()


def passkey_steps_of(project: Path) -> str:
    """The generated README's console steps that register a passkey and sign in with it."""
    readme = (project / "README.md").read_text()
    section = readme[readme.index("### Passkeys") :]
    return section[section.index("```js\n") + len("```js\n") : section.index("\n```\n")]


def the_edge_holds_in_a_browser(project: Path, port: int, pages_port: int, smtp: SmtpSink) -> None:
    """In headless Chromium: the docs page renders its operations with no console error and no
    request to another host; the front end from the listed origin (http://localhost:<pages_port>)
    signs in, reads its profile and lists posts, the request id readable; from the unlisted one
    (http://127.0.0.1:<pages_port>) the browser refuses the first call. On the docs page, the
    README's console steps register a passkey with Chromium's virtual authenticator and sign in
    with it."""
    assert CHROMIUM.exists(), f"{CHROMIUM} is missing: `apt-get install chromium` (.ci/run does)"
    modules = npm_tool("playwright-core", PLAYWRIGHT_CORE_VERSION)
    email, password = verified_user(port, smtp)
    api = f"http://127.0.0.1:{port}"
    given = urllib.parse.urlencode({"api": api, "email": email, "password": password})
    listed, unlisted = (f"http://{host}:{pages_port}/front_end.html?{given}" for host in ("localhost", "127.0.0.1"))
    script = BROWSER_PAGES / "edge_in_browser.mjs"
    passkey_email, _ = verified_user(port, smtp)
    token = post(port, "/api/v1/auth/sign-in", {"email": passkey_email, "password": password}, 200)["accessToken"]
    steps = passkey_steps_of(project).replace('"ACCESS_TOKEN"', json.dumps(token))
    assert token in steps, "the README's passkey steps name no ACCESS_TOKEN to replace"
    with tempfile.NamedTemporaryFile("w", suffix=".js") as steps_file:
        steps_file.write(steps)
        steps_file.flush()
        passkey = ["--passkey", f"http://localhost:{port}", steps_file.name]
        command = ["node", str(script), str(modules), api, *passkey, listed, unlisted]
        report = json.loads(run(command, BROWSER_PAGES).strip())
    passkeys = report["passkey"]
    assert not passkeys.get("error") and passkeys["registered"].get("name") == "Chromium", passkeys
    assert len(passkeys["registered"].get("recoveryCodes", [])) == 10, passkeys
    assert passkeys["signedIn"].get("user", {}).get("email") == passkey_email, passkeys
    assert passkeys["signedIn"].get("accessToken"), passkeys
    docs = report["docs"]
    assert docs["operations"] >= 40 and not docs["errors"] and not docs["elsewhere"], docs
    (from_listed, from_unlisted) = report["pages"]
    assert not from_listed["errors"], from_listed
    result = from_listed["result"]
    assert (result.get("signIn"), result.get("me"), result.get("email")) == (200, 200, email), from_listed
    assert (result["posts"], result["listed"], bool(result["requestId"])) == (200, True, True), result
    refused = from_unlisted["result"]
    assert refused == {"error": "TypeError: Failed to fetch"}, from_unlisted
    assert any("CORS policy" in error for error in from_unlisted["errors"]), from_unlisted


def the_auth_limit_holds(port: int) -> None:
    """AUTH_RATE_LIMIT's default (30 a minute), counted in the project's database: the 31st
    sign-in from one client (behind the one proxy TRUST_PROXY names) is a 429 RATE_LIMITED with
    Retry-After, before any other work."""
    client = f"2001:db8::{uuid.uuid4().hex[:4]}"
    statuses = []
    for _ in range(31):
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/v1/auth/sign-in",
            data=b'{"email": "nobody@example.com", "password": "not the password"}',
            headers={"Content-Type": "application/json", "X-Forwarded-For": f"203.0.113.5, {client}"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                statuses.append(response.status)
        except urllib.error.HTTPError as error:
            statuses.append(error.code)
            last_headers, last_body = error.headers, error.read()
    assert statuses[:30] == [401] * 30 and statuses[30] == 429, statuses
    assert json.loads(last_body)["error"]["code"] == "RATE_LIMITED"
    assert 1 <= int(last_headers["Retry-After"]) <= 60, dict(last_headers)


def serve_and_probe(
    project: Path,
    env: dict[str, str],
    framework: str,
    engine: str,
    url: str | None,
    fuzz_in: Path | None = None,
    browser: bool = False,
) -> None:
    """Readiness 200 against the database at `url` (or with none); 503 on a closed port of the
    engine. Every server answers /health 200 and unknown paths with a JSON 404, and SIGTERM
    shuts it down cleanly. The served OpenAPI document is the typed client's; with `fuzz_in` (a
    scratch folder), Schemathesis finds nothing there; with `browser`, the edge holds in headless
    Chromium."""
    servers = []
    if url or engine == "none":
        servers.append((url, 200))
    if engine != "none":
        servers.append((CLOSED_PORT_URLS[engine], 503))
    # Where the served APIs' mail goes (the fuzzer signs in with its code).
    with contextlib.closing(SmtpSink()) as smtp, contextlib.ExitStack() as stack:
        origins = [FRONT_END]
        if browser:
            pages_port = stack.enter_context(front_end_pages())
            origins.append(f"http://localhost:{pages_port}")
        for database_url, ready in servers:
            # The fuzzer's thousands of requests a minute would meet the rate limits, not the API.
            limits = {"AUTH_RATE_LIMIT": "0", "API_RATE_LIMIT": "0"} if fuzz_in else {}
            served_env = {**env, "SMTP_URL": smtp.url, "CORS_ORIGINS": ",".join(origins), "TRUST_PROXY": "1", **limits}
            with timed(f"serve {ready}"):
                server = Server(project, served_env, database_url)
                stack.callback(server.kill)  # a failed check below leaves no server running
                assert get(server.port, "/health")[0] == 200
            with timed("edge"):
                the_edge_holds(server.port)
            if url and ready == 200 and apis_of(project) and not fuzz_in:
                with timed("auth limit"):
                    the_auth_limit_holds(server.port)
            if browser and ready == 200:
                with timed("browser"):
                    the_edge_holds_in_a_browser(project, server.port, pages_port, smtp)
            status, body = get(server.port, "/nowhere")
            assert (status, body["error"]["status"], body["error"]["code"]) == (404, 404, "NOT_FOUND")
            if url and framework in ALLOW_FROM_RECORDS and apis_of(project):
                allow = "GET, PATCH, DELETE, HEAD, OPTIONS"
                # TRACE: a method a WHATWG Request cannot carry (Next.js must refuse it itself).
                for method, expected in (("PUT", 405), ("TRACE", 405), ("OPTIONS", 204)):
                    status, headers = headers_of(server.port, method, "/api/v1/auth/me")
                    assert (status, headers.get("Allow")) == (expected, allow), (method, status, dict(headers))
            if ready == 200 and apis_of(project):
                the_served_document_is_the_clients(server.port, project)
                if fuzz_in:
                    with timed("fuzzer"):
                        the_fuzzer_finds_nothing(server, smtp, fuzz_in)
            status, body = get(server.port, "/health/ready")
            if ready == 503:
                assert (status, body["database"]) == (503, "down")
            elif url:
                assert (status, body) == (200, {"status": "ready", "database": "up"})
            else:
                assert status == 200
            with timed("stop"):
                status, output = server.stop()
            assert status == SIGTERM_EXIT.get(framework, 0), f"SIGTERM must shut the server down cleanly:\n{output}"
            # The log leaves in batches: what waited at the end is written out before the exit.
            assert '"path":"/nowhere","status":404' in output, output
            if framework != "nestjs":  # Nest's last lines are its modules' (DATABASE_CLOSED)
                assert "SIGTERM received, shutting down" in output, output
            if engine != "none" and framework in LOGS_DATABASE_CLOSED:
                assert DATABASE_CLOSED in output, output
    if url and "blog" in apis_of(project):
        with timed("n+1"):
            a_page_of_posts_costs_as_many_queries_as_one_post(project, env, engine, url)


# One PostgreSQL case per runtime runs as its README's first commands say, with no DATABASE_URL:
# on the embedded PostgreSQL (PGlite) of `dev` and `test`. Next.js too: its `dev` is its own.
EMBEDDED = {"node-express-postgresql", "bun-hono-postgresql", "deno-hono-postgresql", "node-nextjs-postgresql"}
FIRST_RUN_LINE = (
    "database: embedded PostgreSQL (PGlite) in .data/postgres: one connection, "
    "transactions run one at a time; set DATABASE_URL to use a server"
)


def without_database(env: dict[str, str]) -> dict[str, str]:
    """A developer's environment: no DATABASE_URL, not CI, not production."""
    return {key: value for key, value in env.items() if key not in ("DATABASE_URL", "CI", "NODE_ENV")}


class DevProcess:
    """`<pm> run dev`, as a developer starts it, on `port`; its output read as it comes."""

    def __init__(self, project: Path, command: str, env: dict[str, str], port: int):
        self.port = port
        self.process = subprocess.Popen(
            [command, "run", "dev"],
            cwd=project,
            env={**env, "PORT": str(port), "HOST": "127.0.0.1"},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.lines: list[str] = []
        self.reader = threading.Thread(target=lambda: self.lines.extend(self.process.stdout or []), daemon=True)
        self.reader.start()

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def wait_healthy(self, seconds: float) -> float:
        """Seconds from now until GET /health answers 200; fails with the output otherwise."""
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            if self.process.poll() is not None:
                self.reader.join(timeout=5)
                pytest.fail(f"`dev` exited {self.process.returncode}:\n{self.output}")
            with contextlib.suppress(OSError, urllib.error.URLError):
                if get(self.port, "/health", timeout=2)[0] == 200:
                    return time.monotonic() - started
            time.sleep(0.1)
        self.stop()
        pytest.fail(f"`dev` did not answer /health within {seconds} s:\n{self.output}")

    def code_for(self, email: str) -> str:
        """The code of the newest mail to `email`, from the development log (no SMTP_URL)."""
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            codes = re.findall(rf"\[mail\] to {re.escape(email)}:[^\n]*\nYour code is (\d{{6}})", self.output)
            if codes:
                return codes[-1]
            time.sleep(0.1)
        pytest.fail(f"no code for {email} in the log:\n{self.output}")

    def stop(self) -> int:
        """Ctrl-C, as in a terminal (the whole process group); the exit status."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGINT)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            # What still runs says which part did not stop (the server, its database, a watcher).
            alive = subprocess.run(
                ["ps", "-o", "pid,ppid,stat,etime,args", "-g", str(self.process.pid)],
                capture_output=True,
                text=True,
                check=False,
            ).stdout
            pytest.fail(f"`dev` did not stop within 30 s of Ctrl-C; still running:\n{alive}\n{self.output}")
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.reader.join(timeout=5)


def call(
    port: int, method: str, path: str, body: dict | None = None, token: str = "", key: str = ""
) -> tuple[int, dict]:
    """One JSON request; the status and the JSON answer (or {})."""
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    if key:
        headers["idempotency-key"] = key
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def signed_up(dev: DevProcess, email: str) -> str:
    """A verified user made through the API, its code read from the log; its access token."""
    password = "correct horse battery"
    assert (
        call(dev.port, "POST", "/api/v1/auth/sign-up", {"name": "Someone", "email": email, "password": password})[0]
        == 201
    )
    verify = {"email": email, "code": dev.code_for(email)}
    assert call(dev.port, "POST", "/api/v1/auth/verify-email", verify)[0] == 200
    return signed_in(dev, email)


def signed_in(dev: DevProcess, email: str) -> str:
    status, body = call(dev.port, "POST", "/api/v1/auth/sign-in", {"email": email, "password": "correct horse battery"})
    assert status == 200, body
    return body["accessToken"]


# db:seed, and a front end's walk through the typed client after it (every framework and
# runtime): on the embedded database of the first run on Node and on Deno (Bun runs Node's
# launcher code), and on a server once per other data layer, NestJS's composition among them,
# and Next.js on MariaDB.
SEEDED_EMBEDDED = {"node-express-postgresql", "deno-hono-postgresql"}
SEEDED_ON_SERVERS = {
    "bun-express-mysql",
    "node-nestjs-prisma-mysql",
    "node-nextjs-prisma-mysql",
    "bun-express-prisma-mysql",
    "deno-hono-prisma-postgresql",
}
SEEDED_LINES = [
    "db:seed: users admin@example.com, ada@example.com, grace@example.com (the first an admin)",
    "db:seed: bank: 4 accounts, 4 deposits, 3 transfers",
    "db:seed: blog: 2 categories, 3 posts (one a draft), 3 comments, 3 likes",
]


def seeded(project: Path, command: str, env: dict[str, str]) -> str:
    """`db:seed` as the README says: it seeds, says so and prints the password once; again, it
    changes nothing; with NODE_ENV=production it refuses in one line. The password."""
    first = run_as_developer([command, "run", "db:seed"], project, env)
    assert all(line in first for line in SEEDED_LINES), first
    password = re.search(r"db:seed: their password \(shown this once\): (\S+)", first)
    assert password, first
    again = run_as_developer([command, "run", "db:seed"], project, env)
    assert "db:seed: already seeded (admin@example.com exists): nothing changed" in again, again
    assert password.group(1) not in again and "db:seed: users" not in again, again
    refused = refused_as_developer([command, "run", "db:seed"], project, {**env, "NODE_ENV": "production"})
    lines = [line for line in (refused.stdout + refused.stderr).splitlines() if line.startswith("db:seed:")]
    assert lines == ["db:seed: refused with NODE_ENV=production (seed data is for development)"], (
        refused.stdout + refused.stderr
    )
    return password.group(1)


SEEDED_WALK = Path(__file__).parent / "typed_client" / "seeded-walk.ts"


def a_front_end_walks_in_as_the_seeded_user(project: Path, env: dict[str, str], port: int, password: str) -> None:
    """tests/typed_client/seeded-walk.ts, in the project's tests folder, type-checks with the
    project's settings and runs on its runtime through its typed client (client/): Ada signs in
    with the seed's password at once, her funded accounts take a transfer, the blog's published
    posts are there (issue 61: a front end's first script, every call typed)."""
    answers = yaml.safe_load((project / ".copier-answers.yml").read_text())
    # Beside the client's own test, importing the client as that test does.
    walk = (project / layout_path(answers, "typed-client.test.ts")).parent / "seeded-walk.ts"
    client = import_path(answers, "typed-client.test.ts", "typed-client.ts")
    walk.write_text(SEEDED_WALK.read_text().replace('from "CLIENT"', f'from "{client}"'))
    # Beside the project's tsconfig.json (Next.js keeps it in rootDir), with its settings.
    config = (project / layout_path(answers, "tsconfig.json")).parent / "tsconfig.walk.json"
    env = with_local_bin(project, {**env, "WALK_BASE_URL": f"http://127.0.0.1:{port}", "SEED_PASSWORD": password})
    try:
        if answers["runtime"] == "deno":
            run(["deno", "check", str(walk)], project, env)
            command = ["deno", "run", "--allow-net", "--allow-env", str(walk)]
        else:
            include = posixpath.relpath(walk.as_posix(), config.parent.as_posix())
            config.write_text(json.dumps({"extends": "./tsconfig.json", "include": [include]}))
            run(["tsc", "--noEmit", "-p", str(config)], project, env)
            command = ["bun", str(walk)] if answers["runtime"] == "bun" else ["node", "--import", "tsx", str(walk)]
        output = run(command, project, env)
        assert "walk: Ada Lovelace moved 14.50 and read 2 posts" in output, output
    finally:
        walk.unlink()
        config.unlink(missing_ok=True)


def seeded_and_walked_in(project: Path, command: str, env: dict[str, str], url: str) -> None:
    """`db:seed` on the server database of `url` (with .env.example's values, as a user's .env has
    them), then a front end's walk through the typed client against the served project."""
    password = seeded(project, command, {**example_env(project), **env, "DATABASE_URL": url})
    server = Server(project, env, url)
    try:
        a_front_end_walks_in_as_the_seeded_user(project, env, server.port, password)
    finally:
        server.kill()


def a_stopped_dev_leaves_the_data_to_scripts_and_the_next_dev(
    project: Path, command: str, env: dict[str, str], admin_email: str, user_email: str
) -> None:
    """Once `dev` is stopped, scripts use its embedded database (admin:grant, db:seed), and the
    next `dev` serves the same data: the users signed up before, and the bank and the blog."""
    # A script that uses the database runs on it once `dev` is stopped: admin:grant, db:seed.
    run_as_developer([command, "run", "admin:grant", "--", admin_email], project, env)
    seed_password = seeded(project, command, env) if case_of(project).removeprefix("api-") in SEEDED_EMBEDDED else None

    dev = DevProcess(project, command, env, free_port())
    try:
        seconds = dev.wait_healthy(60)
        print(f"first-run {case_of(project)}: /health after {seconds:.1f} s (.data/postgres reopened)")
        if seed_password:
            a_front_end_walks_in_as_the_seeded_user(project, env, dev.port, seed_password)
        admin, user = signed_in(dev, admin_email), signed_in(dev, user_email)  # the same data
        status, mine = call(dev.port, "POST", "/api/v1/accounts", {"currency": "USD"}, user)
        assert status == 201, mine
        status, theirs = call(dev.port, "POST", "/api/v1/accounts", {"currency": "USD"}, admin)
        assert status == 201, theirs
        deposit = {"accountId": mine["_id"], "amount": "10.00"}
        assert call(dev.port, "POST", "/api/v1/admin/deposits", deposit, admin, uuid.uuid4().hex)[0] == 201
        transfer = {"fromAccountId": mine["_id"], "toAccountId": theirs["_id"], "amount": "2.50"}
        assert call(dev.port, "POST", "/api/v1/transfers", transfer, user, uuid.uuid4().hex)[0] == 201
        assert call(dev.port, "GET", f"/api/v1/accounts/{mine['_id']}", token=user)[1]["balance"] == "7.50"
        category = {"name": f"News {uuid.uuid4().hex[:6]}", "description": "Things that happened"}
        status, category = call(dev.port, "POST", "/api/v1/categories", category, admin)
        assert status == 201, category
        post = {"title": "Hello", "content": "Some words.", "categoryId": category["_id"]}
        assert call(dev.port, "POST", "/api/v1/posts", post, user)[0] == 201
    finally:
        dev.stop()


def the_first_run_needs_no_database_server(
    project: Path, command: str, env: dict[str, str], *, with_tests: bool = True, reopened: bool = True
) -> None:
    """The README's first commands (install, then dev) with no DATABASE_URL: `dev` makes .env,
    serves on an embedded PostgreSQL in .data/postgres, refuses a second `dev`, keeps its data
    across a restart; `test` passes on an embedded database of its own, naming its skips (unless
    not `with_tests`); and production without DATABASE_URL refuses to start. With `reopened`,
    scripts then use the database, and a second `dev` serves the same data (its launcher and
    scripts are the runtime's: Next.js's `dev` compiles each route on its first request, so it
    proves only its own first part; its `test` script's refusal in CI comes from the same
    launcher, after its build)."""
    env = without_database(with_local_bin(project, env))
    assert not (project / ".env").exists()
    dev = DevProcess(project, command, env, free_port())
    admin_email, user_email = (f"{who}-{uuid.uuid4().hex[:8]}@example.test" for who in ("admin", "user"))
    try:
        seconds = dev.wait_healthy(120)
        print(f"first-run {case_of(project)}: /health after {seconds:.1f} s (a new .data/postgres)")
        logged = [json.loads(line)["msg"] for line in dev.lines if line.startswith("{")]
        assert logged[:2] == [FIRST_RUN_LINE, "created .env from .env.example"], dev.output
        assert (project / ".env").is_file() and (project / ".data" / "postgres").is_dir()
        assert get(dev.port, "/health/ready") == (200, {"status": "ready", "database": "up"})
        signed_up(dev, admin_email)
        user = signed_up(dev, user_email)

        second = refused_as_developer([command, "run", "dev"], project, {**env, "PORT": str(free_port())})
        refusals = [line for line in second.stdout.splitlines() if ".data/postgres is open in process" in line]
        assert len(refusals) == 1 and "set DATABASE_URL" in refusals[0], second.stdout + second.stderr
        assert call(dev.port, "GET", "/api/v1/auth/me", token=user)[0] == 200, "the first dev stopped serving"
    finally:
        dev.stop()
    assert not (project / ".data" / "postgres.pid").exists(), dev.output

    if reopened:
        a_stopped_dev_leaves_the_data_to_scripts_and_the_next_dev(project, command, env, admin_email, user_email)
    if with_tests:
        output = run_as_developer([command, "run", "test"], project, env)
        assert "are skipped: set DATABASE_URL to run them" in output, output
        assert_api_tests_ran(output, project)
    if reopened:
        # With CI set nothing is skipped: without a database the run fails at once, in one line.
        in_ci = refused_as_developer([command, "run", "test"], project, {**env, "CI": "true"})
        assert "DATABASE_URL is not set: in CI and production the tests run on a server" in in_ci.stdout, in_ci.stdout

    refusal = the_start_refusal(project, {**env, "NODE_ENV": "production"})
    assert "DATABASE_URL: not set" in refusal, refusal


# The project's own knip (its `knip` script, part of `check`) on one project of all the APIs per
# framework (each stack's PostgreSQL case) and per data layer (Drizzle on MariaDB on Deno, Mongoose,
# Prisma on MariaDB and on MongoDB), and on one without a database.
UNUSED_CODE_CHECKED = {
    "node-express-postgresql",
    "node-nestjs-postgresql",
    "node-nextjs-postgresql",
    "bun-hono-postgresql",
    "deno-hono-mysql",
    "bun-express-mongodb",
    "bun-express-prisma-mysql",
    "bun-hono-prisma-mongodb",
    "node-nextjs-none",
}


def no_unused_code(project: Path, env: dict[str, str], scratch: Path) -> None:
    """knip, with the project's knip.jsonc, finds no unused file, export or dependency, and no
    configuration to spare. That configuration lets a type stay exported where only its own file
    names it (a port's record types: their contract's part); no exported value may."""
    scripts = json.loads((project / "package.json").read_text())["scripts"]
    assert scripts.get("knip") == "knip" and "knip" in scripts["check"], scripts
    knip = str(project / "node_modules" / ".bin" / "knip")
    run([knip, "--no-progress", "--treat-config-hints-as-errors"], project, env)
    config = (project / "knip.jsonc").read_text()
    allowance = '"ignoreExportsUsedInFile": { "interface": true, "type": true }'
    assert allowance in config, config
    values_only = scratch / "knip-values.jsonc"
    values_only.write_text(config.replace(allowance, '"ignoreExportsUsedInFile": false'))
    run([knip, "--no-progress", "--config", str(values_only), "--exclude", "types"], project, env)


def case_of(project: Path) -> str:
    return json.loads((project / "package.json").read_text())["name"]


def run_as_developer(command: list[str], project: Path, env: dict[str, str]) -> str:
    """Run a command in exactly `env` (conftest.run adds this process's own, CI's among them)."""
    done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        pytest.fail(f"{' '.join(command)} exited {done.returncode}:\n{failure_output(done.stdout + done.stderr)}")
    return done.stdout + done.stderr


def refused_as_developer(command: list[str], project: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """Run a command that must fail, in exactly `env`: its run, for what it said."""
    done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0, f"{' '.join(command)} exited 0:\n{done.stdout}\n{done.stderr}"
    return done


# One stack per runtime runs the mail worker alone (its script runs on the project's runtime).
WORKER_ALONE = {"node-express-postgresql", "bun-express-mysql", "deno-hono-postgresql"}


def the_mail_worker_delivers_alone(project: Path, env: dict[str, str], url: str) -> None:
    """With MAIL_WORKER=off the server only writes its mail to the outbox; the `mail:worker`
    script, run alone as the README says, sends it over SMTP and stops cleanly on SIGTERM. With
    tracing on in both processes, the worker's send continues the trace of the sign-up that
    queued the mail."""
    with contextlib.closing(SmtpSink()) as smtp, contextlib.closing(OtlpSink()) as collector:
        traced = {
            "OTEL_EXPORTER_OTLP_ENDPOINT": collector.url,
            "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
            "OTEL_BSP_SCHEDULE_DELAY": "100",
        }
        env = {**env, **traced}
        server = Server(project, {**env, "SMTP_URL": smtp.url, "MAIL_WORKER": "off"}, url)
        email = f"user-{uuid.uuid4().hex[:12]}@example.test"
        try:
            post(server.port, "/api/v1/auth/sign-up", {"name": "Someone", "email": email, "password": "x" * 12}, 201)
            time.sleep(1)
            assert not any(email in message for message in smtp.messages), "the server sent mail itself"
        finally:
            server.stop()
        command = json.loads((project / "package.json").read_text())["scripts"]["mail:worker"]
        worker_env = {**example_env(project), **env, "DATABASE_URL": url, "SMTP_URL": smtp.url}
        worker = subprocess.Popen(
            script_command(command),
            cwd=project,
            env=with_local_bin(project, worker_env),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        try:
            smtp.code_for(email, seconds=60)
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            output = worker.communicate(timeout=30)[0]
        assert worker.returncode == 0, f"the mail worker must stop cleanly on SIGTERM:\n{output}"
        # Both processes flushed their spans when they stopped.
        spans = collector.spans()
        sign_ups = {span["traceId"] for span in spans if span["attributes"].get("http.route") == "/api/v1/auth/sign-up"}
        sends = [span for span in spans if span["name"] == "mail send"]
        assert sign_ups and sends, f"no sign-up or send exported: {[span['name'] for span in spans]}"
        assert {span["traceId"] for span in sends} <= sign_ups, "the worker's send left the sign-up's trace"


def a_page_of_posts_costs_as_many_queries_as_one_post(
    project: Path, env: dict[str, str], engine: str, url: str
) -> None:
    """GET /api/v1/posts embeds each post's author, category and like count: the statements it
    runs (counted on the wire, tests/query_counter.py) must not grow with the page (no N+1)."""
    database = url.rsplit("/", 1)[1]
    # An author and a category of its own: the database may hold no other rows.
    tag = uuid.uuid4().hex[:8]
    seeds = {
        "users": f"insert into users (name, email) values ('Seeded', 'seeded-{tag}@example.test')",
        "categories": f"insert into categories (name, slug, description) values ('Seeded {tag}', 'seeded-{tag}', 'Seeded')",
    }
    for statement in seeds.values():
        assert query(engine, database, statement).returncode == 0, statement
    ids = [query(engine, database, f"select max(id) from {table}").stdout.split()[-1] for table in seeds]
    rows = ", ".join(
        f"('Seeded {n}', 'seeded-{n}', 'Words.', {ids[0]}, {ids[1]}, 'published', now())" for n in range(100)
    )
    columns = "title, slug, content, author_id, category_id, status, published_at"
    assert query(engine, database, f"insert into posts ({columns}) values {rows}").returncode == 0
    with counting_queries(engine) as counter:
        # No mail worker: its polls of the outbox would be counted as the page's statements.
        server = Server(project, {**env, "MAIL_WORKER": "off"}, counter.url(database))
        try:
            get(server.port, "/api/v1/posts?limit=1")  # connects: a new connection's setup is not the list's
            costs = {}
            for limit in (1, 100):
                counter.wait_quiet()
                counter.reset()
                status, body = get(server.port, f"/api/v1/posts?limit={limit}")
                assert (status, len(body["data"])) == (200, limit)
                assert all(post["author"]["name"] and post["category"]["slug"] for post in body["data"])
                costs[limit] = counter.statements
        finally:
            server.stop()
    assert costs[100] == costs[1] and 0 < costs[100] <= 6, f"statements per page of 1 and of 100: {costs}"
    answers = yaml.safe_load((project / ".copier-answers.yml").read_text())
    layer = f"{answers['databaseEngine']}/{answers['databaseAdapter']}"
    print(f"blog-queries {answers['framework']} {layer}: a page of 100 posts ran {costs[100]} statements")


@pytest.mark.parametrize("case", sorted(CASES))
def test_stack_installs_checks_migrates_and_serves(tmp_path, case):
    prove_stack(tmp_path, case, CASES[case])


@pytest.mark.parametrize("case", sorted(NODE_LTS_CASES))
def test_node_stack_runs_on_the_current_node_lts(tmp_path, case):
    node = node_lts_bin()
    prove_stack(tmp_path, case, NODE_LTS_CASES[case], node)


def prove_stack(tmp_path: Path, case: str, answers: dict, node: Path | None = None) -> None:
    """Install, check, build, migrate and serve one generated project (on `node`'s Node.js when given)."""
    engine, manager = answers["databaseEngine"], answers["packageManager"]
    project = render(tmp_path / "api", projectName=f"api-{case}", **answers)
    with timed("install"):
        command, env = install(project, manager, tmp_path, node)
    if node:
        ran = run(["node", "--version"], project, env)
        assert NODE_LTS_VERSION in ran, ran

    scripts = json.loads((project / "package.json").read_text())["scripts"]
    # On the LTS only what runs on Node: the type check and the lint read the same files on Node 20
    # (the typed client's types, which `typecheck` writes first, are written on the LTS too).
    for script in ("client:generate", "build") if node else ("typecheck", "lint", "build"):
        if script in scripts:
            run([command, "run", script], project, env)
    if case in UNUSED_CODE_CHECKED:
        with timed("knip"):
            no_unused_code(project, env, tmp_path)
    migrates = answers.get("databaseAdapter") == "drizzle" and "db:migrate" in scripts
    prisma_sql = answers.get("databaseAdapter") == "prisma" and engine != "mongodb"
    if engine == "mongodb":
        run_tests_but_the_apis(project, answers, env, built="build" in scripts)
    elif not migrates and not prisma_sql:
        run([command, "run", "test"], project, env)

    if answers.get("databaseAdapter") == "prisma":
        # Prisma's migrations need its native engine, which cannot be downloaded here:
        # create_tables() makes the same tables another way (tests/test_prisma.py).
        assert {"postinstall", "db:generate" if engine != "mongodb" else "db:push"} <= set(scripts)
        # Not served on MongoDB: Prisma 6's client loads its native query engine, which cannot
        # be downloaded here (shared/notes/prisma.md); install, generate and checks ran above.
        if prisma_sql:
            require_server(engine, 5432 if engine == "postgresql" else 3306)
            with FreshDatabase(engine) as name:
                url = server_url(engine, name)
                create_tables(project, engine, url, tmp_path, env)
                # The project's own tests on its tables but the domain APIs': those run on
                # Prisma with each engine in tests/test_prisma.py, and on each framework and
                # runtime in the Drizzle cases. Serving signs in on this runtime, through Prisma.
                run_tests_but_the_apis(project, answers, {**env, "DATABASE_URL": url}, built="build" in scripts)
                if case in SEEDED_ON_SERVERS:
                    seeded_and_walked_in(project, command, env, url)
                serve_and_probe(project, env, answers["framework"], engine, url)
            if case in FAULT_CASES:
                with timed("faults"):
                    the_server_survives_its_database(project, command, env, answers, tmp_path)
    elif engine in ("postgresql", "mysql"):
        first_run_tested = False
        if case in EMBEDDED:
            with timed("first run"):
                # The whole test suite runs once on an embedded database, on Node (Express's
                # LTS case): the launcher and the database are the same on Bun and Deno, whose
                # part of the first run is `dev`, as Next.js's is.
                with_tests = answers["runtime"] == "node" and answers["framework"] != "nextjs"
                the_first_run_needs_no_database_server(
                    project, command, env, with_tests=with_tests, reopened=answers["framework"] != "nextjs"
                )
                first_run_tested = with_tests
        require_server(engine, 5432 if engine == "postgresql" else 3306)
        run([command, "run", "db:generate"], project, env)
        assert list((project / "drizzle").glob("*.sql")), "db:generate wrote no migration"
        with FreshDatabase(engine) as name:
            url = server_url(engine, name)
            run([command, "run", "db:migrate"], project, {**env, "DATABASE_URL": url})
            # The project's own tests, the domain API's among them, on the migrated database
            # (where the first run ran them on its embedded one, that proved this runtime).
            if case in API_TESTS_ELSEWHERE:
                run_tests_but_the_apis(project, answers, {**env, "DATABASE_URL": url}, built="build" in scripts)
            elif not first_run_tested:
                run_the_tests(project, command, {**env, "DATABASE_URL": url}, built="build" in scripts)
            if case in SEEDED_ON_SERVERS:
                seeded_and_walked_in(project, command, env, url)
            if case in POOLER_CASES:
                with timed("pgbouncer"):
                    the_tests_pass_behind_a_transaction_pooler(project, command, env, name)
            serve_and_probe(
                project,
                env,
                answers["framework"],
                engine,
                url,
                tmp_path if case in FUZZED else None,
                case in BROWSED and node is not None,
            )
            if case in CLIENT_DRIFT_CHECKED:
                with timed("client drift"):
                    the_ci_check_refuses_a_client_left_behind(project, env)
            if case in WORKER_ALONE:
                with timed("worker alone"):
                    the_mail_worker_delivers_alone(project, env, url)
            if case in ROLLING_CASES:
                with timed("rolling restart"):
                    a_rolling_restart_loses_no_request(project, env, url)
        if case in FAULT_CASES:
            with timed("faults"):
                the_server_survives_its_database(project, command, env, answers, tmp_path)
        if case.endswith("-postgresql"):
            with timed("bad env"):
                a_bad_environment_stops_the_server_with_one_clear_line(project, env)
    else:
        # No MongoDB server here: Mongoose projects are served against a closed port only.
        assert engine == "none" or "db:sync-indexes" in scripts
        serve_and_probe(project, env, answers["framework"], engine, None)


# Cases whose domain APIs' tests would prove no pairing again: Bun/Express/Drizzle on PostgreSQL
# (Bun and Express meet in the MariaDB case, Bun and Drizzle on PostgreSQL through Hono, Express
# and Drizzle on PostgreSQL on Node) and Deno/Hono/Drizzle on MariaDB (Deno, Hono and Drizzle meet
# on PostgreSQL, Drizzle's MariaDB repositories run them on Bun; its transfers run under faults
# below). They run the project's other tests, and are served.
API_TESTS_ELSEWHERE = {"bun-express-postgresql", "deno-hono-mysql"}


# A database server of the test's own is stopped and started, and its connections are killed,
# under transfers (own_database.py): once per runtime, framework and data layer (Drizzle and
# Prisma on both engines).
FAULT_CASES = {
    "node-nextjs-postgresql",
    "node-nestjs-prisma-mysql",
    "bun-express-prisma-mysql",
    "deno-hono-mysql",
    "deno-hono-prisma-postgresql",
}
FAULT_TIMEOUT_MS = 2000


def the_server_survives_its_database(
    project: Path, command: str, env: dict[str, str], answers: dict, scratch: Path
) -> None:
    """Transfers under load while the database's connections are killed, then while it is
    stopped and started again: the process lives, clients see 503s (with Retry-After, within
    DATABASE_TIMEOUT_MS) and no other error, it serves again within 5 s of the database's
    return, every transfer acknowledged is in the ledger once, and its log stays JSON."""
    engine = answers["databaseEngine"]
    own = OwnPostgres() if engine == "postgresql" else OwnMariaDB()
    with own, contextlib.closing(SmtpSink()) as smtp, contextlib.ExitStack() as stack:
        database = own.create_database()
        url = own.url(database)
        if answers["databaseAdapter"] == "prisma":
            create_tables(project, engine, url, scratch, env)
        else:
            run([command, "run", "db:migrate"], project, {**env, "DATABASE_URL": url})
        limits = {"AUTH_RATE_LIMIT": "0", "API_RATE_LIMIT": "0", "DATABASE_TIMEOUT_MS": str(FAULT_TIMEOUT_MS)}
        # Started while its database is down: it starts, lives, is not ready, and serves once it is back.
        own.stop()
        server = Server(project, {**env, "SMTP_URL": smtp.url, **limits}, url)
        stack.callback(server.kill)
        assert get(server.port, "/health")[0] == 200
        assert get(server.port, "/health/ready")[0] == 503
        own.start()
        deadline = time.monotonic() + 5
        while get(server.port, "/health/ready")[0] != 200:
            assert time.monotonic() < deadline, "not ready 5 s after its database started"
            time.sleep(0.1)
        base = f"http://127.0.0.1:{server.port}"
        token, accounts = funded_accounts(server.port, smtp, lambda sql: own.sql(database, sql))
        seeded = int(own.sql(database, "select count(*) from transactions")[0][0])

        def stopped_and_started() -> None:
            own.stop()
            time.sleep(2)
            own.start()

        acknowledged = 0
        for name, fault in (
            ("connections killed", lambda: own.kill_connections(database)),
            ("database stopped 2 s", stopped_and_started),
        ):
            outage = transfers_through(fault, base, token, accounts, FAULT_TIMEOUT_MS / 1000)
            print(f"faults {case_of(project)}: {name}: {outage.summary()}")
            assert server.process.poll() is None, f"the server died of its database ({name}):\n{''.join(server.output)}"
            errors = [line for line in server.output if '"level":"error"' in line or '"level":50' in line]
            assert not outage.problems, (name, outage.problems[:5], errors[:5])
            served_again = [a for a in outage.answers if a[1] == 201 and a[0] >= outage.back_at]
            assert served_again, f"nothing served after the database returned ({name})"
            assert min(a[0] + a[2] for a in served_again) - outage.back_at < 5, (name, outage.summary())
            if name.startswith("database stopped"):
                assert any(a[1] == 503 for a in outage.answers), (
                    f"no 503 while the database was stopped: {outage.summary()}"
                )
            acknowledged += len(outage.acknowledged)
        # Every acknowledged transfer is in the database once, and the ledger balances.
        recorded = int(own.sql(database, "select count(*) from transactions")[0][0]) - seeded
        assert recorded == acknowledged, f"{recorded} transfers recorded, {acknowledged} acknowledged"
        ledger = "sum(case when l.entry_type = 'credit' then l.amount else -l.amount end)"
        unequal = own.sql(
            database,
            "select count(*) from (select a.id from accounts a left join ledgers l on l.account_id = a.id "
            f"where not a.system_account group by a.id, a.balance having a.balance <> coalesce({ledger}, 0)) x",
        )
        assert unequal == [["0"]], "balances differ from their ledger"
        status, output = server.stop()
        assert status == 0, output
        # The log stays JSON: nothing of a raw error or stack trace (Next.js prints a line of its own at start).
        raw = [
            line
            for line in output.splitlines()
            if not line.startswith("{") and any(mark in line for mark in ("    at ", "Error", "Unhandled", "node:"))
        ]
        assert not raw, f"raw error lines in the log: {raw[:5]}"
        assert "database unavailable" in output and "password" not in output.lower(), output[-3000:]


# The project's whole test suite through PgBouncer in transaction mode (Drizzle on PostgreSQL, the
# data layer that prepares statements by name; every framework shares its pool).
POOLER_CASES = {"node-express-postgresql"}


def the_tests_pass_behind_a_transaction_pooler(project: Path, command: str, env: dict[str, str], database: str) -> None:
    """Through a transaction-pooling PgBouncer, the bank's tests fail without DATABASE_POOLER
    (a statement prepared by name on one server connection is unknown, or taken, on the next),
    and with DATABASE_POOLER=transaction every test of the project passes and eight clients'
    transfers through it to a production server are all answered 201."""
    with TransactionPooler() as pooler:
        assert pooler.mode() == "transaction"
        through = {**env, "DATABASE_URL": pooler.url(database)}
        bank_tests = [name for name in API_TEST_FILES["bank"] if "transfer" in name] or API_TEST_FILES["bank"]
        done = subprocess.run(
            [command, "run", "test", "--", *bank_tests],
            cwd=project,
            env=with_local_bin(project, {**through, "DATABASE_POOLER": "none"}),
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        output = done.stdout + done.stderr
        assert done.returncode != 0 and "prepared statement" in output, output[-3000:]
        run_the_tests(project, command, {**through, "DATABASE_POOLER": "transaction"})
        # The operator's scenario: eight clients sending transfers through it for a while.
        limits = {"AUTH_RATE_LIMIT": "0", "API_RATE_LIMIT": "0", "DATABASE_POOLER": "transaction"}
        with contextlib.closing(SmtpSink()) as smtp:
            server = Server(project, {**env, "SMTP_URL": smtp.url, **limits}, through["DATABASE_URL"])
            try:
                token, accounts = funded_accounts(server.port, smtp, lambda sql: query("postgresql", database, sql))
                load = transfers_through(lambda: time.sleep(5), f"http://127.0.0.1:{server.port}", token, accounts, 5)
            finally:
                server.kill()
        print(f"pgbouncer {case_of(project)}: {load.summary()}")
        statuses = {status for _, status, _ in load.answers}
        if load.problems or len(load.acknowledged) <= 100 or statuses != {201}:
            # What PgBouncer, the server and PostgreSQL (its connections in use) saw.
            in_use = query("postgresql", None, "select count(*) from pg_stat_activity").stdout.strip()
            errors = "".join(line for line in server.output if "error" in line or "unavailable" in line)
            pytest.fail(
                f"{load.summary()} {statuses} {load.problems[:3]}\n{pooler.log()}\n"
                f"{errors[-2000:]}\nconnections on 5432: {in_use}"
            )


def funded_accounts(port: int, smtp: SmtpSink, sql: Callable[[str], object]) -> tuple[str, list[str]]:
    """A signed-in admin's token (made admin by `sql`) and four accounts of theirs, 1000.00 each."""
    email, password = verified_user(port, smtp)
    sql(f"update users set role = 'admin' where email = '{email}'")
    token = post(port, "/api/v1/auth/sign-in", {"email": email, "password": password}, 200)["accessToken"]
    base = f"http://127.0.0.1:{port}"
    accounts = []
    for _ in range(4):
        account = call_as(base, "POST", "/api/v1/accounts", {}, token)["_id"]
        deposit = {"accountId": account, "amount": "1000.00"}
        call_as(base, "POST", "/api/v1/admin/deposits", deposit, token, key=f"seed-{account}")
        accounts.append(account)
    return token, accounts


# Two instances behind a balancer that follows readiness, restarted one after the other under load.
ROLLING_CASES = {"node-express-postgresql"}


def a_rolling_restart_loses_no_request(project: Path, env: dict[str, str], url: str) -> None:
    """SIGTERM to each of two instances in turn, under load through a balancer that probes their
    readiness every 250 ms: readiness answers 503 at once while the instance still serves (for
    SHUTDOWN_DELAY_MS), it exits 0, a new one takes its place, and no client sees an error."""
    with contextlib.closing(SmtpSink()) as smtp:
        served_env = {
            **env,
            "SMTP_URL": smtp.url,
            "AUTH_RATE_LIMIT": "0",
            "API_RATE_LIMIT": "0",
            "SHUTDOWN_DELAY_MS": "1500",
        }
        servers = [Server(project, served_env, url), Server(project, served_env, url)]
        try:
            token = signed_in_token(servers[0].port, smtp)
            with Balancer([server.port for server in servers]) as balancer:
                load = Load(balancer.port, "/api/v1/auth/me", token)
                for index in range(2):
                    old = servers[index]
                    time.sleep(1)
                    old.process.send_signal(signal.SIGTERM)
                    time.sleep(0.3)
                    assert get(old.port, "/health/ready")[0] == 503, "readiness must answer 503 at once on SIGTERM"
                    assert get(old.port, "/health")[0] == 200, "new requests are still served for SHUTDOWN_DELAY_MS"
                    status = old.process.wait(timeout=20)
                    old.reader.join(timeout=5)
                    assert status == 0, "".join(old.output)
                    servers[index] = Server(project, served_env, url)
                    balancer.replace(old.port, servers[index].port)
                time.sleep(1)
                failures = load.stop()
            print(f"rolling restart {case_of(project)}: {load.answered} answers, {len(failures)} failed")
            assert load.answered > 100 and not failures, failures[:5]
            # While it still serves, a keep-alive client is told to go; a second signal ends it at once
            # (a delay long enough that a busy machine's second signal still comes within it).
            stopping = Server(project, {**served_env, "SHUTDOWN_DELAY_MS": "20000"}, url)
            servers.append(stopping)
            assert connection_header(stopping.port) == "keep-alive"
            stopping.process.send_signal(signal.SIGTERM)
            time.sleep(0.3)
            assert connection_header(stopping.port) == "close"
            time.sleep(1)
            stopping.process.send_signal(signal.SIGTERM)
            assert stopping.process.wait(timeout=5) == 128 + signal.SIGTERM, "".join(stopping.output)
        finally:
            for server in servers:
                server.kill()


def connection_header(port: int) -> str:
    """The Connection header of a keep-alive client's GET /health (HTTP/1.1 keeps it by default)."""
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        client.request("GET", "/health")
        answer = client.getresponse()
        answer.read()
        return (answer.getheader("connection") or "").lower()
    finally:
        client.close()


def call_as(base: str, method: str, path: str, body: dict, token: str, key: str = "") -> dict:
    """A signed-in call that must succeed: its answer."""
    headers = {"content-type": "application/json", "authorization": f"Bearer {token}"}
    if key:
        headers["idempotency-key"] = key
    request = urllib.request.Request(f"{base}{path}", data=json.dumps(body).encode(), method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def steps_of_the_test_script(project: Path) -> tuple[list[str], str]:
    """The `test` script's steps before its test runner (Next.js's build), and the runner's."""
    *before, test = json.loads((project / "package.json").read_text())["scripts"]["test"].split(" && ")
    return before, test


def run_the_tests(project: Path, command: str, env: dict[str, str], built: bool = False) -> None:
    """The project's `test` script; where it serves a domain API, that API's tests must have run.
    `built`: the project's `build` ran already, so the test script's own build steps (Next.js's
    `client:generate && next build &&`, the same build) are not run twice."""
    before, test = steps_of_the_test_script(project)
    if built and before:
        output = run(test.split(), project, with_local_bin(project, env), with_stderr=True)
    else:
        output = run([command, "run", "test"], project, env, with_stderr=True)
    if yaml.safe_load((project / ".copier-answers.yml").read_text()).get("apis"):
        assert_api_tests_ran(output, project)


def run_tests_but_the_apis(project: Path, answers: dict, env: dict[str, str], built: bool = False) -> None:
    """The project's `test` script on its test files but the domain APIs'. On MongoDB those
    need a replica set (transactions), and none can be installed here
    (shared/notes/domain-services.md); on Prisma they run in tests/test_prisma.py. The services
    they drive are the ones every Drizzle case runs its API tests against, and the routes
    routes.test.ts compares with the endpoint records (on the test server, on the database)
    are the framework's, which the Drizzle cases of the same framework prove. `built`: as in
    run_the_tests."""
    before, test = steps_of_the_test_script(project)
    for step in [] if built else before:  # Next.js builds first (its tests serve the build)
        run(step.split(), project, with_local_bin(project, env))
    command = test.split()
    tests = project / answers.get("rootDir", ".") / LAYOUTS[answers["architecture"]]["tests"]
    skipped = {name for names in API_TEST_FILES.values() for name in names}
    files = sorted(path for path in tests.glob("*.test.ts") if path.name not in skipped)
    assert files, f"no tests in {tests}"
    if (project / command[-1]).resolve() == tests.resolve():
        command = command[:-1]  # Deno's script names the folder: name the files instead
    run([*command, *(str(path.relative_to(project)) for path in files)], project, with_local_bin(project, env))


def the_start_refusal(project: Path, env: dict[str, str]) -> str:
    """The `start` script's command in `env`, which must stop the server with exit status 1 and
    one line on stderr naming the bad environment: that line."""
    start = json.loads((project / "package.json").read_text())["scripts"]["start"]
    done = subprocess.run(
        script_command(start), cwd=project, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Invalid environment: "), done.stderr
    return lines[0]


def a_bad_environment_stops_the_server_with_one_clear_line(project: Path, env: dict[str, str]) -> None:
    # Two bad values.
    bad = {**with_local_bin(project, env), "DATABASE_URL": "not a url", "HOST": ""}
    refusal = the_start_refusal(project, bad)
    assert "HOST" in refusal and "DATABASE_URL: must be a postgres:// URL" in refusal


@contextlib.contextmanager
def dev_server(project: Path, port: int, database_url: str, **settings: str) -> Iterator[subprocess.Popen]:
    """The project's `dev` script's command, listening on `port` with `settings` in its
    environment; killed with its process group (`tsx watch` and `next dev` run the server in a
    child process)."""
    dev = json.loads((project / "package.json").read_text())["scripts"]["dev"]
    env = {
        **with_local_bin(project, runtime_env()),
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "DATABASE_URL": database_url,
        **settings,
    }
    process = subprocess.Popen(
        script_command(dev),
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        wait_listening(process, port, f"`{dev}`", seconds=60)
        yield process
    finally:
        # A test may have stopped it already (a SIGTERM to `dev`): then its group is gone.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=15)


def test_nest_injects_its_providers_under_the_dev_server(copie):
    """`dev` runs the sources through Nest's CLI and SWC, which emit the decorator metadata that
    injection by class reads: readiness is 200 against the real PostgreSQL, and the auth guard
    (its SessionService injected by class) refuses a call without a token with 401, not a 500.
    A SIGTERM to `dev` alone stops the app too: none of its processes keeps the port."""
    require_server("PostgreSQL", 5432)
    answers = {**stack_answers("node-nestjs", 0), **DATA_LAYERS["postgresql"], "bundles": ["auth"]}
    project = copied(copie.copy(extra_answers={**answers, "projectName": "api"}))
    install_node_modules(project)
    shutil.copy(project / ".env.example", project / ".env")  # the rest of the environment
    dev = json.loads((project / "package.json").read_text())["scripts"]["dev"]
    assert "nest start --watch" in dev
    port = free_port()
    with FreshDatabase("postgresql") as name, dev_server(project, port, server_url("postgresql", name)) as process:
        assert get(port, "/health/ready") == (200, {"status": "ready", "database": "up"})
        status, body = get(port, "/api/v1/auth/me")
        assert (status, body["error"]["code"]) == (401, "UNAUTHENTICATED"), body
        process.terminate()
        assert process.wait(timeout=30) is not None
        time.sleep(1)
        assert not _server_up(port), "`dev` stopped, its app still listens"


def test_next_keeps_one_database_connection_across_dev_reloads(copie):
    """`next dev` evaluates a changed module again; the database client lives on globalThis,
    so readiness keeps using the one pool: still one connection after its module reloads."""
    require_server("PostgreSQL", 5432)
    # The auth API, as NestJS's test above: the dependency set (and install) of Next's PostgreSQL case.
    answers = {**stack_answers("node-nextjs", 0), **DATA_LAYERS["postgresql"], "bundles": ["auth"]}
    project = copied(copie.copy(extra_answers={**answers, "projectName": "api"}))
    install_node_modules(project, real_folder=True)
    shutil.copy(project / ".env.example", project / ".env")  # the rest of the environment (JWT_SECRET)
    client = project / LAYOUTS["file-api"]["db.ts"]
    port = free_port()
    # The mail outbox's worker off: its polls would overlap the readiness checks on a busy machine
    # (the CI's), and one pool opens a second connection for two queries at once.
    with (
        FreshDatabase("postgresql") as name,
        dev_server(project, port, server_url("postgresql", name), MAIL_WORKER="off"),
    ):
        connections = f"select count(*) from pg_stat_activity where datname = '{name}' and pid <> pg_backend_pid()"
        # `next dev` compiles a route on its first request, and again after an edit: slow on a busy machine
        assert get(port, "/health/ready", timeout=90) == (200, {"status": "ready", "database": "up"})
        assert query("postgresql", name, connections).stdout.strip() == "1", "one pool, one connection"
        client.write_text(client.read_text() + "\n// edited\n")  # `next dev` evaluates it again
        time.sleep(1)
        assert get(port, "/health/ready", timeout=90) == (200, {"status": "ready", "database": "up"})
        assert query("postgresql", name, connections).stdout.strip() == "1", "a reload opened a second pool"
