"""Transfers per second through a generated project's bank API, against a hand-written baseline.

For each pairing (database engine x framework on its runtime x Drizzle or Prisma), in one run: a
project with the auth and bank APIs is generated, installed and migrated on a fresh database of
the local server; USERS users sign in through the API, each opens ACCOUNTS_PER_USER accounts
and an admin funds them (deposits through the API). Then, after WARM_UP_SECONDS of each
unmeasured, alternating ROUNDS times for SECONDS each with CONCURRENCY requests in flight, transfer_load.mjs sends transfers through
the API, transfer_baseline.mjs runs the same transfers straight on the database (plain pg or
mysql2, one transaction each, the same locking, each statement prepared once per
connection: transfer_sql.mjs), and transfer_load.mjs sends
them to two HTTP floors (transfer_http_floor.mjs: the baseline's transfer behind a bare
node:http server with no framework and no validation; the authenticated one also checks the
access token and its session, as the contract asks of every signed-in request, at the least
cost), and to the stack's own floors (own_floors): on Bun and Deno pairings the authenticated
floor run by that runtime, so the runtime's own share shows; the framework's floor, the
authenticated floor's work from one Express route, one NestJS controller, Next.js route
handlers (under `next start`, and under a custom server as the project's) or one Hono route on
the runtime's own server, so the framework's own share shows; and the data layer's floor:
on Prisma pairings the same statements through the project's Prisma Client in an interactive
transaction (prisma_floor.mjs), on Drizzle pairings through Drizzle on the project's tables,
each statement prepared as the API's (drizzle_floor.mjs), bare and in each of the stack's
floors (`Express floor, Drizzle`: the floor of the stack's framework and data layer), so the
data layer's own share shows. The script prints the API's ratio to each: of the median rates,
the lowest and highest of the rounds' (each round's API against the same round's floor: this
machine's noise), and of the server's CPU a transfer (the ratio where each server has a core of
its own: the load program and the database share this machine's two). Random pairs, a fifth of them to three hot accounts. The script prints transfers per
second for each, their ratios to the baseline, the API's to the authenticated floor, the CPU
each part used per transfer, and whether the ledger's invariants held at the end (no customer
balance below zero, every balance equal to its ledger, every currency's ledger summing to
zero).

The floors' ratios bound what an HTTP API can reach on the machine they run on: where the
authenticated floor is below a throughput goal, no API that keeps the contract meets it.

    .venv/bin/python benchmarks/transfer_speed.py [SECONDS] [ROUNDS] [WORD...]

Each WORD (an engine, runtime, framework, adapter, or runtime/framework such as node/express)
keeps only the pairings it names: `drizzle node/express` runs Express on Node with Drizzle, on
PostgreSQL and MariaDB. Pairings: Express on Node and Hono on Bun with Drizzle on both engines
(the goal: the API at 0.8 x the authenticated floor), NestJS, Next.js and Hono on Deno with
Drizzle on PostgreSQL, and Express and Hono on Bun with Prisma on both engines. Prisma's tables
come as the suite makes them here (tests/test_prisma.py's create_tables: its native schema
engine cannot be downloaded on this machine). Each server's peak resident memory (VmHWM, its
largest process) is printed too.

STACKWRIGHT_TEMPLATE=/path/to/checkout renders the projects from that checkout's HEAD (a git
worktree of an older commit, say, to measure a change before and after); by default, this
repository's HEAD. The Copier, the test helpers and these load programs stay this
repository's.

The server runs with every part of the edge on (CORS for one origin, an access log line per
request written to a file, rate limits) and its limits far above the load this script sends:
at the defaults, seeding (hundreds of requests from one client) would be refused with 429. A
template from before the edge ignores these variables.

The same project is served a second time with tracing on ("API traced": OpenTelemetry's SDK
exporting every request's spans and the metrics over OTLP/HTTP to otlp_sink.mjs, a stand-in
collector that keeps only counts), on the same database, measured in turn with the rest: the
script prints tracing's cost (API traced / API - 1) and how much the collector received.

STACKWRIGHT_PROFILE=/path/to/folder profiles the servers run by Node (the APIs and the floors):
each writes V8's CPU profile (`--cpu-prof`) into a subfolder named after it when it stops, which
`node benchmarks/profile_summary.mjs FOLDER...` sums up by where the time goes. Profiling slows
them: the rates of such a run are not comparable with others.

STACKWRIGHT_BEFORE=/path/to/checkout serves a project rendered from that checkout (a commit
before a change) beside, on its own database seeded alike, measured in turn with the rest in
each round, so the two share the machine's state; the script prints the change's gain.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from conftest import FreshDatabase, free_port, npm_tool, prisma_stand_in, query, server_url
from test_prisma import create_tables

from stackwright.packages import VERSIONS

REPO = HERE.parent
# Measured beside the goal's stacks, on PostgreSQL and Drizzle, with no goal.
OTHER_STACKS = [("node", "nestjs"), ("node", "nextjs"), ("deno", "hono")]
# The checkout projects are rendered from (its HEAD commit).
TEMPLATE = Path(os.environ.get("STACKWRIGHT_TEMPLATE") or REPO).resolve()
# A checkout of a commit before a change, served beside in the same run (the docstring).
BEFORE = Path(os.environ["STACKWRIGHT_BEFORE"]).resolve() if os.environ.get("STACKWRIGHT_BEFORE") else None
# Where the servers run by Node write their CPU profiles, if anywhere (the docstring).
PROFILE = Path(os.environ["STACKWRIGHT_PROFILE"]).resolve() if os.environ.get("STACKWRIGHT_PROFILE") else None
# The pairings with a goal (the API at GOAL x the authenticated floor at least), then those
# measured beside them with none: the other frameworks and runtime, and Prisma.
GOAL_STACKS = [("node", "express"), ("bun", "hono")]
# The frameworks' own floors served beside (floor_server.mjs): framework -> {floor's name: mode}.
FRAMEWORK_FLOORS = {
    "express": {"Express floor": "express"},
    "nestjs": {"NestJS floor": "nestjs"},
    "nextjs": {"Next.js floor": "nextjs", "Next.js custom server floor": "nextjs-custom"},
    "hono": {"Hono floor": "hono"},
}
GOAL = 0.8
# How each runtime runs a floor's script.
RUNNERS = {"node": ["node"], "bun": ["bun"], "deno": ["deno", "run", "-A"]}
PAIRINGS = [
    *[
        (engine, runtime, framework, "drizzle")
        for runtime, framework in GOAL_STACKS
        for engine in ("postgresql", "mysql")
    ],
    *[("postgresql", runtime, framework, "drizzle") for runtime, framework in OTHER_STACKS],
    *[
        (engine, runtime, framework, "prisma")
        for runtime, framework in GOAL_STACKS
        for engine in ("postgresql", "mysql")
    ],
]
USERS = 20
ACCOUNTS_PER_USER = 15
WARM_UP_SECONDS = 3
CONCURRENCY = 20
PASSWORD = "benchmark password"
JWT_SECRET = "a benchmark secret that is long enough to sign tokens"
# Tracing on, every request sampled (the SDK's default), its queue large enough that no span is
# dropped under this load (the defaults, 2048 spans, would drop most of them: a cost not paid).
TRACED_ENV = {
    "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
    "OTEL_BSP_MAX_QUEUE_SIZE": "262144",
    "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "4096",
    "OTEL_BSP_SCHEDULE_DELAY": "500",
    "OTEL_METRIC_EXPORT_INTERVAL": "5000",
}
# The edge all on (access log lines at info), its rate limits out of the benchmark's reach.
EDGE_ENV = {
    "AUTH_RATE_LIMIT": "1000000000",
    "API_RATE_LIMIT": "1000000000",
    "CORS_ORIGINS": "http://localhost:5173",
    "LOG_LEVEL": "info",
    # The auth API in production needs one (mail goes through its outbox; none is sent here).
    "SMTP_URL": "smtp://127.0.0.1:2525",
}

# What STACKWRIGHT_WITHOUT turns off, by name, in one more instance of the API each (read_speed.py's
# docstring): the settings it is served with. "nothing": an instance alike ("API again"), how far
# two instances of one build differ.
WITHOUT = {
    "access log": {"LOG_LEVEL": "warn"},
    "CORS": {"CORS_ORIGINS": ""},
    "rate limits": {"AUTH_RATE_LIMIT": "0", "API_RATE_LIMIT": "0"},
    "nothing": {},
}


def without_name(part: str) -> str:
    """The name of the API's instance with `part` off (WITHOUT)."""
    return "API again" if part == "nothing" else f"API without {part}"


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env={**os.environ, **(env or {})}, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def sql(engine: str, database: str, statement: str) -> list[list[str]]:
    """Rows of one statement, as text."""
    if engine == "postgresql":
        done = subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", database, "-At", "-F", "\t", "-c", statement],
            capture_output=True,
            text=True,
            check=False,
        )
    else:
        done = query(engine, database, statement)
    if done.returncode != 0:
        raise SystemExit(f"{statement}: {done.stderr}")
    return [line.split("\t") for line in done.stdout.splitlines() if line]


