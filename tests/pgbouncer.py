"""A PgBouncer of the test's own in transaction mode, in front of the machine's PostgreSQL on
5432: the pooler that teams put before PostgreSQL when instances multiply. Debian's pgbouncer
(1.18) keeps no prepared statement across transactions (shared/notes/faults-and-scale.md).

It refuses to run as root: it runs as the `postgres` user (CI runs as root, as it must here).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from conftest import free_port
from own_database import _wait_for_port

if TYPE_CHECKING:
    from typing_extensions import Self

PGBOUNCER = "/usr/sbin/pgbouncer"


class TransactionPooler:
    """pgbouncer with `pool_mode = transaction` on a free port; `url(database)` reaches 5432 through it."""

    def __init__(self) -> None:
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="sw-pgbouncer-"))
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Self:
        if not Path(PGBOUNCER).exists():
            raise AssertionError(f"{PGBOUNCER} is missing: apt-get install pgbouncer (.ci/run installs it)")
        config = self.folder / "pgbouncer.ini"
        config.write_text(
            "[databases]\n* = host=127.0.0.1 port=5432\n"
            "[pgbouncer]\n"
            f"listen_addr = 127.0.0.1\nlisten_port = {self.port}\nunix_socket_dir =\n"
            f"auth_type = trust\nauth_file = {self.folder / 'users.txt'}\n"
            "pool_mode = transaction\nmax_client_conn = 500\ndefault_pool_size = 20\nadmin_users = postgres\n"
            # Server connections it no longer needs go back soon: the machine's PostgreSQL (100
            # connections) serves the other tests running beside this one.
            "server_idle_timeout = 5\n"
            f"logfile = {self.folder / 'pgbouncer.log'}\n"
            # node-postgres sends extra_float_digits at connection start; PgBouncer must let it by.
            "ignore_startup_parameters = extra_float_digits,options\n"
        )
        (self.folder / "users.txt").write_text('"postgres" ""\n')
        (self.folder / "pgbouncer.log").touch()
        self.folder.chmod(0o755)
        for file in self.folder.iterdir():
            file.chmod(0o644)
        # It runs as postgres (below) and appends to its log.
        shutil.chown(self.folder / "pgbouncer.log", "postgres")
        self.process = subprocess.Popen(
            [PGBOUNCER, "-u", "postgres", str(config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_for_port(self.port)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)

    def log(self, lines: int = 30) -> str:
        """The last lines of PgBouncer's log: what it saw of a failing check."""
        logged = self.folder / "pgbouncer.log"
        return "\n".join(logged.read_text().splitlines()[-lines:]) if logged.exists() else "(no log)"

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def mode(self) -> str:
        """The pool mode PgBouncer reports on its admin console (SHOW CONFIG)."""
        done = subprocess.run(
            [
                "psql",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-d",
                "pgbouncer",
                "-Atc",
                "show config",
            ],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
            env={**os.environ, "PGCONNECT_TIMEOUT": "5"},
        )
        rows = dict(line.split("|")[:2] for line in done.stdout.splitlines() if line.count("|") >= 1)
        return rows.get("pool_mode", done.stdout + done.stderr)
