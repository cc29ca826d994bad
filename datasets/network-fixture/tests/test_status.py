import http.server
import threading

from netcheck.status import http_status


class _Ok(http.server.BaseHTTPRequestHandler):
    def do_HEAD(self):
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_status_of_a_local_server():
    server = http.server.HTTPServer(("127.0.0.1", 0), _Ok)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        assert http_status("127.0.0.1", server.server_address[1]) == 204
    finally:
        server.shutdown()


def test_status_of_pypi():
    # Needs the network: fails under the runner, which gives tests none.
    assert http_status("pypi.org", 443, "/simple/") == 200