def call(base: str, method: str, path: str, body: dict | None = None, token: str = "", key: str = "") -> dict:
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    if key:
        headers["idempotency-key"] = key
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{base}{path}", data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def generate(
    root: Path,
    engine: str,
    runtime: str,
    framework: str,
    adapter: str,
    env: dict[str, str],
    bundles: tuple[str, ...] = ("auth", "banking-app"),
    template: Path = TEMPLATE,
) -> Path:
    """A project rendered from `template`'s HEAD and installed with npm."""
    suffix = "" if template == TEMPLATE else "-before"
    project = root / f"{engine}-{runtime}-{framework}-{adapter}{suffix}"
    answers = {
        "runtime": runtime,
        "framework": framework,
        "databaseEngine": engine,
        "databaseAdapter": adapter,
        "bundles": list(bundles),
        "packageManager": "npm",
    }
    data = [
        arg
        for key, value in answers.items()
        for arg in ("--data", f"{key}={value if isinstance(value, str) else json.dumps(value)}")
    ]
    copier = REPO / ".venv" / "bin" / "copier"
    run(
        [str(copier), "copy", "--trust", "--defaults", "--quiet", "--vcs-ref=HEAD", *data, str(template), str(project)],
        REPO,
    )
    run(["npm", "install", "--no-audit", "--no-fund"], project, env)  # Prisma: postinstall generates the client
    return project


