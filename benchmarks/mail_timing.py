"""What a slow or a down SMTP server does to the auth API's answers, before and after a change.

A project (Node.js, Express, PostgreSQL, Drizzle, the auth API) is generated from this
checkout (or STACKWRIGHT_TEMPLATE's) and, with STACKWRIGHT_BEFORE=/path/to/checkout, a second
one from that checkout; each is migrated on a fresh database and served in production. With
SMTP_URL at a local SMTP server that takes DELAY_SECONDS to accept each mail, the script signs
up REQUESTS users, then times POST /auth/otp (type signin) for each of them and for as many
unknown addresses, in turn, and prints the medians and their difference: the time must not
tell which addresses have accounts. Then, with SMTP_URL at a closed port, it prints the
statuses of a sign-up and of password/forgot for a registered and an unknown address: an
outage must not answer 5xx, nor tell the two apart.

    .venv/bin/python benchmarks/mail_timing.py
"""

from __future__ import annotations

import json
import os
import shutil
import socketserver
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from conftest import FreshDatabase, free_port, server_url
from transfer_speed import TEMPLATE, generate, run, start_api, stop

REQUESTS = 10
DELAY_SECONDS = 0.4
PASSWORD = "benchmark password"


class SlowSmtp(socketserver.StreamRequestHandler):
    """Just enough SMTP to take a mail, DELAY_SECONDS after its data has arrived."""

    def handle(self) -> None:
        self.wfile.write(b"220 slow.test ESMTP\r\n")
        while line := self.rfile.readline():
            command = line.strip().upper()
            if command.startswith(b"EHLO"):
                self.wfile.write(b"250-slow.test\r\n250 8BITMIME\r\n")
            elif command == b"DATA":
                self.wfile.write(b"354 go on\r\n")
                while self.rfile.readline() not in (b".\r\n", b""):
                    pass
                time.sleep(DELAY_SECONDS)
                self.wfile.write(b"250 queued\r\n")
            elif command == b"QUIT":
                self.wfile.write(b"221 bye\r\n")
                return
            else:
                self.wfile.write(b"250 ok\r\n")


def post(base: str, path: str, body: dict) -> tuple[int, float]:
    """The status of a POST and the seconds it took."""
    request = urllib.request.Request(
        f"{base}{path}", data=json.dumps(body).encode(), method="POST", headers={"content-type": "application/json"}
    )
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, time.perf_counter() - started


def measure(root: Path, template: Path, smtp_port: int) -> dict:
    env = {"PATH": os.environ["PATH"]}
    project = generate(root, "postgresql", "node", "express", "drizzle", env, ("auth",), template)
    run(["npm", "run", "build"], project, env)
    run(["npm", "run", "db:generate"], project, env)
    result: dict = {}
    with FreshDatabase("postgresql") as database:
        url = server_url("postgresql", database)
        run(["npm", "run", "db:migrate"], project, {**env, "DATABASE_URL": url})
        server, base = start_api(project, root, env, url, {"SMTP_URL": f"smtp://127.0.0.1:{smtp_port}"})
        try:
            emails = [f"known-{n}@example.test" for n in range(REQUESTS)]
            for email in emails:
                assert (
                    post(base, "/api/v1/auth/sign-up", {"name": "Ada", "email": email, "password": PASSWORD})[0] == 201
                )
            known: list[float] = []
            unknown: list[float] = []
            for n, email in enumerate(emails):
                for times, address in ((known, email), (unknown, f"nobody-{n}@example.test")):
                    status, seconds = post(base, "/api/v1/auth/otp", {"email": address, "type": "signin"})
                    assert status == 202, status
                    times.append(seconds)
            result["otp"] = (statistics.median(known), statistics.median(unknown))
        finally:
            stop(server)
        server, base = start_api(project, root, env, url, {"SMTP_URL": f"smtp://127.0.0.1:{free_port()}"})
        try:
            sign_up = post(
                base, "/api/v1/auth/sign-up", {"name": "Bo", "email": "bo@example.test", "password": PASSWORD}
            )
            forgot = [
                post(base, "/api/v1/auth/password/forgot", {"email": email})
                for email in ("known-0@example.test", "nobody@example.test")
            ]
            result["down"] = {"sign-up": sign_up, "forgot registered": forgot[0], "forgot unknown": forgot[1]}
        finally:
            stop(server)
    return result


def main() -> None:
    smtp_port = free_port()
    smtp = socketserver.ThreadingTCPServer(("127.0.0.1", smtp_port), SlowSmtp)
    smtp.daemon_threads = True
    threading.Thread(target=smtp.serve_forever, daemon=True).start()
    root = Path(tempfile.mkdtemp(prefix="stackwright-mail-"))
    checkouts = {"after": TEMPLATE}
    if os.environ.get("STACKWRIGHT_BEFORE"):
        checkouts = {"before": Path(os.environ["STACKWRIGHT_BEFORE"]).resolve(), **checkouts}
    try:
        for name, template in checkouts.items():
            result = measure(root / name, template, smtp_port)
            known, unknown = result["otp"]
            print(
                f"{name}: POST /auth/otp with SMTP taking {DELAY_SECONDS * 1000:.0f} ms per mail, median of "
                f"{REQUESTS}: registered {known * 1000:.1f} ms, unknown {unknown * 1000:.1f} ms, "
                f"difference {abs(known - unknown) * 1000:.1f} ms",
                flush=True,
            )
            down = ", ".join(
                f"{what} {status} ({seconds * 1000:.0f} ms)" for what, (status, seconds) in result["down"].items()
            )
            print(f"{name}: SMTP down: {down}", flush=True)
    finally:
        smtp.shutdown()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
