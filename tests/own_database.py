"""A database server of a test's own, which the test stops, restarts and cuts under load: the
suite's proof of the faults contract (shared/design/operations.md, "Faults"). Never the
machine's shared servers on 5432 and 3306, which the other tests use.

OwnPostgres is a cluster of Debian's postgresql-common (pg_createcluster) on a free port;
OwnMariaDB a mariadbd on a data folder of its own. Both need root, as CI runs.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import Message
from pathlib import Path
from typing import TYPE_CHECKING

from conftest import MARIADB, free_port

if TYPE_CHECKING:
    from typing_extensions import Self


def _run(command: list[str], **kwargs) -> str:
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False, **kwargs)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def _wait_for_port(port: int, seconds: float = 30) -> None:
    import socket

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")


class OwnPostgres:
    """A PostgreSQL cluster of the test's own, on a free port (trust authentication)."""

    engine = "postgresql"

    def __init__(self) -> None:
        self.version = max(os.listdir("/etc/postgresql"))
        self.name = f"sw_faults_{uuid.uuid4().hex[:8]}"
        self.port = free_port()

    def __enter__(self) -> Self:
        _run(["pg_createcluster", self.version, self.name, "--port", str(self.port), "--", "--auth=trust"])
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        subprocess.run(["pg_dropcluster", self.version, self.name, "--stop"], capture_output=True, check=False)

    def _ctl(self, *args: str) -> None:
        _run(["pg_ctlcluster", "--skip-systemctl-redirect", self.version, self.name, *args])

    def start(self) -> None:
        self._ctl("start")
        _wait_for_port(self.port)

    def stop(self) -> None:
        """An immediate shutdown (as a crash or a failover): every server process quits at once,
        and the next start recovers from the write-ahead log."""
        self._ctl("stop", "-m", "immediate")

    def sql(self, database: str, statement: str) -> list[list[str]]:
        out = _run(
            [
                "psql",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-d",
                database,
                "-v",
                "ON_ERROR_STOP=1",
                "-AtqF",
                "\t",
                "-c",
                statement,
            ]
        )
        return [line.split("\t") for line in out.splitlines() if line]

    def create_database(self) -> str:
        name = f"sw_faults_{uuid.uuid4().hex[:8]}"
        self.sql("postgres", f"create database {name}")
        return name

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def kill_connections(self, database: str) -> int:
        """pg_terminate_backend on every connection to `database`: how many it ended."""
        rows = self.sql(
            "postgres",
            "select count(pg_terminate_backend(pid)) from pg_stat_activity "
            f"where datname = '{database}' and pid <> pg_backend_pid()",
        )
        return int(rows[0][0])


