"""A leaky MCP server as Python authors write one: newline-delimited JSON-RPC on stdio, the standard
library only. Every failure is real (the runtime raises it, sqlite3 words it, traceback formats it);
nothing is typed in by hand. What leaks is planted: the table and constraint names of its own
database, the absolute path of a file under its own directory, DATABASE_URL from its environment.

Usage: python3 leaky_server.py
"""
import json
import os
import sqlite3
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))

TOOLS = ["py_traceback", "py_missing_file", "py_sqlite_constraint", "py_sqlite_column", "py_config", "py_log"]

DB = sqlite3.connect(":memory:")
DB.execute("CREATE TABLE cnry_orders_7f3a (id INTEGER PRIMARY KEY, email TEXT NOT NULL,"
           " CONSTRAINT cnry_uq_order_email_7f3a UNIQUE (email))")
DB.execute("INSERT INTO cnry_orders_7f3a (email) VALUES ('ada@example.com')")


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def text(t, is_error=False):
    result = {"content": [{"type": "text", "text": t}]}
    if is_error:
        result["isError"] = True
    return result


def parse_amount(raw):
    return int(raw)


def price_of(order):
    return parse_amount(order["amount"]) * 100


def connect(url):
    raise ConnectionError("could not connect to " + url)


def call(name):
    """The answer to tools/call NAME: a result, or an error object for the JSON-RPC response."""
    if name == "py_traceback":
        try:
            price_of({"amount": "12,50"})
        except ValueError:
            return {"result": text(traceback.format_exc(), True)}
    if name == "py_missing_file":
        try:
            with open(os.path.join(HERE, "reports", "cnry_q3_7f3a.json")) as f:
                return {"result": text(f.read())}
        except OSError as e:
            return {"result": text(str(e), True)}
    if name == "py_sqlite_constraint":
        try:
            DB.execute("INSERT INTO cnry_orders_7f3a (email) VALUES ('ada@example.com')")
        except sqlite3.Error as e:
            return {"error": {"code": -32603, "message": "Internal error",
                              "data": {"type": type(e).__name__, "detail": str(e)}}}
    if name == "py_sqlite_column":
        try:
            DB.execute("SELECT cnry_secret_col_7f3a FROM cnry_orders_7f3a")
        except sqlite3.Error as e:
            return {"result": text("query failed: " + str(e), True)}
    if name == "py_config":
        url = os.environ.get("DATABASE_URL", "")
        try:
            connect(url)
        except ConnectionError as e:
            return {"result": text("configuration error: " + str(e), True)}
    if name == "py_log":
        try:
            price_of({})
        except KeyError:
            send({"jsonrpc": "2.0", "method": "notifications/message",
                  "params": {"level": "error", "logger": "orders", "data": traceback.format_exc()}})
        return {"result": text("no price")}
    return {"error": {"code": -32602, "message": "Unknown tool"}}


def answer(msg):
    method = msg.get("method")
    params = msg.get("params") or {}
    if method == "initialize":
        return {"result": {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                           "capabilities": {"tools": {}, "logging": {}},
                           "serverInfo": {"name": "leaky-python", "version": "1.0.0"}}}
    if method in ("ping", "logging/setLevel"):
        return {"result": {}}
    if method == "tools/list":
        return {"result": {"tools": [{"name": t, "inputSchema": {"type": "object"}} for t in TOOLS]}}
    if method == "tools/call":
        return call(params.get("name"))
    return {"error": {"code": -32601, "message": "Method not found"}}


for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if not isinstance(msg, dict) or "id" not in msg:
        continue
    reply = {"jsonrpc": "2.0", "id": msg["id"]}
    reply.update(answer(msg))
    send(reply)
