#!/usr/bin/env python3
"""Real peers for the notification tests (issue 54), independent of the gateway's code:

- an SMTP server (aiosmtpd) that requires STARTTLS with a self-made certificate and AUTH, and
  parses every message it takes with Python's own `email` package;
- a server implementing ntfy's documented publish API (`POST /<topic>` with the message as
  body and the Title, Priority, Tags and Click headers, RFC 2047 words decoded, a Bearer token
  checked), as https://docs.ntfy.sh/publish/ describes it;
- a webhook receiver that checks `X-Skygate-Signature: sha256=<hex HMAC-SHA256 of the body>`
  with Python's `hmac` and answers 401 when it does not match.

Everything received is written as one JSON object a line to LOG. While the file DIR/ntfy-down
exists the ntfy server closes each connection without answering (a target that is down).

Usage: notify-peers.py DIR LOG   (prints one JSON line with the ports and the certificate, then serves
until killed). Needs `aiosmtpd` (pip install aiosmtpd) and `openssl`.
"""
import asyncio
import email
import email.header
import email.policy
import hashlib
import hmac
import json
import os
import socket
import ssl
import subprocess
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

DIR, LOG = sys.argv[1], sys.argv[2]
# A test that ends sends SIGTERM; the test runner may have left it blocked or ignored (both
# are inherited across exec): taken back here, so the server always ends with its test.
signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
USER, PASSWORD, TOKEN, SECRET = "pilot", "s3cret", "tk_skygate", "hook-secret"
lock = threading.Lock()


def record(obj):
    with lock, open(LOG, "a", encoding="utf-8") as f:
        f.write(json.dumps(obj) + "\n")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def decoded(value):
    return str(email.header.make_header(email.header.decode_header(value))) if value else value


class Mail:
    async def handle_DATA(self, server, session, envelope):
        m = email.message_from_bytes(envelope.content, policy=email.policy.default)
        record({"peer": "smtp", "tls": session.ssl is not None, "auth": session.authenticated,
                "mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos,
                "subject": str(m["Subject"]), "from": str(m["From"]), "to": str(m["To"]), "date": str(m["Date"]),
                "message_id": str(m["Message-ID"]), "content_type": m.get_content_type(),
                "charset": m.get_content_charset(), "body": m.get_content(), "defects": [str(d) for d in m.defects]})
        return "250 OK"


def authenticate(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == USER.encode() and auth_data.password == PASSWORD.encode()
    return AuthResult(success=ok)


class Ntfy(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        if os.path.exists(os.path.join(DIR, "ntfy-down")):
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if self.headers.get("Authorization") != "Bearer " + TOKEN:
            self.send_response(401)
            self.end_headers()
            self.wfile.write(b'{"code":40101,"http":401,"error":"unauthorized"}')
            return
        topic = self.path.strip("/")
        record({"peer": "ntfy", "topic": topic, "title": decoded(self.headers.get("Title")),
                "message": body.decode("utf-8"), "priority": self.headers.get("Priority"),
                "tags": self.headers.get("Tags"), "click": self.headers.get("Click"), "id": self.headers.get("X-Skygate-Id")})
        reply = json.dumps({"id": "x", "time": 0, "event": "message", "topic": topic, "message": body.decode("utf-8")}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)


class Hook(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        expected = "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
        ok = hmac.compare_digest(expected, self.headers.get("X-Skygate-Signature", ""))
        record({"peer": "webhook", "path": self.path, "signature_ok": ok, "idempotency_key": self.headers.get("Idempotency-Key"),
                "content_type": self.headers.get("Content-Type"), "body": json.loads(body) if ok else None})
        self.send_response(200 if ok else 401)
        self.send_header("Content-Length", "0")
        self.end_headers()


def main():
    cert, key = os.path.join(DIR, "smtp-cert.pem"), os.path.join(DIR, "smtp-key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    smtp_port = free_port()
    smtp = Controller(Mail(), hostname="127.0.0.1", port=smtp_port, tls_context=context, require_starttls=True,
                      authenticator=authenticate, auth_require_tls=True)
    smtp.start()
    ntfy = ThreadingHTTPServer(("127.0.0.1", 0), Ntfy)
    hook = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    for server in (ntfy, hook):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({"smtp": smtp_port, "ntfy": ntfy.server_address[1], "webhook": hook.server_address[1], "cert": cert,
                      "user": USER, "password": PASSWORD, "token": TOKEN, "secret": SECRET}), flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
