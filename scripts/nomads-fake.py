#!/usr/bin/env python3
"""A loopback server answering like NOAA's NOMADS GRIB filter, for the forecast radar's tests
(issue 55): `GET /cgi-bin/filter_hrrr_2d.pl?dir=/hrrr.YYYYMMDD/conus&file=hrrr.tHHz.wrfsfcfFF.grib2
&var_REFC=on&lev_entire_atmosphere=on&subregion=&leftlon=…` (and filter_nam_conusnest.pl) answers
DIR/<YYYYMMDD>/<file> as it is; a missing file is a 404 with NOMADS's HTML; DIR/<…>/<file>.truncate
answers the file cut in half, DIR/<…>/<file>.html an HTML page with status 200 (what a busy
server sends), DIR/<…>/<file>.hang half the file and then nothing for a minute (a transfer
stalled: the test cuts the power there). Every request is appended to DIR/requests.log. Prints the port, then serves.

Usage: nomads-fake.py DIR
"""
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

ROOT = sys.argv[1]
# A test that ends sends SIGTERM; the test runner may have left it blocked or ignored (both
# are inherited across exec): taken back here, so the server always ends with its test.
signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body, kind="application/octet-stream"):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        with open(os.path.join(ROOT, "requests.log"), "a") as f:
            f.write(self.path + "\n")
        u = urlparse(self.path)
        q = parse_qs(u.query, keep_blank_values=True)
        if not u.path.startswith("/cgi-bin/filter_") or "file" not in q or "dir" not in q \
                or q.get("var_REFC") != ["on"] or q.get("lev_entire_atmosphere") != ["on"] \
                or not all(k in q for k in ("leftlon", "rightlon", "toplat", "bottomlat")):
            return self.answer(400, b"<html><body>bad filter request</body></html>", "text/html")
        day = q["dir"][0].strip("/").split("/")[0].split(".")[-1]
        path = os.path.join(ROOT, day, q["file"][0])
        if os.path.exists(path + ".html"):
            return self.answer(200, b"<html><body>Data file is not present: try again later</body></html>", "text/html")
        if not os.path.exists(path):
            return self.answer(404, b"<html><body>404 Not Found</body></html>", "text/html")
        body = open(path, "rb").read()
        if os.path.exists(path + ".truncate"):
            body = body[: len(body) // 2]
        if os.path.exists(path + ".hang"):
            # A download that stalls half-way (a network gone mid-transfer): the headers and half
            # the body, then nothing for a minute.
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            time.sleep(60)
            return
        self.answer(200, body)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