def seed(project: Path, engine: str, database: str, base: str) -> dict:
    """Users (inserted with a known password hash, verified), their funded accounts, and an admin."""
    script = f"require('@node-rs/argon2').hash({json.dumps(PASSWORD)}).then((h) => console.log(h))"
    password_hash = run(["node", "-e", script], project).strip()
    emails = [f"bench-{i}@example.test" for i in range(USERS + 1)]
    rows = ", ".join(
        f"('Bench', '{email}', '{password_hash}', {'true' if engine == 'postgresql' else '1'}, '{'admin' if i == 0 else 'user'}')"
        for i, email in enumerate(emails)
    )
    sql(engine, database, f"insert into users (name, email, password, is_email_verified, role) values {rows}")
    tokens = [
        call(base, "POST", "/api/v1/auth/sign-in", {"email": e, "password": PASSWORD})["accessToken"] for e in emails
    ]
    admin, users = tokens[0], []
    for token in tokens[1:]:
        accounts = [call(base, "POST", "/api/v1/accounts", {}, token)["_id"] for _ in range(ACCOUNTS_PER_USER)]
        for account in accounts:
            call(
                base,
                "POST",
                "/api/v1/admin/deposits",
                {"accountId": account, "amount": "100000.00"},
                admin,
                f"seed-{account}",
            )
        users.append({"token": token, "accounts": accounts})
    return {"baseUrl": base, "users": users, "hot": users[0]["accounts"][:3]}


