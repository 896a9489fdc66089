"""Shared fixtures: rendering the template, installing generated projects, real databases."""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import functools
import hashlib
import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from copier import run_copy

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / ".cache"
NPM_CACHE = CACHE / "npm"
NODE_DEPS = CACHE / "node-deps"
TOOLS = CACHE / "tools"
# STACKWRIGHT_TIMINGS=<file>: run() appends each command's seconds and test there.
TIMINGS = os.environ.get("STACKWRIGHT_TIMINGS")
# ajv: the JSON Schema validator of the JavaScript world (ECMA-262 regular expressions).
AJV_VERSION = "8.20.0"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

sys.path.insert(0, str(REPO / "extensions"))
sys.path.insert(0, str(REPO / "hooks"))
sys.path.insert(0, str(REPO / "scripts"))

from stackwright.apis import API_FOLDERS
from stackwright.packages import VERSIONS

# The current Node.js LTS (versions.json: the image's Node too): generated projects must run on
# it as well as on this machine's Node 20. Its binary comes from npm (node-<os>-<cpu>).
NODE_LTS_VERSION = VERSIONS["nodeLts"]


@functools.cache
def template_copy() -> Path:
    """The working tree without git, copied once per test process: Copier renders it in place,
    where from this repository it would clone it for every project (2 s of each render)."""
    from build_registry import plain_copy

    scratch = Path(tempfile.mkdtemp(prefix="stackwright-template-"))
    atexit.register(shutil.rmtree, scratch, ignore_errors=True)
    return plain_copy(scratch)


# The tests of a minute or more (each installs, checks, migrates and serves a project), started
# first: the run then ends with short tests rather than with one long test started late. The
# PostgreSQL stacks first among them: they also run the first run, the fuzzer, the typed client.
LONG_TESTS = ("tests/test_stacks.py::test_stack_", "tests/test_stacks.py::test_node_stack_", "tests/test_prisma.py::")


def long_test_rank(item: pytest.Item) -> int:
    if not item.nodeid.startswith(LONG_TESTS):
        return 2
    return 0 if item.nodeid.endswith("-postgresql]") else 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=long_test_rank)  # stable: each group keeps pytest's order


def pytest_configure(config: pytest.Config) -> None:
    # pytest-copie's `copie` fixture renders the template its --template option names ("." by
    # default): the working tree of this repository, wherever pytest is started from.
    config.option.template = str(template_copy())


def copied(result: Any) -> Path:
    """The project a `copie.copy(...)` wrote (pytest-copie's Result); fails the test with Copier's
    error when the copy failed (the fixture catches it)."""
    if result.exit_code != 0:
        pytest.fail(f"copier copy failed ({result.exit_code}): {result.exception}")
    return result.project_dir


def render(dst: Path, **answers: object) -> Path:
    """Render the working tree of the template into dst with the given answers.

    For tests that need the destination's name or place: its folder name is the default
    projectName, and some render several projects side by side. Otherwise tests use
    pytest-copie's `copie` fixture.
    """
    # The working tree (a copy without git), never a release tag of this repo.
    run_copy(str(template_copy()), str(dst), data=answers, defaults=True, unsafe=True, quiet=True)
    return dst


