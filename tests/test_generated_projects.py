"""Generated projects really install, type-check, lint, pass their own tests and serve."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest
from conftest import (
    FreshDatabase,
    free_port,
    get_json,
    install_node_modules,
    render,
    require_server,
    run,
    server_url,
    type_check,
    wait_listening,
)

ARCHITECTURES = ["mvc", "feature"]
DATABASES: dict[str, str | None] = {"none": None, "postgresql": "drizzle", "mysql": "drizzle", "mongodb": "mongoose"}
CLOSED_PORT_URLS = {
    "postgresql": "postgres://postgres@127.0.0.1:1/postgres",
    "mysql": "mysql://root@127.0.0.1:1/mysql",
}


def generate(tmp_path: Path, architecture: str, engine: str) -> Path:
    answers: dict[str, object] = {"architecture": architecture, "databaseEngine": engine}
    if DATABASES[engine]:
        # The connection layer alone; the data-model bundles have their own tests.
        answers.update(databaseAdapter=DATABASES[engine], bundles=[], models=[])
    project = render(tmp_path / f"{architecture}-{engine}", projectName=f"api-{architecture}-{engine}", **answers)
    install_node_modules(project)
    return project


@pytest.mark.parametrize("engine", list(DATABASES))
@pytest.mark.parametrize("architecture", ARCHITECTURES)
def test_project_typechecks_lints_and_passes_its_tests(tmp_path, architecture, engine):
    project = generate(tmp_path, architecture, engine)
    type_check(project)
    run(["npx", "--no-install", "biome", "check", "."], cwd=project)
    output = run(["npx", "--no-install", "vitest", "run"], cwd=project)
    assert "failed" not in output.lower()
    run(["npx", "--no-install", "tsc", "-p", "tsconfig.build.json"], cwd=project)
    assert (project / "dist" / "server.js").is_file()
    # The compiled server of a SQL project, on a fresh database of the real server and on a closed port.
    if engine in CLOSED_PORT_URLS:
        require_server(*(("PostgreSQL", 5432) if engine == "postgresql" else ("MariaDB", 3306)))
        with FreshDatabase(engine) as database:
            readiness_against_the_real_database(project, engine, server_url(engine, database))
    if (architecture, engine) == ("feature", "postgresql"):
        a_bad_environment_stops_the_server_with_a_clear_message(project)
    if architecture == "feature" and engine in ("mysql", "mongodb"):
        dev_without_a_database_ends_with_one_line(project)


class Server:
    """The project's compiled server, started for real with `node dist/server.js`."""

    def __init__(self, project: Path, database_url: str):
        self.port = free_port()
        env = {**os.environ, "PORT": str(self.port), "HOST": "127.0.0.1", "DATABASE_URL": database_url}
        self.process = subprocess.Popen(
            ["node", "dist/server.js"],
            cwd=project,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        wait_listening(self.process, self.port, "the server", seconds=20)

    def get(self, path: str) -> tuple[int, dict]:
        return get_json(f"http://127.0.0.1:{self.port}{path}")

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=15)


def readiness_against_the_real_database(project: Path, engine: str, database_url: str) -> None:
    server = Server(project, database_url)
    assert server.get("/health")[0] == 200
    assert server.get("/health/ready") == (200, {"status": "ready", "database": "up"})
    assert server.stop() == 0, "SIGTERM must shut the server down cleanly"

    server = Server(project, CLOSED_PORT_URLS[engine])
    status, body = server.get("/health/ready")
    assert (status, body["database"]) == (503, "down")
    assert server.get("/health")[0] == 200
    assert server.stop() == 0


def a_bad_environment_stops_the_server_with_a_clear_message(project: Path) -> None:
    env = {**os.environ, "DATABASE_URL": "not a url", "PORT": "eighty"}
    done = subprocess.run(
        ["node", "dist/server.js"], cwd=project, env=env, capture_output=True, text=True, timeout=30, check=False
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1].startswith("Invalid environment: ")
    assert "PORT" in done.stderr and "DATABASE_URL: must be a postgres:// URL" in done.stderr
    assert "at " not in done.stderr  # no stack trace


def dev_without_a_database_ends_with_one_line(project: Path) -> None:
    """`dev` with no DATABASE_URL (there is no embedded MySQL or MongoDB) ends at once, non-zero,
    with its one line: under `tsx watch` alone it waited for a file change instead."""
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    done = subprocess.run(
        ["npm", "run", "--silent", "dev"], cwd=project, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode != 0, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Invalid environment: DATABASE_URL: not set"), done.stderr
