"""A scripted HTTP server, for what a real llama-server cannot be made to do (hang, 500,
garbage, 503 then ready, a connection dropped without a reply)."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Fake:
    """A local HTTP server whose replies the test scripts: (status, body bytes, delay seconds);
    status 0 closes the connection without a reply."""

    def __init__(self, *replies: tuple[int, bytes, float]) -> None:
        self.replies = list(replies)
        self.paths: list[str] = []
        self.bodies: list[bytes] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _reply(self) -> None:
                fake.paths.append(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                fake.bodies.append(self.rfile.read(length))
                status, body, delay = fake.replies.pop(0) if len(fake.replies) > 1 else fake.replies[0]
                time.sleep(delay)
                if status == 0:
                    self.close_connection = True
                    return
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _reply

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