def git(cwd: Path, *args: str) -> str:
    """Run git with a fixed identity (fresh machines have none configured)."""
    done = subprocess.run(
        ["git", "-c", "user.name=Stackwright Tests", "-c", "user.email=tests@stackwright.invalid", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"git {' '.join(args)} exited {done.returncode} in {cwd}\n{done.stdout}\n{done.stderr}")
    return done.stdout


class TemplateRepo:
    """A throwaway template repository made from the working tree, released with tags.

    Tests tag it (v1), change it, tag it again (v2), so they never depend on
    this repository's own tags.
    """

    def __init__(self, scratch: Path):
        from build_registry import plain_copy

        self.path = plain_copy(scratch)
        git(self.path, "init", "-q", "-b", "main")

    def edit(self, relpath: str, change: Callable[[str], str]) -> None:
        """Change one template file's text (the change must take effect)."""
        file = self.path / relpath
        before = file.read_text()
        after = change(before)
        assert after != before, f"the edit of {relpath} changed nothing"
        file.write_text(after)

    def release(self, tag: str) -> str:
        git(self.path, "add", "-A")
        git(self.path, "commit", "-qm", f"release {tag}", "--allow-empty")
        git(self.path, "tag", tag)
        return tag


def auth_bundle_unless_named(answers: dict) -> dict:
    """`answers`, with the auth bundle alone when they name no bundle and have a database: the
    smallest project with an API (the defaults give every bundle)."""
    if answers.get("databaseEngine") == "none" or "bundles" in answers:
        return answers
    return {**answers, "bundles": ["auth"]}


def generate(template: TemplateRepo, dst: Path, **answers: object) -> Path:
    """`copier copy` of a template's latest release into dst, committed to a new git repo: the
    auth bundle alone unless `bundles` says otherwise (auth_bundle_unless_named)."""
    data = auth_bundle_unless_named(answers)
    run_copy(str(template.path), str(dst), data=data, defaults=True, unsafe=True, quiet=True)
    git(dst, "init", "-q", "-b", "main")
    commit_all(dst, "generated")
    return dst


def commit_all(project: Path, message: str) -> None:
    git(project, "add", "-A")
    git(project, "commit", "-qm", message, "--allow-empty")


def copier_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the copier command line as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "copier", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,
        check=False,
    )


def search(pattern: str, text: str, flags: int = 0) -> re.Match[str]:
    """re.search that fails the test, showing the text, when nothing matches."""
    found = re.search(pattern, text, flags)
    if not found:
        pytest.fail(f"nothing matches /{pattern}/ in:\n{text}")
    return found


def run(
    cmd: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: int = 600, with_stderr: bool = False
) -> str:
    """Run a command; on failure, fail the test with its output. Returns its stdout (and its
    stderr after it with `with_stderr`: bun test reports there)."""
    started = time.monotonic()
    done = subprocess.run(
        cmd,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        check=False,
    )
    log_seconds(started, " ".join(cmd)[:120])
    if done.returncode != 0:
        pytest.fail(f"{' '.join(cmd)} exited {done.returncode} in {cwd}\n{failure_output(done.stdout + done.stderr)}")
    return done.stdout + done.stderr if with_stderr else done.stdout


# A passed test's line in vitest's and bun's reports, and a terminal's colour codes.
PASSED_LINE = re.compile(r"^\s*(✓|\(pass\))")
COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def failure_output(output: str) -> str:
    """A failed command's output without colours and without the lines of passed tests: what
    failed comes first, where a CI log's excerpt still shows it."""
    lines = COLOUR.sub("", output).splitlines()
    return "\n".join(line for line in lines if not PASSED_LINE.match(line))


def log_seconds(started: float, what: str) -> None:
    """With STACKWRIGHT_TIMINGS, where the suite's time goes: the seconds since `started`, the
    test and what took them (a command, or a [step])."""
    log_timing(time.monotonic() - started, what)


def log_timing(seconds: float, what: str) -> None:
    """With STACKWRIGHT_TIMINGS, a line of `seconds`, the current test and `what` took them."""
    if TIMINGS:
        with open(TIMINGS, "a") as log:
            test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]
            log.write(f"{seconds:.1f}\t{test}\t{what}\n")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call() -> Iterator[None]:
    """With STACKWRIGHT_TIMINGS, each test's whole seconds, and the CPU seconds of its process
    and the children it waited for (on two cores, CPU is what the suite's time is made of)."""
    if not TIMINGS:
        return (yield)
    started = time.monotonic()
    cpu_before = cpu_seconds()
    try:
        return (yield)
    finally:
        log_seconds(started, "[test]")
        log_timing(cpu_seconds() - cpu_before, "[test cpu]")


def cpu_seconds() -> float:
    return sum(
        usage.ru_utime + usage.ru_stime
        for usage in (resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN))
    )


