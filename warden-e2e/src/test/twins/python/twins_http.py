"""The Python HTTP twins of docs/audit-twins.md: the standard library only (http.server).

    python3 twins_http.py sse [--safe]     vulnerable: only the 2024-11-05 HTTP+SSE transport
                                           (GET /sse, POST /messages; /mcp is a 404);
                                           safe: Streamable HTTP at /mcp. One harmless tool.
    python3 twins_http.py notes [--safe]   Streamable HTTP, two callers by API key
                                           ("Authorization: Bearer KEY"); vulnerable: any note by id;
                                           safe: another caller's note is not found.

Prints "PORT n" once listening on 127.0.0.1.
"""
import json
import queue
import secrets
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODE = sys.argv[1]
SAFE = "--safe" in sys.argv
CALLERS = {"twin-key-alice-3f9a71": "alice", "twin-key-bob-8c2d44": "bob"}
NOTES = {"note-1001": ("alice", "Renewal quote for Initech: cnry_note_alice_71b4"),
         "note-2001": ("bob", "Salary review draft: cnry_note_bob_9e0a")}
SESSIONS = {}


def text(t, error=False):
    result = {"content": [{"type": "text", "text": t}]}
    if error:
        result["isError"] = True
    return {"result": result}


def tool(name, description, properties):
    return {"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": {p: {"type": "string"} for p in properties},
                            "required": list(properties)}}


def tools_for(caller):
    if MODE == "sse":
        return [tool("twin_echo", "Repeats the text it is given.", ["text"])]
    return [tool("twin_list_notes", "Lists the ids of your notes.", []),
            tool("twin_get_note", "Returns one of your notes by its id (see twin_list_notes).", ["note_id"])]


def call(caller, name, arguments):
    if MODE == "sse" and name == "twin_echo":
        return text(str(arguments.get("text", "")))
    if MODE == "notes" and name == "twin_list_notes":
        return text("\n".join(i for i, (owner, _) in NOTES.items() if owner == caller))
    if MODE == "notes" and name == "twin_get_note":
        note = NOTES.get(str(arguments.get("note_id", "")))
        if note is None or (SAFE and note[0] != caller):
            return text("No note with that id.", error=True)
        return text(note[1])
    return {"error": {"code": -32602, "message": "Unknown tool"}}


def answer(caller, message):
    """The reply to one JSON-RPC message, or None for a notification."""
    if not isinstance(message, dict) or not isinstance(message.get("method"), str):
        return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
    if "id" not in message:
        return None
    method = message["method"]
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    if method == "initialize":
        body = {"result": {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                           "capabilities": {"tools": {}},
                           "serverInfo": {"name": "acme-echo" if MODE == "sse" else "acme-notes", "version": "1.0.0"}}}
    elif method == "ping":
        body = {"result": {}}
    elif method == "tools/list":
        body = {"result": {"tools": tools_for(caller)}}
    elif method == "tools/call":
        arguments = params.get("arguments") if isinstance(params.get("arguments"), dict) else {}
        body = call(caller, params.get("name"), arguments)
    else:
        body = {"error": {"code": -32601, "message": "Method not found"}}
    reply = {"jsonrpc": "2.0", "id": message["id"]}
    reply.update(body)
    return reply


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def caller(self):
        if MODE != "notes":
            return "anyone"
        header = self.headers.get("Authorization", "")
        return CALLERS.get(header[len("Bearer "):] if header.startswith("Bearer ") else "")

    def read_json(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            return json.loads(raw)
        except ValueError:
            return None

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        if MODE == "sse" and not SAFE and path == "/sse":
            self.stream()
        elif path == "/mcp" and (SAFE or MODE == "notes"):
            self.send(405, b"")
        else:
            self.send(404, b"Not found", "text/plain")

    def do_DELETE(self):
        self.send(405, b"")

    def do_POST(self):
        split = urllib.parse.urlsplit(self.path)
        caller = self.caller()
        if caller is None:
            self.send(401, json.dumps({"jsonrpc": "2.0", "id": None,
                                       "error": {"code": -32600, "message": "Unauthorized"}}).encode())
            return
        if MODE == "sse" and not SAFE:
            session = SESSIONS.get(urllib.parse.parse_qs(split.query).get("sessionId", [""])[0])
            if split.path != "/messages" or session is None:
                self.send(404, b"Not found", "text/plain")
                return
            message = self.read_json()
            self.send(202, b"Accepted", "text/plain")
            reply = answer(caller, message) if message is not None else \
                {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
            if reply is not None:
                session.put(reply)
            return
        if split.path != "/mcp":
            self.send(404, b"Not found", "text/plain")
            return
        message = self.read_json()
        if message is None:
            reply = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
        elif isinstance(message, list):
            reply = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Batches are not supported"}}
        else:
            reply = answer(caller, message)
        if reply is None:
            self.send(202, b"")
        else:
            self.send(200, json.dumps(reply).encode())

    def stream(self):
        session_id = secrets.token_hex(16)
        outbox = queue.Queue()
        SESSIONS[session_id] = outbox
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            self.wfile.write(("event: endpoint\ndata: /messages?sessionId=%s\n\n" % session_id).encode())
            self.wfile.flush()
            while True:
                try:
                    reply = outbox.get(timeout=15)
                    self.wfile.write(("event: message\ndata: %s\n\n" % json.dumps(reply)).encode())
                except queue.Empty:
                    self.wfile.write(b": keep-alive\n\n")
                self.wfile.flush()
        except OSError:
            pass
        finally:
            SESSIONS.pop(session_id, None)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print("PORT %d" % server.server_address[1], flush=True)
server.serve_forever()
