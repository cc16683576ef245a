# Serves tar1090's html/ (ROOT) and passes /data/… to the gateway (BACKEND), as a web server
# beside readsb does: python3 scripts/tar1090-proxy.py ROOT http://127.0.0.1:8080 PORT (scripts/check-tar1090.sh).
import http.server, urllib.request, sys, os
root, backend, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
class H(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k): super().__init__(*a, directory=root, **k)
    def do_GET(self):
        if self.path.startswith('/data/'):
            try:
                with urllib.request.urlopen(backend + self.path.split('?')[0], timeout=5) as r:
                    body = r.read(); self.send_response(r.status)
                    self.send_header('Content-Type', r.headers.get('Content-Type', 'application/json'))
                    self.send_header('Content-Length', str(len(body))); self.end_headers(); self.wfile.write(body)
            except Exception as e:
                self.send_error(502, str(e))
            return
        super().do_GET()
    def log_message(self, fmt, *a): sys.stderr.write((fmt % a) + "\n")
http.server.ThreadingHTTPServer(('127.0.0.1', port), H).serve_forever()
