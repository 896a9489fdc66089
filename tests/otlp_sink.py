"""A stand-in OpenTelemetry collector for the suite: an OTLP/HTTP endpoint on a free port of
127.0.0.1 that answers every export with success and keeps the spans it receives, in OTLP's
JSON encoding (the project exports so with OTEL_EXPORTER_OTLP_PROTOCOL=http/json)."""

from __future__ import annotations

import http.server
import json
import threading


class OtlpSink:
    """Listens from construction until close() (contextlib.closing); `url` is what
    OTEL_EXPORTER_OTLP_ENDPOINT takes (the exporters add /v1/traces and /v1/metrics)."""

    def __init__(self) -> None:
        self.bodies: list[tuple[str, dict]] = []
        sink = self

        class Export(http.server.BaseHTTPRequestHandler):
            def body(self) -> bytes:
                if self.headers.get("transfer-encoding", "").lower() != "chunked":
                    return self.rfile.read(int(self.headers.get("content-length") or 0))
                # The exporters stream their request: chunked, without a length.
                chunks = []
                while size := int(self.rfile.readline().split(b";")[0], 16):
                    chunks.append(self.rfile.read(size))
                    self.rfile.readline()
                self.rfile.readline()
                return b"".join(chunks)

            def do_POST(self) -> None:
                body = self.body()
                sink.bodies.append((self.path, json.loads(body or b"{}")))
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Export)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def spans(self) -> list[dict]:
        """Every span received: its ids, name, and attributes as a dict."""
        spans = []
        for path, body in list(self.bodies):
            if path != "/v1/traces":
                continue
            for resource in body.get("resourceSpans", []):
                for scope in resource.get("scopeSpans", []):
                    for span in scope.get("spans", []):
                        attributes = {
                            item["key"]: next(iter(item["value"].values()), None) for item in span.get("attributes", [])
                        }
                        spans.append({**span, "attributes": attributes})
        return spans

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