class OwnMariaDB:
    """A mariadbd of the test's own, on a free port and a data folder of its own (no grants)."""

    engine = "mysql"

    def __init__(self) -> None:
        self.port = free_port()
        # mariadbd runs as mysql: a folder it can reach (pytest's are root's own).
        self.folder = Path(tempfile.mkdtemp(prefix="sw-faults-mariadb-", dir="/tmp"))
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Self:
        shutil.chown(self.folder, "mysql", "mysql")
        _run(
            [
                "mariadb-install-db",
                "--user=mysql",
                f"--datadir={self.folder / 'data'}",
                "--skip-test-db",
                "--auth-root-authentication-method=normal",
            ]
        )
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def start(self) -> None:
        data = self.folder / "data"
        self.process = subprocess.Popen(
            [
                "/usr/sbin/mariadbd",
                "--no-defaults",
                "--user=mysql",
                f"--datadir={data}",
                f"--port={self.port}",
                f"--socket={self.folder / 'mysqld.sock'}",
                f"--pid-file={self.folder / 'mysqld.pid'}",
                "--bind-address=127.0.0.1",
                "--skip-grant-tables",
                "--skip-log-bin",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_for_port(self.port)

    def stop(self) -> None:
        """A clean shutdown (SIGTERM): the server ends every connection."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=60)

    def sql(self, database: str, statement: str) -> list[list[str]]:
        out = _run([MARIADB, "-h", "127.0.0.1", "-P", str(self.port), "-uroot", "-N", "-B", database, "-e", statement])
        return [line.split("\t") for line in out.splitlines() if line]

    def create_database(self) -> str:
        name = f"sw_faults_{uuid.uuid4().hex[:8]}"
        self.sql("mysql", f"create database {name}")
        return name

    def url(self, database: str) -> str:
        return f"mysql://root@127.0.0.1:{self.port}/{database}"

    def kill_connections(self, database: str) -> int:
        """KILL CONNECTION for every connection to `database`: how many it ended."""
        ids = self.sql("mysql", f"select id from information_schema.processlist where db = '{database}'")
        for (connection,) in ids:
            self.sql("mysql", f"kill connection {connection}")
        return len(ids)


@dataclass
class Outage:
    """What clients saw of one fault: each answer's status and time, and when the database came back."""

    answers: list[tuple[float, int, float]] = field(default_factory=list)  # (sent at, status, seconds)
    problems: list[str] = field(default_factory=list)
    acknowledged: set[str] = field(default_factory=set)
    back_at: float = 0.0

    def summary(self) -> str:
        unavailable = [a for a in self.answers if a[1] == 503]
        longest = max((a[2] for a in self.answers), default=0.0)
        after = [a[0] + a[2] - self.back_at for a in self.answers if a[1] == 201 and a[0] >= self.back_at]
        first = min(after, default=float("nan"))
        return (
            f"{len(self.answers)} answers, {len(unavailable)} 503s, longest {longest:.2f} s, "
            f"first success {first:.2f} s after the database returned"
        )


def _transfer(base: str, token: str, key: str, body: dict) -> tuple[int, Message, dict]:
    request = urllib.request.Request(
        f"{base}/api/v1/transfers",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"content-type": "application/json", "authorization": f"Bearer {token}", "idempotency-key": key},
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, response.headers, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers, json.loads(refused.read() or b"null")


def transfers_through(
    fault: Callable[[], object], base: str, token: str, accounts: list[str], timeout_s: float, clients: int = 8
) -> Outage:
    """`clients` clients send transfers of 0.01 between `accounts` while `fault()` runs (it returns
    once the database is back); each client retries a transfer with its Idempotency-Key until it
    is acknowledged (201), after a 503, a reset or no answer, as the contract tells clients to."""
    outage = Outage()
    lock = threading.Lock()
    stop = threading.Event()

    def client(number: int) -> None:
        sent = 0
        while not stop.is_set():
            key = f"fault-{uuid.uuid4().hex}"
            source, target = accounts[(number + sent) % len(accounts)], accounts[(number + sent + 1) % len(accounts)]
            body = {"fromAccountId": source, "toAccountId": target, "amount": "0.01"}
            sent += 1
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                started = time.monotonic()
                try:
                    status, headers, answer = _transfer(base, token, key, body)
                except (OSError, urllib.error.URLError):
                    status, headers, answer = 0, Message(), {}  # a reset or no answer: ask again
                took = time.monotonic() - started
                with lock:
                    outage.answers.append((started, status, took))
                    if status == 201:
                        outage.acknowledged.add(key)
                    elif status == 503:
                        error = (answer or {}).get("error", {})
                        if headers.get("Retry-After") is None or error.get("code") != "DATABASE_UNAVAILABLE":
                            outage.problems.append(f"a 503 without Retry-After or its code: {dict(headers)} {answer}")
                        if took > timeout_s + 2:
                            outage.problems.append(f"a 503 after {took:.1f} s (DATABASE_TIMEOUT_MS {timeout_s} s)")
                    elif status != 0:
                        outage.problems.append(f"a transfer answered {status}: {answer}")
                if status == 201 or status not in (0, 503):
                    break
                time.sleep(0.2)
            else:
                with lock:
                    outage.problems.append(f"transfer {key} never acknowledged within 60 s")

    workers = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(clients)]
    for worker in workers:
        worker.start()
    time.sleep(1.5)  # under load first
    fault()
    outage.back_at = time.monotonic()
    time.sleep(6)  # the contract: served again within 5 s
    stop.set()
    for worker in workers:
        worker.join(timeout=90)
    return outage