@contextlib.contextmanager
def timed(label: str) -> Iterator[None]:
    """Logs a step's seconds to STACKWRIGHT_TIMINGS, as run() logs each command's."""
    started = time.monotonic()
    try:
        yield
    finally:
        log_seconds(started, f"[{label}]")


# Each domain API's test files (its folder's, and the shared folder's: the routes and the served
# edge): every one needs the database.
API_TEST_FILES: dict[str, list[str]] = {
    folder.name: sorted(path.name.removesuffix(".jinja") for path in folder.rglob("*.test.ts.jinja"))
    for folder in sorted(API_FOLDERS.iterdir())
    if folder.is_dir()
}


def assert_api_tests_ran(output: str, project: Path) -> None:
    """A test run's output names each test file of the project's domain APIs: a runner that
    left one out (a glob, a folder) would still exit 0."""
    answers = yaml.safe_load((project / ".copier-answers.yml").read_text())
    assert answers.get("apis"), "the project serves no domain API"
    for name in (name for api in answers["apis"] for name in API_TEST_FILES[api]):
        assert name in output, f"{name} did not run:\n{output}"


def install_node_modules(project: Path, real_folder: bool = False) -> Path:
    """Install the project's dependency set once, and link the project to it.

    Generated variants with the same package.json dependencies share one real
    `npm install`, keyed by a hash of those dependencies. `real_folder`: a hard-linked
    copy instead of a symlink, for tools that refuse a node_modules outside the project
    (Next.js's Turbopack).
    """
    manifest = json.loads((project / "package.json").read_text())
    deps = {k: manifest.get(k, {}) for k in ("dependencies", "devDependencies")}
    key = hashlib.sha256(json.dumps(deps, sort_keys=True).encode()).hexdigest()[:16]
    home = NODE_DEPS / key
    home.mkdir(parents=True, exist_ok=True)
    with open(home / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one installer per set across xdist workers
        if not (home / "node_modules" / ".installed").exists():
            (home / "package.json").write_text(json.dumps({"name": "deps", "private": True, "type": "module", **deps}))
            run(
                ["npm", "install", "--no-audit", "--no-fund", "--prefer-offline", "--cache", str(NPM_CACHE)],
                cwd=home,
                # Prisma's engines' install script then skips its download, which cannot reach
                # its host here (a CI run's install of a Prisma set once ran past 600 s: the
                # likeliest wait).
                env=prisma_stand_in(home),
            )
            (home / "node_modules" / ".installed").write_text(key)
    link = project / "node_modules"
    if real_folder and not link.exists():
        subprocess.run(["cp", "-al", str(home / "node_modules"), str(link)], check=True)
    elif not link.exists():
        link.symlink_to(home / "node_modules", target_is_directory=True)
    return home / "node_modules"


def write_the_client(project: Path) -> None:
    """A project with APIs ships its typed client's types unwritten: `client:generate` writes
    them from the route records (its `typecheck` runs it first). Before a bare `tsc`, write them."""
    if "client:generate" in json.loads((project / "package.json").read_text())["scripts"]:
        run(["npm", "run", "client:generate"], cwd=project)


def type_check(project: Path) -> None:
    """What the project's `typecheck` checks (Node's tsc), from the shared node_modules."""
    write_the_client(project)
    run(["npx", "--no-install", "tsc", "--noEmit"], cwd=project)


def type_check_together(root: Path, projects: list[Path]) -> None:
    """`tsc --noEmit` over the projects (children of `root`) in as few programs as their
    tsconfigs allow: one per tsconfig text (one compiler start, the shared packages' types read
    once), each project's files under its own compiler options; a project alone in its group is
    checked as its own `typecheck` checks it."""
    groups: dict[str, list[Path]] = {}
    for project in projects:
        groups.setdefault((project / "tsconfig.json").read_text(), []).append(project)
    for number, (tsconfig, group) in enumerate(groups.items()):
        if len(group) == 1:
            type_check(group[0])
            continue
        for project in group:
            write_the_client(project)
        # A folder of its own beside the projects: every folder their tsconfig includes, and the
        # types it names from the first one's node_modules.
        program = root / f".tsc-{number}"
        program.mkdir(exist_ok=True)
        include = json.loads(tsconfig)["include"]
        config = {
            "extends": f"../{group[0].name}/tsconfig.json",
            "include": [f"../{p.name}/{i}" for p in group for i in include],
        }
        (program / "tsconfig.json").write_text(json.dumps(config))
        if not (program / "node_modules").exists():
            (program / "node_modules").symlink_to((group[0] / "node_modules").resolve(), target_is_directory=True)
        run(["npx", "--no-install", "tsc", "--noEmit", "-p", "."], cwd=program)


def npm_tool(package: str, version: str, *others: str) -> Path:
    """An npm package at an exact version (with `others`, more 'name@version' packages beside
    it), installed once into .cache/tools; its node_modules.

    A failed fetch fails the test with npm's output.
    """
    name = f"{package.replace('/', '+')}-{version}"
    if others:  # a set of packages: named by a hash of them all
        name = hashlib.sha256(" ".join([f"{package}@{version}", *others]).encode()).hexdigest()[:16]
    home = TOOLS / name
    home.mkdir(parents=True, exist_ok=True)
    with open(home / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one fetch across xdist workers
        if not (home / ".installed").exists():
            cmd = [
                "npm",
                "install",
                "--no-save",
                "--no-package-lock",
                "--no-audit",
                "--no-fund",
                "--prefix",
                str(home),
                "--cache",
                str(NPM_CACHE),
                f"{package}@{version}",
                *others,
            ]
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
            if done.returncode != 0 or not (home / "node_modules" / package).is_dir():
                pytest.fail(
                    f"could not fetch {package}@{version} with npm: "
                    f"{' '.join(cmd)} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
                )
            (home / ".installed").write_text(version)
    return home / "node_modules"


def node_lts_bin() -> Path:
    """The folder of the current LTS's `node` (fetched once into .cache/tools), checked by its version."""
    cpu = {"x86_64": "x64", "aarch64": "arm64"}[os.uname().machine]
    package = f"node-{sys.platform}-{cpu}"
    folder = npm_tool(package, NODE_LTS_VERSION) / package / "bin"
    version = subprocess.run(
        [str(folder / "node"), "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert version.stdout.strip() == f"v{NODE_LTS_VERSION}", version.stdout + version.stderr
    return folder


class Ecma:
    """ECMA-262 verdicts, as editors give them: ajv and V8's RegExp in one node process.

    tests/ecma_verdicts.cjs answers one JSON line per request; see there.
    """

    def __init__(self) -> None:
        ajv = npm_tool("ajv", AJV_VERSION) / "ajv"
        self.process = subprocess.Popen(
            ["node", str(REPO / "tests" / "ecma_verdicts.cjs"), str(ajv)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        atexit.register(self.process.kill)

    def ask(self, request: dict) -> dict:
        assert self.process.stdin and self.process.stdout  # both are pipes
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            pytest.fail(f"tests/ecma_verdicts.cjs stopped (exit {self.process.poll()}) on {request!r}")
        answer = json.loads(line)
        if "error" in answer:
            pytest.fail(f"tests/ecma_verdicts.cjs: {answer['error']} on {request!r}")
        return answer

    def valid(self, schema: dict, data: object) -> bool:
        """ajv's verdict, the same with and without the `u` flag on patterns."""
        answer = self.ask({"schema": schema, "data": data})
        assert answer["unicode"] == answer["legacy"], f"ajv's two regex modes disagree on {data!r}"
        return answer["unicode"]

    def matches(self, pattern: str, text: str) -> bool:
        """Whether V8's RegExp (with the `u` flag, as ajv) finds `pattern` in `text`."""
        return self.ask({"pattern": pattern, "input": text})["match"]


@functools.cache
def ecma() -> Ecma:
    return Ecma()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_json(url: str, timeout: float = 10) -> tuple[int, dict]:
    """Status and JSON body of a GET, error statuses included."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def wait_listening(process: subprocess.Popen, port: int, what: str, seconds: int = 30) -> None:
    """Wait until a started server accepts connections; fail with its output if it exits or never does."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = process.stdout.read() if process.stdout else ""
            pytest.fail(f"{what} exited early: {output}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    process.kill()
    pytest.fail(f"{what} did not listen within {seconds} s")


def _server_up(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return True
    except OSError:
        return False


def require_server(name: str, port: int) -> None:
    """Fail loudly in CI when a database server is missing; skip, saying why, elsewhere."""
    if _server_up(port):
        return
    message = f"{name} is not listening on 127.0.0.1:{port}"
    if IN_CI:
        pytest.fail(message + " (CI must start it: see .ci/run)")
    pytest.skip(message + "; start it to run this test (see DEVELOPERS.md)")


MARIADB = shutil.which("mariadb") or "mysql"
PSQL = ["psql", "-h", "127.0.0.1", "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-Atq"]


def server_url(engine: str, database: str) -> str:
    """The URL a generated project connects with to a database of the local servers."""
    if engine == "postgresql":
        return f"postgres://postgres@127.0.0.1:5432/{database}"
    return f"mysql://root@127.0.0.1:3306/{database}"


def query(engine: str, database: str | None, statement: str) -> subprocess.CompletedProcess[str]:
    """Run one SQL statement with the server's own client (no database: server administration)."""
    if engine == "postgresql":
        cmd = [*PSQL, "-d", database or "postgres", "-c", statement]
    else:
        cmd = [MARIADB, "-h", "127.0.0.1", "-uroot", "-N", "-B", *([database] if database else []), "-e", statement]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)


def admin(engine: str, statement: str) -> None:
    done = query(engine, None, statement)
    if done.returncode != 0:
        pytest.fail(f"{statement!r} failed: {done.stderr}")


class FreshDatabase:
    """A uniquely named database, dropped on exit."""

    def __init__(self, engine: str):
        self.engine = engine
        self.name = f"sw_test_{uuid.uuid4().hex[:12]}"

    def __enter__(self) -> str:
        admin(self.engine, f"create database {self.name}")
        return self.name

    def __exit__(self, *exc: object) -> None:
        force = " with (force)" if self.engine == "postgresql" else ""
        admin(self.engine, f"drop database if exists {self.name}{force}")


def prisma_stand_in(folder: Path) -> dict[str, str]:
    """The environment for Prisma's CLI on this machine, which cannot download Prisma's native
    schema engine: a stand-in that fails loudly (exit 127), so `validate`, `format` and
    `generate` work while every migrate command fails instead of passing by doing nothing
    (shared/notes/prisma.md)."""
    engine = folder / "no-schema-engine"
    if not engine.exists():
        engine.write_text("#!/bin/sh\necho 'no native Prisma schema engine on this machine' >&2\nexit 127\n")
        engine.chmod(0o755)
    # Prisma 6 (MongoDB) also copies its query engine library into the client it generates:
    # an empty file, so that client cannot run here (it cannot load the library).
    library = folder / "no-query-engine.so.node"
    library.touch()
    return {
        "PRISMA_SCHEMA_ENGINE_BINARY": str(engine),
        "PRISMA_QUERY_ENGINE_LIBRARY": str(library),
        "PRISMA_HIDE_UPDATE_MESSAGE": "1",
    }


@pytest.fixture
def postgres_url():
    """A fresh, uniquely named PostgreSQL database, dropped afterwards."""
    require_server("PostgreSQL", 5432)
    with FreshDatabase("postgresql") as name:
        yield server_url("postgresql", name)


@pytest.fixture
def mysql_url():
    """A fresh, uniquely named MariaDB database, dropped afterwards."""
    require_server("MariaDB", 3306)
    with FreshDatabase("mysql") as name:
        yield server_url("mysql", name)
