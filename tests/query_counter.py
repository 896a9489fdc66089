"""A TCP proxy in front of the local PostgreSQL or MariaDB that counts the statements a client
runs, whatever driver or ORM sends them: it reads the client's side of the wire protocol.

PostgreSQL: each simple query ('Q') and each extended-protocol Execute ('E') is one statement.
MySQL/MariaDB: each command packet (sequence id 0) that is COM_QUERY (0x03) or
COM_STMT_EXECUTE (0x17) is one; COM_STMT_PREPARE only readies a statement and is not counted.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from collections.abc import Generator, Iterator

# Consumes the client's bytes as they arrive (send() them), counting statements.
Reader = Generator[None, bytes, None]

SERVER_PORTS = {"postgresql": 5432, "mysql": 3306}
# PostgreSQL requests that come before the startup message, without a type byte.
_PG_PRE_STARTUP = {80877103, 80877104}  # SSLRequest, GSSENCRequest


class QueryCounter:
    """Listens on a free local port and forwards every connection to the engine's server."""

    def __init__(self, engine: str):
        self.engine = engine
        self.statements = 0
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self._closed = True
        self._listener.close()

    def url(self, database: str) -> str:
        if self.engine == "postgresql":
            return f"postgres://postgres@127.0.0.1:{self.port}/{database}"
        return f"mysql://root@127.0.0.1:{self.port}/{database}"

    def reset(self) -> None:
        with self._lock:
            self.statements = 0

    def wait_quiet(self, window: float = 0.5, timeout: float = 30) -> None:
        """Return once no statement has come for `window` seconds: work the server started on its
        own (rate-limiter-flexible creating its table) must not be counted as a request's."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            before = self.statements
            time.sleep(window)
            if self.statements == before:
                return
        raise AssertionError(f"the database still gets statements after {timeout} s with no request")

    def _count(self) -> None:
        with self._lock:
            self.statements += 1

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", SERVER_PORTS[self.engine]))
            threading.Thread(target=self._pipe, args=(server, client, None), daemon=True).start()
            reader = self._pg_reader() if self.engine == "postgresql" else self._mysql_reader()
            threading.Thread(target=self._pipe, args=(client, server, reader), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, target: socket.socket, reader: Reader | None) -> None:
        if reader:
            next(reader)
        try:
            while data := source.recv(65536):
                # Counted before the server sees it: a statement counted after forwarding could
                # land after its answer reached the test, and be taken for the next request's.
                if reader:
                    reader.send(data)
                target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def _pg_reader(self) -> Reader:
        """Counts Q and E messages."""
        buffer = b""
        started = False
        while True:
            buffer += yield
            while True:
                if not started:
                    if len(buffer) < 8:
                        break
                    length, code = struct.unpack("!II", buffer[:8])
                    if len(buffer) < length:
                        break
                    buffer = buffer[length:]
                    started = code not in _PG_PRE_STARTUP
                    continue
                if len(buffer) < 5:
                    break
                kind, length = buffer[:1], struct.unpack("!I", buffer[1:5])[0]
                if len(buffer) < 1 + length:
                    break
                if kind in (b"Q", b"E"):
                    self._count()
                buffer = buffer[1 + length :]

    def _mysql_reader(self) -> Reader:
        """Counts COM_QUERY and COM_STMT_EXECUTE commands."""
        buffer = b""
        while True:
            buffer += yield
            while len(buffer) >= 4:
                length = int.from_bytes(buffer[:3], "little")
                if len(buffer) < 4 + length:
                    break
                sequence, command = buffer[3], buffer[4:5]
                if sequence == 0 and command in (b"\x03", b"\x17"):
                    self._count()
                buffer = buffer[4 + length :]


@contextlib.contextmanager
def counting_queries(engine: str) -> Iterator[QueryCounter]:
    """A QueryCounter for the engine's local server, closed on exit."""
    counter = QueryCounter(engine)
    try:
        yield counter
    finally:
        counter.close()
