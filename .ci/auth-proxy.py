#!/usr/bin/env python3
"""Loopback reverse proxy that adds a bearer token: lets a client without
an auth option (the MCP conformance suite) reach the token-protected HTTP
transport. Usage: auth-proxy.py LISTEN_PORT TARGET_PORT TOKEN"""
import http.client, http.server, socketserver, sys

listen, target, token = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]

class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def _forward(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        conn = http.client.HTTPConnection("127.0.0.1", target, timeout=120)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "authorization", "content-length")}
        # Keep the client's Host and Origin: the server's DNS-rebinding and
        # cross-origin checks must see what the client sent.
        headers["Host"] = self.headers.get("Host", "127.0.0.1:%d" % target)
        headers["Authorization"] = "Bearer " + token
        if body or self.command == "POST":
            headers["Content-Length"] = str(len(body))
        conn.request(self.command, self.path, body=body or None, headers=headers)
        resp = conn.getresponse()
        self.send_response(resp.status)
        for k, v in resp.getheaders():
            if k.lower() in ("transfer-encoding", "connection", "content-length"):
                continue
            self.send_header(k, v)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        while True:
            chunk = resp.read1(65536) if hasattr(resp, "read1") else resp.read(65536)
            if not chunk:
                break
            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk)); self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n"); self.wfile.flush()
        conn.close()
    do_GET = do_POST = do_DELETE = _forward

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    def handle_error(self, request, client_address):
        pass  # clients hanging up on event streams are expected

Server(("127.0.0.1", listen), Proxy).serve_forever()