def cpu_seconds(server_session: int) -> dict[str, float]:
    """CPU seconds used so far by the API server's process group and by the database server
    (PostgreSQL's postmaster counts its ended backends as reaped children), and by the load
    programs this script ran and waited for."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {"server": 0.0, "database": 0.0}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name, rest = stat.read_text().split("(", 1)[1].rsplit(")", 1)
        except (OSError, IndexError, ValueError):
            continue
        fields = rest.split()
        own, reaped = int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])
        if int(fields[3]) == server_session:
            used["server"] += own / tick
        elif name in ("postgres", "mariadbd", "mysqld"):
            used["database"] += (own + reaped) / tick
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    used["client"] = children.ru_utime + children.ru_stime
    return used


def invariants(engine: str, database: str) -> list[str]:
    problems = []
    negative = sql(engine, database, "select count(*) from accounts where balance < 0 and not system_account")
    if negative[0][0] != "0":
        problems.append(f"{negative[0][0]} customer balances below zero")
    ledger = "sum(case when l.entry_type = 'credit' then l.amount else -l.amount end)"
    unequal = sql(
        engine,
        database,
        # The bank's own accounts keep no cached balance (their ledger is their balance).
        f"select count(*) from (select a.id from accounts a left join ledgers l on l.account_id = a.id "
        f"where not a.system_account "
        f"group by a.id, a.balance having a.balance <> coalesce({ledger}, 0)) x",
    )
    if unequal[0][0] != "0":
        problems.append(f"{unequal[0][0]} balances differ from their ledger")
    totals = sql(
        engine,
        database,
        f"select a.currency, {ledger} from ledgers l join accounts a on a.id = l.account_id group by a.currency",
    )
    problems += [f"{currency} ledger sums to {total}" for currency, total in totals if float(total) != 0]
    return problems


def runtime_path() -> dict[str, str]:
    """PATH with the pinned bun and deno (the Bun and Deno projects' scripts run them)."""
    bins = [str(npm_tool(name, VERSIONS["runtimes"][name]) / ".bin") for name in ("bun", "deno")]
    return {
        "PATH": ":".join([*bins, os.environ["PATH"]]),
        "DENO_TLS_CA_STORE": "system",
        "NEXT_TELEMETRY_DISABLED": "1",
    }


def label(pairing: tuple[str, str, str, str]) -> str:
    engine, runtime, framework, adapter = pairing
    return f"{engine} {runtime}/{framework} {adapter}"


def chosen(pairing: tuple[str, str, str, str], words: list[str]) -> bool:
    """Whether the command line's words (an engine, runtime, framework, adapter or
    runtime/framework) all name this pairing."""
    engine, runtime, framework, adapter = pairing
    names = {engine, runtime, framework, adapter, f"{runtime}/{framework}"}
    return all(word in names for word in words)


@contextlib.contextmanager
def served_project(
    root: Path,
    pairing: tuple[str, str, str, str],
    env: dict[str, str],
    template: Path,
    bundles: tuple[str, ...],
    seeded: Callable[[Path, str, str], dict],
) -> Iterator[tuple[Path, Path, subprocess.Popen, str, str]]:
    """A project of `bundles` from `template`, built, migrated on a fresh database, seeded by
    `seeded(project, database, base URL)` and serving: its folder, its load setup file (what
    `seeded` returned), its server, its database's URL and name."""
    engine, runtime, framework, adapter = pairing
    project = generate(root, engine, runtime, framework, adapter, env, bundles, template)
    if "build" in json.loads((project / "package.json").read_text())["scripts"]:
        run(["npm", "run", "build"], project, env)
    if adapter == "drizzle":
        run(["npm", "run", "db:generate"], project, env)
    with FreshDatabase(engine) as database:
        url = server_url(engine, database)
        if adapter == "drizzle":
            run(["npm", "run", "db:migrate"], project, {**env, "DATABASE_URL": url})
        else:
            create_tables(project, engine, url, root / f"{project.name}-tables", env)
        server, base = start_api(project, root, env, url)
        try:
            setup_file = root / f"{project.name}.json"
            setup_file.write_text(json.dumps(seeded(project, database, base)))
            yield project, setup_file, server, url, database
        finally:
            stop(server)


def served_bank(
    root: Path, pairing: tuple[str, str, str, str], env: dict[str, str], template: Path
) -> contextlib.AbstractContextManager[tuple[Path, Path, subprocess.Popen, str, str]]:
    """A bank project (served_project), its users' funded accounts seeded."""
    engine = pairing[0]
    return served_project(
        root,
        pairing,
        env,
        template,
        ("auth", "banking-app"),
        lambda project, database, base: seed(project, engine, database, base),
    )


def peak_rss_mb(session: int) -> float:
    """The peak resident memory of a server: the largest VmHWM of its session's processes (the
    server itself, not the npm that started it)."""
    peak = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
            if os.getsid(int(status.parent.name)) == session and "VmHWM" in fields:
                peak = max(peak, int(fields["VmHWM"].split()[0]))
        except (OSError, ValueError):
            continue
    return peak / 1024


def measure(root: Path, pairing: tuple[str, str, str, str], seconds: int, rounds: int) -> dict:
    engine = pairing[0]
    env = {**runtime_path(), **prisma_stand_in(root)}
    with contextlib.ExitStack() as stack:
        project, setup_file, server, url, database = stack.enter_context(served_bank(root, pairing, env, TEMPLATE))
        apis = {"API": (setup_file, server, database)}
        traced_file, traced, received = served_traced(stack, project, root, env, url, setup_file)
        apis["API traced"] = (traced_file, traced, database)
        if BEFORE:
            _, before_file, before_server, _, before_database = stack.enter_context(
                served_bank(root, pairing, env, BEFORE)
            )
            apis["before"] = (before_file, before_server, before_database)
        setup = json.loads(setup_file.read_text())
        project_name = json.loads((project / "package.json").read_text())["name"]  # the tokens' issuer
        authenticated = [url, JWT_SECRET, project_name]
        floors = {"HTTP floor": ("node", [url]), "authenticated floor": ("node", authenticated)}
        floors.update(
            (name, (runtime, [*authenticated, *mode]))
            for name, (runtime, mode) in own_floors(project, pairing, env).items()
        )
        load = ["node", str(HERE / "transfer_load.mjs")]

        def sent_to(file: Path) -> Callable[[int], list[str]]:
            """The load program's command for `seconds` of transfers to the server of `file`."""
            return lambda seconds: [*load, str(file), str(seconds), str(CONCURRENCY)]

        # name -> (its command for a number of seconds, its server: none for the baseline)
        targets: dict[str, tuple[Callable[[int], list[str]], subprocess.Popen | None]] = {
            name: (sent_to(file), api) for name, (file, api, _) in apis.items()
        }
        baseline = ["node", str(HERE / "transfer_baseline.mjs"), str(setup_file)]
        targets["baseline"] = (lambda seconds: [*baseline, str(seconds), str(CONCURRENCY), url], None)
        for name, (runtime, args) in floors.items():
            floor, floor_port = start_floor(project, runtime, args, env, name)
            stack.callback(stop, floor)
            floor_file = root / f"{project.name}-{name.replace(' ', '-')}.json"
            floor_file.write_text(json.dumps({**setup, "baseUrl": f"http://127.0.0.1:{floor_port}"}))
            targets[name] = (sent_to(floor_file), floor)
        runs: dict[str, list[dict]] = {name: [] for name in targets}
        # Unmeasured, as in read_speed.py: a server's first seconds, before the JIT has compiled
        # its hot paths, would count against the floors started just now (the API has served
        # the seeding).
        for command, _ in targets.values():
            run(command(WARM_UP_SECONDS), project)
        order = list(targets)
        for n in range(rounds):
            # Each round starts with the next one: none is always measured first.
            for name in order[n % len(order) :] + order[: n % len(order)]:
                command, process = targets[name]
                runs[name].append(timed(command(seconds), project, (process or server).pid))
        memory = {name: peak_rss_mb(process.pid) for name, (_, process) in targets.items() if process}
        # Both servers of the project share its database: its invariants are checked once.
        databases = {db: name for name, (_, _, db) in apis.items()}
        problems = [f"{name}: {problem}" for db, name in databases.items() for problem in invariants(engine, db)]
        exported = received()
    rate = lambda runs: statistics.median(r["completed"] / r["seconds"] for r in runs)
    return {
        "rates": {name: rate(done) for name, done in runs.items()},
        "runs": runs,
        "problems": problems,
        "cpu": {name: cpu(done) for name, done in runs.items()},
        "memory": memory,
        "exported": exported,
    }


def start_api(
    project: Path,
    root: Path,
    env: dict[str, str],
    url: str,
    overrides: dict[str, str] | None = None,
    log_name: str = "server",
) -> tuple[subprocess.Popen, str]:
    """The project's start script on a free port, in production with every part of the edge on
    (EDGE_ENV, then `overrides`), its log lines in a file under root, as they would go in
    production; answering."""
    port = free_port()
    server_env = {
        **os.environ,
        **env,
        "DATABASE_URL": url,
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "JWT_SECRET": JWT_SECRET,
        "NODE_ENV": "production",
        **EDGE_ENV,
        **(overrides or {}),
    }
    if PROFILE:  # npm is Node too: its own profile lands beside the server's, the smaller one
        server_env["NODE_OPTIONS"] = f"--require {HERE / 'cpu_profile.cjs'}"
        server_env["STACKWRIGHT_PROFILE_DIR"] = str(PROFILE / f"{project.name}-{log_name}")
    with open(root / f"{project.name}-{log_name}.log", "w") as log:
        server = subprocess.Popen(
            ["npm", "run", "start"],
            cwd=project,
            env=server_env,
            start_new_session=True,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            call(base, "GET", "/health")
            return server, base
        except OSError:
            time.sleep(0.2)
    stop(server)
    output = (root / f"{project.name}-{log_name}.log").read_text()
    raise SystemExit(f"{project.name} ({log_name}) does not answer on {base}:\n{output[-3000:]}")


def served_traced(
    stack: contextlib.ExitStack, project: Path, root: Path, env: dict[str, str], url: str, setup_file: Path
) -> tuple[Path, subprocess.Popen, Callable[[], dict]]:
    """The project served once more, with tracing on (TRACED_ENV) to a stand-in collector
    (otlp_sink.mjs): its load setup file, its server, and what the collector has received."""
    sink_port = free_port()
    sink = subprocess.Popen(
        ["node", str(HERE / "otlp_sink.mjs"), str(sink_port)], start_new_session=True, stdout=subprocess.DEVNULL
    )
    stack.callback(stop, sink)
    wait_for_port(sink_port)
    sink_url = f"http://127.0.0.1:{sink_port}"
    overrides = {**TRACED_ENV, "OTEL_EXPORTER_OTLP_ENDPOINT": sink_url}
    traced, traced_base = start_api(project, root, env, url, overrides, log_name="traced")
    stack.callback(stop, traced)
    traced_file = root / f"{project.name}-traced.json"
    traced_file.write_text(json.dumps({**json.loads(setup_file.read_text()), "baseUrl": traced_base}))
    return traced_file, traced, lambda: json.loads(urllib.request.urlopen(sink_url).read())


def framework_floors(project: Path, framework: str, env: dict[str, str]) -> dict[str, str]:
    """The framework's own floors ({name: floor_server.mjs mode}); Next.js's app (next_floor/)
    built first, into the project's `next-floor` folder, with the project's Next."""
    floors = FRAMEWORK_FLOORS.get(framework, {})
    if framework == "nextjs" and not (project / "next-floor" / ".next").is_dir():
        shutil.copytree(HERE / "next_floor", project / "next-floor", dirs_exist_ok=True)
        run(["node_modules/.bin/next", "build", "next-floor"], project, env)
    return floors


def own_floors(
    project: Path, pairing: tuple[str, str, str, str], env: dict[str, str]
) -> dict[str, tuple[str, list[str]]]:
    """The stack's own floors beside the authenticated one: {name: (runtime, the floor's
    arguments after the authenticated floor's)}. The runtime's on Bun and Deno (the
    authenticated floor run by it), the framework's (its cost: the authenticated floor in one
    route of it, run by the pairing's runtime), and its data layer's: the authenticated floor
    through the project's Prisma Client (prisma_floor.mjs) or through Drizzle on the project's
    tables (drizzle_floor.mjs), and each of the stack's floors through it too (the floor of its
    framework and data layer)."""
    engine, runtime, framework, adapter = pairing
    floors: dict[str, tuple[str, list[str]]] = {}
    if runtime != "node":
        floors[f"{runtime.capitalize()} floor"] = (runtime, [])
    floors |= {name: (runtime, [mode]) for name, mode in framework_floors(project, framework, env).items()}
    if adapter == "drizzle":
        drizzle_floor_bundle(project, engine, env)
    layer = adapter.capitalize()
    floors |= {f"{name}, {layer}": (on, [*(mode or ["bare"]), adapter]) for name, (on, mode) in floors.items()}
    if runtime == "node":  # elsewhere, the runtime's floor through the data layer is the bare one
        floors[f"{layer} floor"] = ("node", ["bare", adapter])
    return floors


def drizzle_floor_bundle(project: Path, engine: str, env: dict[str, str]) -> None:
    """drizzle-floor.cjs in the project's folder, for Drizzle's floor (drizzle_floor.mjs): the
    project's tables (the schema its drizzle.config.ts names), Drizzle's operators and its
    driver's drizzle(), one CommonJS module bundled by the project's esbuild (drizzle-kit's), its
    packages left to the project's node_modules: every runtime requires it from the project's
    folder as the floors require pg and mysql2 (Deno resolves a bare ES import only from the
    importing module's own package.json, which the bundle has none of)."""
    config = (project / "drizzle.config.ts").read_text()
    schema = re.search(r'schema: "([^"]+)"', config)
    if not schema:
        raise RuntimeError(f"{project / 'drizzle.config.ts'} names no schema")
    driver = "mysql2" if engine == "mysql" else "node-postgres"
    (project / "drizzle-floor.ts").write_text(
        f'export * from "{schema.group(1)}";\n'
        'export { and, asc, count, desc, eq, gt, inArray, sql } from "drizzle-orm";\n'
        f'export {{ drizzle }} from "drizzle-orm/{driver}";\n'
    )
    esbuild = str(project / "node_modules" / ".bin" / "esbuild")
    bundle = ["--bundle", "--platform=node", "--format=cjs", "--packages=external", "--log-level=warning"]
    run([esbuild, "drizzle-floor.ts", *bundle, "--outfile=drizzle-floor.cjs"], project, env)


def server_ms(runs: list[dict], sent: Callable[[dict], int]) -> float:
    """Milliseconds of the server's CPU per request (`sent` counts a run's), over all rounds."""
    return 1000 * sum(r["cpu"]["server"] for r in runs) / sum(map(sent, runs))


def own_floor_ratio_lines(runs: dict[str, list[dict]], sent: Callable[[dict], int]) -> list[str]:
    """The API's ratio to each of its stack's own floors that was measured (own_floors), a line
    each: of the median rates; the lowest and the highest of the rounds' (a round's API against
    the same round's floor: how far this machine's noise reaches); and of the server's CPU a
    request (`sent` counts a run's requests), the floor's over the API's, over all rounds and of
    each one's least (noise only adds CPU time): the ratio where each server has a core of its
    own, whatever else shares this machine's two."""
    shared = ("API", "API traced", "before", "baseline", "HTTP floor", "authenticated floor", "floor")
    floors = [name for name in runs if name not in shared and not name.startswith("API ")]
    rates = {name: [r["completed"] / r["seconds"] for r in done] for name, done in runs.items()}
    all_ms = {name: server_ms(done, sent) for name, done in runs.items()}
    least_ms = {name: min(r["cpu"]["server"] / max(sent(r), 1) for r in done) for name, done in runs.items()}
    lines = []
    for name in floors:
        median = statistics.median(rates["API"]) / statistics.median(rates[name])
        rounds = [api / floor for api, floor in zip(rates["API"], rates[name], strict=True)]
        lines.append(
            f"    the API to the {name}: {median:.2f} (rounds {min(rounds):.2f} to {max(rounds):.2f};"
            f" by server CPU a request {all_ms[name] / all_ms['API']:.2f},"
            f" the rounds' least {least_ms[name] / least_ms['API']:.2f})"
        )
    return lines


def start_floor(
    project: Path,
    runtime: str,
    args: list[str],
    env: dict[str, str],
    name: str,
    script: str = "transfer_http_floor.mjs",
) -> tuple[subprocess.Popen, int]:
    """The floor `name`: a floor server (`script`, transfer_http_floor.mjs or read_floor.mjs)
    run by `runtime` (node, bun or deno) on a free port, listening."""
    port = free_port()
    floor = subprocess.Popen(
        [*RUNNERS[runtime], *profile_flags(runtime, name), str(HERE / script), str(port), *args],
        cwd=project,
        env={**os.environ, **env},
        start_new_session=True,
        stdout=subprocess.DEVNULL,
    )
    wait_for_port(port)
    return floor, port


def profile_flags(runtime: str, name: str) -> list[str]:
    """The flags that make the floor `name`, run by `runtime`, write its CPU profile: Node's,
    under STACKWRIGHT_PROFILE only (the docstring)."""
    if not PROFILE or runtime != "node":
        return []
    return ["--cpu-prof", f"--cpu-prof-dir={PROFILE / name.replace(' ', '-')}"]


def wait_for_port(port: int) -> None:
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing listens on port {port}")


def stop(process: subprocess.Popen) -> None:
    """SIGTERM to the process group (npm and the server it started), then wait."""
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=30)


def timed(cmd: list[str], cwd: Path, server_session: int) -> dict:
    """One load program's counts, and the CPU that each part of the system used meanwhile."""
    before = cpu_seconds(server_session)
    result = json.loads(run(cmd, cwd))
    after = cpu_seconds(server_session)
    return {**result, "cpu": {part: after[part] - before[part] for part in before}}


def sent(load: dict) -> int:
    """The transfers a load run sent: completed or refused."""
    return load["completed"] + load["refused"]


def cpu(runs: list[dict]) -> str:
    """Milliseconds of CPU per transfer sent, by part, over all rounds."""
    sent_in_all = sum(map(sent, runs))
    return " ".join(f"{part} {1000 * sum(r['cpu'][part] for r in runs) / sent_in_all:.2f}" for part in runs[0]["cpu"])


def main() -> None:
    seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    words = sys.argv[3:]
    root = Path(tempfile.mkdtemp(prefix="stackwright-transfers-"))
    try:
        print(f"transfers/s, median of {rounds} x {seconds} s, {CONCURRENCY} in flight")
        for pairing in (p for p in PAIRINGS if chosen(p, words)):
            result = measure(root, pairing, seconds, rounds)
            verdict = "invariants hold" if not result["problems"] else "; ".join(result["problems"])
            rates = result["rates"]
            baseline, floor = rates["baseline"], rates["authenticated floor"]
            goal = f" (goal {GOAL:.2f})" if pairing[1:3] in GOAL_STACKS and pairing[3] == "drizzle" else ""
            print(
                f"{label(pairing):32} " + "  ".join(f"{name} {rate:7.1f}" for name, rate in rates.items()), flush=True
            )
            print(
                "    ratio to the baseline: "
                + ", ".join(f"{name} {rate / baseline:.2f}" for name, rate in rates.items() if name != "baseline")
                + "; to the authenticated floor: "
                + ", ".join(
                    f"{name} {rates[name] / floor:.2f}"
                    for name in rates
                    if name not in ("baseline", "HTTP floor", "authenticated floor")
                )
                + f"{goal}; {verdict}",
                flush=True,
            )
            for line in own_floor_ratio_lines(result["runs"], sent):
                print(line, flush=True)
            if "before" in rates:
                print(f"    the change's gain: {100 * (rates['API'] / rates['before'] - 1):+.1f}% (API / before - 1)")
            exported = result["exported"]
            print(
                f"    tracing's cost: {100 * (rates['API traced'] / rates['API'] - 1):+.1f}% (API traced / API - 1);"
                f" the collector received {exported['exports']} exports, {exported['bytes'] / 1e6:.1f} MB",
                flush=True,
            )
            for name, used in result["cpu"].items():
                print(f"    CPU ms per transfer, {name}: {used}", flush=True)
            print(
                "    peak resident memory, MB: "
                + ", ".join(f"{name} {mb:.0f}" for name, mb in result["memory"].items()),
                flush=True,
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
