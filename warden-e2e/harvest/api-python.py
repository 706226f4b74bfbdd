# An HTTP API on loopback on Python's http.server that answers a failure with its traceback,
# as development servers do.
import http.server, json, os, sqlite3, sys, traceback

DB_PASSWORD = os.environ["API_DB_PASSWORD"]
DATA_DIR = os.environ["API_DATA_DIR"]

def load_invoice(number):
    with open(os.path.join(DATA_DIR, "invoices", number + ".json")) as f:
        return json.load(f)

def price_of(item):
    db = sqlite3.connect(os.path.join(DATA_DIR, "prices.db"))
    return db.execute("SELECT price FROM cnry_prices_7f3a WHERE sku = ?", (item,)).fetchone()[0]

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        try:
            parts = self.path.strip("/").split("/")
            if parts[0] == "invoices":
                body = load_invoice(parts[1])
            elif parts[0] == "prices":
                body = {"price": price_of(parts[1])}
            else:
                body = {"status": "ok"}
            self.reply(200, json.dumps(body))
        except Exception:
            self.reply(500, traceback.format_exc())

    def reply(self, status, text):
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain" if status >= 400 else "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass

server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print("http://127.0.0.1:%d" % server.server_address[1], flush=True)
server.serve_forever()
