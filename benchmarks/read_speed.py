"""Reads per second through a generated project's HTTP API, against the same queries behind a
bare node:http server.

For each pairing on PostgreSQL (Express on Node and Hono on Bun with Drizzle, where the goals
are the API at 0.8 x the floor on /posts and 0.7 x on /auth/me; NestJS, Next.js and Hono on
Deno with Drizzle; Express and Hono on Bun with Prisma, whose tables come as in
transfer_speed.py), in one run: a project with the auth and blog APIs is generated, installed
and migrated on a fresh database of the local server; USERS users are inserted with a known password hash and sign in through the API
(their access tokens), and CATEGORIES categories, POSTS published posts and their likes are
inserted with SQL. Then, after WARM_UP_SECONDS of each unmeasured, alternating ROUNDS times
for SECONDS each with CONCURRENCY requests in flight, read_load.mjs sends `GET /api/v1/posts`
(the first page of 20, each post with its author, category and like count) and `GET
/api/v1/auth/me` (the caller's profile: the access token and its session checked, the user
read) to the API and to the floor (read_floor.mjs: the statements the API sends, with plain
pg, each prepared once per connection, behind a bare node:http server with no framework and no edge), and to the
stack's own floors (transfer_speed.own_floors: the same answers from the pairing's runtime, its
framework, and through its data layer, the project's Prisma Client or Drizzle on the project's
tables, with the API's queries: what each of them costs). Each request carries a
random user's access token and a browser's Origin (the API's CORS answers it). The script
prints requests per second for each path on each server, the API's ratio to the floor, the
mean size of the answers (the floor answers in the API's shape) and the CPU each part used
per request. Any answer but 200 is a failure and is reported: a run with failures measures
nothing.

The API runs with every part of the edge on (transfer_speed.EDGE_ENV: CORS, an access log line
per request written to a file, the rate limits far above this load); to measure what the edge
costs, run the script from the commit before it and from after, and compare the ratios:
the edge's cost on a path is 1 - ratio_after / ratio_before.

    .venv/bin/python benchmarks/read_speed.py [SECONDS] [ROUNDS] [WORD...]

Each WORD (a runtime, framework, adapter, or runtime/framework such as bun/hono) keeps only
the pairings it names; a WORD that is one of the paths keeps only that path. Each server's
peak resident memory (VmHWM) is printed too.
STACKWRIGHT_TEMPLATE=/path/to/checkout renders the project from that checkout's HEAD, and
STACKWRIGHT_PROFILE=/path/to/folder writes the CPU profiles of the servers run by Node
(transfer_speed.py's docstring).

STACKWRIGHT_WITHOUT=PART,... serves the project once more for each PART turned off (a part of
the edge: `access log`, `CORS`, `rate limits`; or `nothing`, an instance alike, to see how far two
instances of one build differ), measured in turn with the rest: the script prints each part's
cost on each path (API / API without it - 1) and the server CPU it takes a request, in µs.

STACKWRIGHT_BEFORE=/path/to/checkout adds a third server to the same run: the project rendered
from that checkout (a commit before a change), on a database of its own seeded alike, measured
in turn with the other two. Runs minutes apart on this machine differed by a third in the floor
alone; servers measured in turn share the machine's state, so the script then prints the change's
gain on each path as API / before - 1.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from conftest import prisma_stand_in
from transfer_speed import (
    BEFORE,
    GOAL_STACKS,
    HERE,
    JWT_SECRET,
    OTHER_STACKS,
    PASSWORD,
    TEMPLATE,
    WARM_UP_SECONDS,
    WITHOUT,
    call,
    chosen,
    label,
    own_floor_ratio_lines,
    own_floors,
    peak_rss_mb,
    run,
    runtime_path,
    served_project,
    served_traced,
    server_ms,
    sql,
    start_api,
    start_floor,
    stop,
    timed,
    without_name,
)

# Every pairing on PostgreSQL (the floor's engine): the goal's stacks and the others with
# Drizzle, and the goal's stacks with Prisma.
PAIRINGS = [
    *[("postgresql", runtime, framework, "drizzle") for runtime, framework in [*GOAL_STACKS, *OTHER_STACKS]],
    *[("postgresql", runtime, framework, "prisma") for runtime, framework in GOAL_STACKS],
]
# The goals: the API's rate at these shares of the floor's, on the goal's stacks with Drizzle.
GOALS = {"/api/v1/posts": 0.8, "/api/v1/auth/me": 0.7}
PATHS = ["/api/v1/posts", "/api/v1/auth/me"]
BUNDLES = ("auth", "blog-app")
USERS = 20
CATEGORIES = 5
POSTS = 100
CONCURRENCY = 20
ORIGIN = "http://localhost:5173"  # one of EDGE_ENV's CORS_ORIGINS
# The parts of the edge served off in an instance each (the docstring).
PARTS_OFF = [part.strip() for part in os.environ.get("STACKWRIGHT_WITHOUT", "").split(",") if part.strip()]
if unknown := [part for part in PARTS_OFF if part not in WITHOUT]:
    raise SystemExit(f"STACKWRIGHT_WITHOUT: {', '.join(unknown)} is none of {', '.join(WITHOUT)}")


def seed(project: Path, database: str, base: str) -> dict:
    """Users (a known password hash; their access tokens from the API's sign-in), categories,
    published posts by them and likes."""
    script = f"require('@node-rs/argon2').hash({json.dumps(PASSWORD)}).then((h) => console.log(h))"
    password_hash = run(["node", "-e", script], project).strip()
    emails = [f"reader-{i}@example.test" for i in range(USERS)]
    rows = ", ".join(f"('Reader {i}', '{e}', '{password_hash}', true)" for i, e in enumerate(emails))
    sql("postgresql", database, f"insert into users (name, email, password, is_email_verified) values {rows}")
    categories = ", ".join(f"('Category {i}', 'category-{i}', 'About {i}')" for i in range(CATEGORIES))
    sql("postgresql", database, f"insert into categories (name, slug, description) values {categories}")
    # A few hundred characters of content each, a tag or two, and a like from about a third of the users.
    sql(
        "postgresql",
        database,
        "insert into posts (title, slug, content, excerpt, tags, author_id, category_id, status, published_at) "
        f"select 'Post ' || n, 'post-' || n, repeat('Some words of post ' || n || '. ', 20), 'Post ' || n || ' in short', "
        f"array['tag-' || (n % 7), 'topic-' || (n % 3)], "
        f"(select id from users order by id offset (n % {USERS}) limit 1), "
        f"(select id from categories order by id offset (n % {CATEGORIES}) limit 1), "
        f"'published', now() - n * interval '1 minute' from generate_series(1, {POSTS}) n",
    )
    sql(
        "postgresql",
        database,
        "insert into post_likes (user_id, post_id) select u.id, p.id from users u, posts p where (u.id + p.id) % 3 = 0",
    )
    tokens = [
        call(base, "POST", "/api/v1/auth/sign-in", {"email": e, "password": PASSWORD})["accessToken"] for e in emails
    ]
    return {"baseUrl": base, "tokens": tokens, "origin": ORIGIN}


def measure(
    root: Path, pairing: tuple[str, str, str, str], seconds: int, rounds: int, paths: list[str]
) -> tuple[dict, dict, dict]:
    env = {**runtime_path(), **prisma_stand_in(root)}
    with contextlib.ExitStack() as servers:
        project, setup_file, api, url, _ = servers.enter_context(
            served_project(root, pairing, env, TEMPLATE, BUNDLES, seed)
        )
        targets = {"API": (setup_file, api)}
        traced_file, traced, received = served_traced(servers, project, root, env, url, setup_file)
        targets["API traced"] = (traced_file, traced)
        setup = json.loads(setup_file.read_text())
        for part in PARTS_OFF:
            without, without_base = start_api(project, root, env, url, WITHOUT[part], f"without-{part}")
            servers.callback(stop, without)
            without_file = root / f"{project.name}-without-{part.replace(' ', '-')}.json"
            without_file.write_text(json.dumps({**setup, "baseUrl": without_base}))
            targets[without_name(part)] = (without_file, without)
        if BEFORE:
            _, before_file, before, _, _ = servers.enter_context(
                served_project(root, pairing, env, BEFORE, BUNDLES, seed)
            )
            targets["before"] = (before_file, before)
        issuer = json.loads((project / "package.json").read_text())["name"]  # the tokens' issuer
        # The floor, and the stack's own: its runtime's, its framework's, Prisma's (own_floors).
        floors = {"floor": ("node", []), **own_floors(project, pairing, env)}
        for name, (runtime, extra) in floors.items():
            floor, floor_port = start_floor(
                project, runtime, [url, JWT_SECRET, issuer, *extra], env, name, "read_floor.mjs"
            )
            servers.callback(stop, floor)
            floor_file = root / f"{project.name}-{name.replace(' ', '-')}.json"
            floor_file.write_text(json.dumps({**setup, "baseUrl": f"http://127.0.0.1:{floor_port}"}))
            targets[name] = (floor_file, floor)
        runs: dict[tuple[str, str], list[dict]] = {(p, t): [] for p in paths for t in targets}
        load = ["node", str(HERE / "read_load.mjs")]
        # Unmeasured: until the JIT has compiled the hot paths, a server's first
        # seconds ran at about two thirds of its speed here.
        for path in paths:
            for file, _server in targets.values():
                run([*load, str(file), path, str(WARM_UP_SECONDS), str(CONCURRENCY)], project)
        order = list(targets)
        for n in range(rounds):
            for path in paths:
                # Each round starts with the next server: none is always measured first.
                for target in order[n % len(order) :] + order[: n % len(order)]:
                    file, server = targets[target]
                    cmd = [*load, str(file), path, str(seconds), str(CONCURRENCY)]
                    runs[path, target].append(timed(cmd, project, server.pid))
        memory = {target: peak_rss_mb(server.pid) for target, (_, server) in targets.items()}
        exported = received()
    return runs, memory, exported


def rate(runs: list[dict]) -> float:
    return statistics.median(r["completed"] / r["seconds"] for r in runs)


def sent(load: dict) -> int:
    """The requests a load run sent: answered 200 or not."""
    return load["completed"] + load["failed"]


def cpu(runs: list[dict]) -> str:
    """Milliseconds of CPU per request sent, by part, over all rounds."""
    sent_in_all = sum(map(sent, runs))
    return " ".join(f"{part} {1000 * sum(r['cpu'][part] for r in runs) / sent_in_all:.2f}" for part in runs[0]["cpu"])


def main() -> None:
    seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    # A word that starts with a slash keeps only that path (a profile of one path, say).
    paths = [word for word in sys.argv[3:] if word.startswith("/")] or PATHS
    words = [word for word in sys.argv[3:] if not word.startswith("/")]
    root = Path(tempfile.mkdtemp(prefix="stackwright-reads-"))
    failures = False
    try:
        print(f"requests/s, median of {rounds} x {seconds} s, {CONCURRENCY} in flight")
        for pairing in (p for p in PAIRINGS if chosen(p, words)):
            runs, memory, exported = measure(root, pairing, seconds, rounds, paths)
            targets = list(dict.fromkeys(target for _, target in runs))  # in the order they were served
            with_goal = pairing[1:3] in GOAL_STACKS and pairing[3] == "drizzle"
            for path in paths:
                done = {target: runs[path, target] for target in targets}
                failed = {t: sum(r["failed"] for r in d) for t, d in done.items() if any(r["failed"] for r in d)}
                verdict = (
                    "no failures"
                    if not failed
                    else "FAILURES (not a valid measurement): "
                    + ", ".join(
                        f"{t} {n} (first status {next(r['firstFailure'] for r in done[t] if r['failed'])})"
                        for t, n in failed.items()
                    )
                )
                failures = failures or bool(failed)
                rates = "  ".join(f"{t} {rate(d):7.1f}" for t, d in done.items())
                ratios = "  ".join(
                    f"{t}/floor {rate(d) / rate(done['floor']):.2f}" for t, d in done.items() if t != "floor"
                )
                goal = f" (goal {GOALS[path]:.2f})" if with_goal else ""
                print(f"{label(pairing):32} GET {path:16} {rates}  {ratios}{goal}; {verdict}", flush=True)
                for line in own_floor_ratio_lines(done, sent):
                    print(line, flush=True)
                if "before" in done:
                    gain = rate(done["API"]) / rate(done["before"]) - 1
                    print(f"    the change's gain on this path: {100 * gain:+.1f}% (API / before - 1)", flush=True)
                for part in PARTS_OFF:
                    other = without_name(part)
                    cost = rate(done["API"]) / rate(done[other]) - 1
                    microseconds = 1000 * (server_ms(done["API"], sent) - server_ms(done[other], sent))
                    print(
                        f"    {'a second instance' if part == 'nothing' else part}: {100 * cost:+.1f}%"
                        f" (API / {other} - 1), {microseconds:+.0f} µs of server CPU a request",
                        flush=True,
                    )
                cost = rate(done["API traced"]) / rate(done["API"]) - 1
                print(f"    tracing's cost on this path: {100 * cost:+.1f}% (API traced / API - 1)", flush=True)
                sizes = ", ".join(f"{t} {statistics.mean(r['bytes'] for r in d):.0f}" for t, d in done.items())
                print(f"    bytes per answer: {sizes}", flush=True)
                for name, d in done.items():
                    print(f"    CPU ms per request, {name}: {cpu(d)}", flush=True)
            print("    peak resident memory, MB: " + ", ".join(f"{t} {mb:.0f}" for t, mb in memory.items()), flush=True)
            print(
                f"    the collector received {exported['exports']} exports, {exported['bytes'] / 1e6:.1f} MB",
                flush=True,
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if failures:
        raise SystemExit("some requests failed: the rates above are not measurements")


if __name__ == "__main__":
    main()
