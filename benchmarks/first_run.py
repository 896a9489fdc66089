"""From `dev` to the first 200 on GET /health, with no database server: the embedded PostgreSQL.

For each runtime (Node.js with Express, Bun and Deno with Hono), a PostgreSQL project with every
bundle, installed once, then `npm run dev` with no DATABASE_URL, in turns:

- first run: no .env, no .data/postgres, no migrations (dev makes .env, creates the database,
  writes the migrations from the schema, applies them, starts the server);
- again: the same folder, dev stopped with Ctrl-C and started again (the database reopened).

The contract (../shared/design/operations.md, "First run") asks within 20 s for the first run
and within 5 s with the folder made, on 2 cores. The script prints the medians of each, their
ratio to those budgets, and the peak resident memory of the dev process tree.

    .venv/bin/python benchmarks/first_run.py [ROUNDS]
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

from conftest import free_port, npm_tool
from transfer_speed import generate

from stackwright.packages import VERSIONS

STACKS = [("node", "express"), ("bun", "hono"), ("deno", "hono")]
BUDGETS = {"first run": 20.0, "again": 5.0}
BUNDLES = ("auth", "banking-app", "blog-app")


def tools_env() -> dict[str, str]:
    """PATH with the pinned bun and deno (as the tests fetch them); a developer's environment."""
    versions = VERSIONS["runtimes"]
    bins = [str(npm_tool(name, versions[name]) / ".bin") for name in ("bun", "deno")]
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "CI", "NODE_ENV")}
    return {**env, "PATH": os.pathsep.join([*bins, env["PATH"]]), "DENO_TLS_CA_STORE": "system"}


def tree_rss_kb(root: int) -> int:
    """Resident memory of a process and all its descendants, in KB (from /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry.name))
            rss[int(entry.name)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE") // 1024
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack += children.get(pid, [])
    return total


def dev_to_health(project: Path, env: dict[str, str]) -> tuple[float, int]:
    """Seconds from `npm run dev` to a 200 on /health, and the tree's peak RSS (KB) meanwhile;
    then Ctrl-C (SIGINT to the process group) and wait for the end."""
    port = free_port()
    started = time.monotonic()
    process = subprocess.Popen(
        ["npm", "run", "dev"],
        cwd=project,
        env={**env, "PORT": str(port), "HOST": "127.0.0.1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    peak = 0
    try:
        while True:
            peak = max(peak, tree_rss_kb(process.pid))
            if process.poll() is not None:
                raise SystemExit(f"dev exited {process.returncode} in {project}")
            url = f"http://127.0.0.1:{port}/health"
            with contextlib.suppress(OSError, urllib.error.URLError), urllib.request.urlopen(url, timeout=1) as answer:
                if answer.status == 200:
                    return time.monotonic() - started, peak
            if time.monotonic() - started > 120:
                raise SystemExit(f"dev did not answer within 120 s in {project}")
            time.sleep(0.05)
    finally:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=30)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)


def fresh(project: Path) -> None:
    """As after `git clone` of a project with no migrations yet: no .env, no database."""
    (project / ".env").unlink(missing_ok=True)
    shutil.rmtree(project / ".data", ignore_errors=True)
    shutil.rmtree(project / "drizzle", ignore_errors=True)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    env = tools_env()
    results: dict[tuple[str, str], list[float]] = {}
    peaks: dict[tuple[str, str], int] = {}
    with tempfile.TemporaryDirectory(prefix="first-run-") as scratch:
        projects = {
            runtime: generate(Path(scratch), "postgresql", runtime, framework, "drizzle", env, BUNDLES)
            for runtime, framework in STACKS
        }
        for _ in range(rounds):
            for runtime, project in projects.items():
                fresh(project)
                for case in BUDGETS:
                    seconds, peak = dev_to_health(project, env)
                    results.setdefault((runtime, case), []).append(seconds)
                    peaks[runtime, case] = max(peaks.get((runtime, case), 0), peak)
    print(f"dev -> first 200 on /health, embedded PostgreSQL, median of {rounds} (budget: ratio to it)")
    print(f"{'runtime':<8} {'case':<10} {'seconds':>8} {'/ budget':>9} {'peak RSS MB':>12}")
    for (runtime, case), values in results.items():
        median = statistics.median(values)
        print(
            f"{runtime:<8} {case:<10} {median:>8.2f} {median / BUDGETS[case]:>9.2f} {peaks[runtime, case] / 1024:>12.0f}"
        )


if __name__ == "__main__":
    main()
