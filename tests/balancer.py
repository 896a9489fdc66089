"""A load balancer that follows readiness, as a Kubernetes Service does: it sends each request to
one of the instances whose GET /health/ready answered 200 at its last probe (every 250 ms).
The suite restarts instances behind it under load (a rolling deploy) and counts what clients lose.
"""

from __future__ import annotations

import http.client
import http.server
import itertools
import threading
import time
import urllib.error
import urllib.request
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing_extensions import Self

PROBE_SECONDS = 0.25


class Balancer:
    def __init__(self, ports: list[int]) -> None:
        self.ports = list(ports)
        self.ready: list[int] = []
        self.turn = itertools.count()
        self.stopping = threading.Event()
        balancer = self

        class Forward(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def forward(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else None
                ready = list(balancer.ready)
                if not ready:
                    self.send_error(502, "no ready instance")
                    return
                port = ready[next(balancer.turn) % len(ready)]
                upstream = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
                try:
                    headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                    upstream.request(self.command, self.path, body=body, headers=headers)
                    answer = upstream.getresponse()
                    content = answer.read()
                except OSError as error:
                    self.send_error(502, f"instance {port}: {error}")
                    return
                finally:
                    upstream.close()
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() not in ("connection", "transfer-encoding", "content-length", "keep-alive"):
                        self.send_header(name, value)
                self.send_header("content-length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            do_GET = do_POST = forward

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Forward)
        self.port = self.server.server_address[1]

    def _probe(self) -> None:
        while not self.stopping.is_set():
            ready = []
            for port in list(self.ports):
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/ready", timeout=1) as answer:
                        if answer.status == 200:
                            ready.append(port)
                except (OSError, urllib.error.URLError):
                    pass
            self.ready = ready
            time.sleep(PROBE_SECONDS)

    def replace(self, old: int, new: int) -> None:
        """Sends to `new` (once ready) instead of `old`."""
        self.ports = [new if port == old else port for port in self.ports]

    def __enter__(self) -> Self:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        threading.Thread(target=self._probe, daemon=True).start()
        deadline = time.monotonic() + 10
        while len(self.ready) < len(self.ports) and time.monotonic() < deadline:
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()


class Load:
    """`clients` clients asking `path` through the balancer, each answer checked: what failed."""

    def __init__(self, port: int, path: str, token: str, clients: int = 6) -> None:
        self.failures: list[str] = []
        self.answered = 0
        self.stop_event = threading.Event()
        self.lock = threading.Lock()

        def client() -> None:
            while not self.stop_event.is_set():
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}{path}", headers={"authorization": f"Bearer {token}"}
                )
                try:
                    with urllib.request.urlopen(request, timeout=15) as answer:
                        answer.read()
                        with self.lock:
                            self.answered += 1
                except (OSError, urllib.error.URLError) as error:
                    with self.lock:
                        self.failures.append(str(error))

        self.threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
        for thread in self.threads:
            thread.start()

    def stop(self) -> list[str]:
        self.stop_event.set()
        for thread in self.threads:
            thread.join(timeout=20)
        return self.failures
