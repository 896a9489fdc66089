"""A local SMTP server that keeps every message it is sent: where a served project's mail goes
when a test needs what it mailed (a sign-up's code). Only what an SMTP client needs for plain
delivery (RFC 5321): greeting, EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT."""

from __future__ import annotations

import re
import socketserver
import threading
import time


class SmtpSink:
    """Listens on a free port of 127.0.0.1 from construction until close() (contextlib.closing)."""

    def __init__(self) -> None:
        self.messages: list[str] = []
        sink = self

        class Session(socketserver.StreamRequestHandler):
            def reply(self, line: str) -> None:
                self.wfile.write(f"{line}\r\n".encode())

            def handle(self) -> None:
                self.reply("220 stackwright-sink")
                while line := self.rfile.readline():
                    verb = line[:4].decode("ascii", "replace").upper()
                    if verb == "DATA":
                        self.reply("354 End data with <CR><LF>.<CR><LF>")
                        lines = []
                        while (data := self.rfile.readline()) not in (b".\r\n", b".\n", b""):
                            lines.append(data.decode("utf-8", "replace"))
                        sink.messages.append("".join(lines))
                        self.reply("250 OK")
                    elif verb in ("EHLO", "HELO", "MAIL", "RCPT", "RSET", "NOOP"):
                        self.reply("250 OK")
                    elif verb == "QUIT":
                        self.reply("221 Bye")
                        return
                    else:
                        self.reply("502 Command not implemented")

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Session)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"smtp://127.0.0.1:{self.server.server_address[1]}"

    def code_for(self, email: str, seconds: float = 10) -> str:
        """The six-digit code of the newest message to `email` (waiting for it to arrive)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for message in reversed(self.messages):
                code = re.search(r"code is (\d{6})", message)  # the API's mail: "Your code is 123456."
                if email in message and code:
                    return code.group(1)
            time.sleep(0.1)
        raise AssertionError(f"no code was mailed to {email} within {seconds} s: {self.messages}")

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
