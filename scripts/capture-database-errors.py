#!/usr/bin/python3
"""Captures verbatim the errors real database clients print, for the sanitizer's database tests.

Runs every case of warden-core/src/test/resources/database-errors/cases.json against a real
PostgreSQL (scripts/test-postgres), a real MariaDB and SQLite, through the clients' own CLIs and
drivers (psql, psycopg2, PostgreSQL JDBC, node pg, PHP PDO; mariadb, PyMySQL, MariaDB Connector/J, node mysql2, PHP PDO;
sqlite3 CLI, Python sqlite3, better-sqlite3, PHP PDO), and writes one JSON line per (case, client) to captured.jsonl.
Run with Debian's /usr/bin/python3 (psycopg2 and PyMySQL are Debian packages; PHP's PDO drivers are
php8.2-pgsql, php8.2-mysql and php8.2-sqlite3). Environment:
  WARDEN_MARIADB_PORT (default 3307), WARDEN_SQLITE_DB (default /tmp/h6-sqlite/vault_canary.db),
  WARDEN_NODE_MODULES (a folder with node_modules holding pg, mysql2, better-sqlite3), WARDEN_PG_JDBC_JAR,
  WARDEN_MARIADB_JDBC_JAR (org.mariadb.jdbc:mariadb-java-client:3.5.1, fetched with mvn dependency:get; skipped if absent).
The fixtures (canary names the caller never sends) are the *_FIXTURE strings below, made afresh each run.
"""
import json, os, subprocess, sys, traceback

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "warden-core", "src", "test", "resources", "database-errors")
CASES = json.load(open(os.path.join(HERE, "cases.json")))
SQLITE_DB = os.environ.get("WARDEN_SQLITE_DB", "/tmp/h6-sqlite/vault_canary.db")
NODE_DIR = os.environ.get("WARDEN_NODE_MODULES", "/tmp/h6-node")
MARIADB_JAR = os.environ.get("WARDEN_MARIADB_JDBC_JAR", os.path.expanduser("~/.m2/repository/org/mariadb/jdbc/mariadb-java-client/3.5.1/mariadb-java-client-3.5.1.jar"))
JDBC_JAR = os.environ.get("WARDEN_PG_JDBC_JAR", os.path.expanduser("~/.m2/repository/org/postgresql/postgresql/42.7.13/postgresql-42.7.13.jar"))

PG = dict(host="127.0.0.1", port=5432, user="warden", password="warden-test", database="wardentest")
MY = dict(host="127.0.0.1", port=int(os.environ.get("WARDEN_MARIADB_PORT", "3307")), user="app_canary", password="app-pw", database="shop_canary")

out = []

# The case's statements as one script, as a tool would pass them to a CLI.
def as_script(case):
    return (case["setup"] + ";\n" if "setup" in case else "") + case["sql"] + ";"

# What each client was given: the CLIs get the statements as a script.
def sent(case, client):
    if client.startswith("psql") or client.startswith("mariadb"):
        return as_script(case)
    if client.startswith("sqlite3"):
        return "PRAGMA foreign_keys=ON; " + case["sql"] + ";"
    return case["sql"]

def record(db, case, client, text, state=None):
    text = text.rstrip("\n")
    # A socket error before any database spoke (node's ECONNREFUSED, ENOTFOUND) is no database error.
    if not text or state in ("ECONNREFUSED", "ENOTFOUND") or text.startswith("TypeError"):
        return
    out.append({"database": db, "id": case["id"], "client": client, "arguments": {"sql": sent(case, client)},
                "text": text, "reportedState": state, "code": case["code"], "keep": case["keep"], "never": case["never"]})

# The clients that take one case at a time, run case by case in this order (a case that wrongly succeeded would
# change what the next client sees); each capture gives the text printed, or that and the state reported.
def record_each(db, cases, clients):
    for c in cases:
        for client, capture in clients:
            got = capture(c)
            record(db, c, client, *(got if isinstance(got, tuple) else (got,)))

# What a batch runner (node, PHP, JDBC) returned for each case: None where the case did not fail.
def record_all(db, cases, client, results, keep=lambda case: True):
    for c, r in zip(cases, results):
        if r and keep(c):
            record(db, c, client, r["text"], r["state"])

def params(base, case):
    p = dict(base)
    for k in ("user", "password", "database", "host", "port"):
        if k in case:
            p[k] = case[k]
    return p

def run(cmd, env=None, stdin=None):
    r = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **(env or {})}, input=stdin, timeout=60)
    return r.stderr if r.stderr.strip() else r.stdout

PDO = r"""<?php
$cases = json_decode(stream_get_contents(STDIN), true); $res = [];
foreach ($cases as $c) {
  try { $db = new PDO($c['dsn'], $c['user'] ?? null, $c['password'] ?? null, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION, PDO::ATTR_TIMEOUT => 5]);
    if (!empty($c['setup'])) $db->exec($c['setup']); $db->exec($c['sql']); $res[] = null; }
  catch (PDOException $e) { $res[] = ['text' => get_class($e) . ': ' . $e->getMessage(), 'state' => (string) $e->getCode()]; } }
echo json_encode($res);
"""

def pdo(payload):
    return batch(["php", "-r", PDO[len("<?php"):]], payload)

# The cases with the PDO DSN (driver pgsql or mysql) and credentials each connects with.
def pdo_payload(base, cases, driver):
    payload = []
    for c in cases:
        p = params(base, c)
        payload.append(dict(c, dsn="%s:host=%s;port=%s;dbname=%s" % (driver, p["host"], p["port"], p["database"]), user=p["user"], password=p["password"]))
    return payload

# Runs a script that reads the cases as JSON on stdin and prints one result per case as a JSON array.
def batch(cmd, payload, cwd=None):
    r = subprocess.run(cmd, cwd=cwd, input=json.dumps(payload), capture_output=True, text=True, timeout=120)
    return json.loads(r.stdout)

def node(script, payload):
    return batch(["node", "-e", script], payload, cwd=NODE_DIR)

# What a Python DB-API driver raised connecting and running the case's setup and statement, as the
# traceback's last line, with the state state(e) reads from it; ("", None) if nothing failed.
def driver_error(connect, case, state=lambda e: None):
    try:
        c = connect()
        cur = c.cursor()
        if "setup" in case:
            cur.execute(case["setup"])
        cur.execute(case["sql"])
    except Exception as e:
        return "".join(traceback.format_exception_only(type(e), e)), state(e)
    return "", None

# ---- PostgreSQL ----
def pg_psql(case):
    p = params(PG, case)
    sql = as_script(case)
    return run(["psql", "-X", "-q", "-h", p["host"], "-p", str(p["port"]), "-U", p["user"], "-d", p["database"], "-c", sql],
               env={"PGPASSWORD": p["password"], "PGCONNECT_TIMEOUT": "5"}) if "setup" not in case else \
        run(["psql", "-X", "-q", "-h", p["host"], "-p", str(p["port"]), "-U", p["user"], "-d", p["database"]],
            env={"PGPASSWORD": p["password"]}, stdin=sql)

def pg_psycopg2(case):
    import psycopg2
    p = params(PG, case)
    return driver_error(lambda: psycopg2.connect(host=p["host"], port=p["port"], user=p["user"], password=p["password"],
                                                 dbname=p["database"], connect_timeout=5),
                        case, lambda e: getattr(e, "pgcode", None))

PG_NODE = r"""
const { Client } = require('pg');
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
(async () => { const res = [];
for (const c of cases) { const cl = new Client({host: c.host || '127.0.0.1', port: c.port || 5432, user: c.user || 'warden',
  password: c.password || 'warden-test', database: c.database || 'wardentest', connectionTimeoutMillis: 5000});
  try { await cl.connect(); if (c.setup) await cl.query(c.setup); await cl.query(c.sql); res.push(null); }
  catch (e) { res.push({text: String(e), state: e.code || null}); }
  finally { try { await cl.end(); } catch (e) {} } }
console.log(JSON.stringify(res)); })();
"""

JDBC = r"""
import java.sql.*; import java.nio.file.*; import java.util.*;
public class Capture { public static void main(String[] a) throws Exception {
  String[] lines = Files.readString(Path.of(a[0])).split("\n");
  for (String line : lines) { String[] f = line.split("\t", -1); // url user password setup sql trace
    StringBuilder sb = new StringBuilder();
    try (Connection c = DriverManager.getConnection(f[0], f[1], f[2]); Statement s = c.createStatement()) {
      if (!f[3].isEmpty()) s.execute(f[3]); s.execute(f[4]);
    } catch (SQLException e) {
      if (f[5].equals("trace")) { java.io.StringWriter w = new java.io.StringWriter(); e.printStackTrace(new java.io.PrintWriter(w)); sb.append(w); }
      else if (f[5].equals("wrapped")) { java.io.StringWriter w = new java.io.StringWriter(); new RuntimeException(e).printStackTrace(new java.io.PrintWriter(w)); sb.append(w); }
      else sb.append(e.toString());
      System.out.println(Base64.getEncoder().encodeToString(sb.toString().getBytes()) + "\t" + e.getSQLState()); continue; }
    System.out.println("-\t-"); } } }
"""

def pg_jdbc(cases, mode):
    return jdbc(cases, mode, PG, "jdbc:postgresql://%s:%s/%s?connectTimeout=5", JDBC_JAR)

def jdbc(cases, mode, base, url_format, jar):
    work = "/tmp/h6-jdbc"; os.makedirs(work, exist_ok=True)
    open(work + "/Capture.java", "w").write(JDBC)
    rows = []
    for c in cases:
        p = params(base, c)
        url = url_format % (p["host"], p["port"], p["database"])
        rows.append("\t".join([url, p["user"], p["password"], c.get("setup", ""), c["sql"], mode]))
    open(work + "/cases.tsv", "w").write("\n".join(rows))
    r = subprocess.run(["java", "-cp", jar, work + "/Capture.java", work + "/cases.tsv"], capture_output=True, text=True, timeout=300)
    import base64
    res = []
    for line in r.stdout.strip().split("\n"):
        t, s = line.split("\t")
        res.append(None if t == "-" else {"text": base64.b64decode(t).decode(), "state": s})
    return res

def postgres():
    cases = CASES["postgresql"]
    record_each("postgresql", cases, [("psql 15", pg_psql), ("psycopg2 2.9 (Python)", pg_psycopg2)])
    record_all("postgresql", cases, "node-postgres (pg)", node(PG_NODE, cases))
    record_all("postgresql", cases, "PostgreSQL JDBC 42.7 (toString)", pg_jdbc(cases, "plain"))
    record_all("postgresql", cases, "PHP 8.2 PDO pgsql", pdo(pdo_payload(PG, cases, "pgsql")))
    record_all("postgresql", cases, "PostgreSQL JDBC 42.7 (stack trace)", pg_jdbc(cases, "trace"),
               lambda c: c["id"] in ("wrong-password", "unknown-column", "unique"))
    record_all("postgresql", cases, "PostgreSQL JDBC 42.7 (wrapped, stack trace)", pg_jdbc(cases, "wrapped"),
               lambda c: c["id"] in ("wrong-password", "unknown-database", "unique"))

# ---- MariaDB ----
def my_cli(case):
    p = params(MY, case)
    return run(["mariadb", "-h", p["host"], "-P", str(p["port"]), "-u", p["user"], "-p" + p["password"], "--connect-timeout=5", p["database"]], stdin=as_script(case))

def my_pymysql(case):
    import pymysql
    p = params(MY, case)
    return driver_error(lambda: pymysql.connect(host=p["host"], port=p["port"], user=p["user"], password=p["password"],
                                                database=p["database"], connect_timeout=5), case)

MY_NODE = r"""
const mysql = require('mysql2/promise');
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
(async () => { const res = [];
for (const c of cases) { let cn;
  try { cn = await mysql.createConnection({host: c.host || '127.0.0.1', port: c.port || 3307, user: c.user || 'app_canary',
      password: c.password || 'app-pw', database: c.database || 'shop_canary', connectTimeout: 5000});
    if (c.setup) await cn.query(c.setup); await cn.query(c.sql); res.push(null); }
  catch (e) { res.push({text: String(e), state: e.sqlState || e.code || null}); }
  finally { try { if (cn) await cn.end(); } catch (e) {} } }
console.log(JSON.stringify(res)); })();
"""

def mariadb():
    cases = CASES["mariadb"]
    record_each("mariadb", cases, [("mariadb 10.11 CLI", my_cli), ("PyMySQL 1.0 (Python)", my_pymysql)])
    record_all("mariadb", cases, "PHP 8.2 PDO mysql", pdo(pdo_payload(MY, cases, "mysql")))
    if os.path.exists(MARIADB_JAR):
        record_all("mariadb", cases, "MariaDB Connector/J 3.5 (toString)",
                   jdbc(cases, "plain", MY, "jdbc:mariadb://%s:%s/%s?connectTimeout=5000", MARIADB_JAR))
    record_all("mariadb", cases, "node mysql2", node(MY_NODE, cases))

# ---- SQLite ----
def sqlite_db(case):
    return case.get("file", SQLITE_DB)

def sl_cli(case):
    db = sqlite_db(case)
    args = ["sqlite3"] + (["-readonly"] if case.get("readonly") else []) + [db, "PRAGMA foreign_keys=ON; " + case["sql"] + ";"]
    return run(args)

def sl_python(case):
    import sqlite3
    try:
        db = sqlite_db(case)
        c = sqlite3.connect(("file:%s?mode=ro" % db) if case.get("readonly") else ("file:%s?mode=rw" % db), uri=True)
        c.execute("PRAGMA foreign_keys=ON")
        c.execute(case["sql"])
        c.commit()
    except Exception as e:
        return "".join(traceback.format_exception_only(type(e), e))
    finally:
        if "c" in locals():
            c.close()
    return ""

SL_NODE = r"""
const Database = require('better-sqlite3');
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const res = [];
for (const c of cases) { try { const db = new Database(c.file, {readonly: !!c.readonly, fileMustExist: true});
    db.pragma('foreign_keys = ON'); db.prepare(c.sql).run(); db.close(); res.push(null); }
  catch (e) { res.push({text: String(e), state: e.code || null}); } }
console.log(JSON.stringify(res));
"""

def sqlite():
    cases = CASES["sqlite"]
    record_each("sqlite", cases, [("sqlite3 3.40 CLI", sl_cli), ("Python sqlite3 (SQLite 3.40)", sl_python)])
    payload = [dict(c, dsn="sqlite:" + sqlite_db(c), setup="PRAGMA foreign_keys=ON") for c in cases if not c.get("readonly")]
    record_all("sqlite", [c for c in cases if not c.get("readonly")], "PHP 8.2 PDO sqlite", pdo(payload))
    record_all("sqlite", cases, "better-sqlite3 (node)", node(SL_NODE, [dict(c, file=sqlite_db(c)) for c in cases]))

PG_FIXTURE = """
DROP SCHEMA IF EXISTS vault_canary CASCADE;
CREATE SCHEMA vault_canary AUTHORIZATION warden;
DROP TABLE IF EXISTS orders, members;
CREATE TABLE members (id int CONSTRAINT members_pk_canary PRIMARY KEY, email text NOT NULL CONSTRAINT members_email_canary_key UNIQUE,
  age int CONSTRAINT members_age_canary_check CHECK (age >= 0), nick varchar(8), api_token text DEFAULT 'tok_canary_default');
CREATE TABLE orders (id int PRIMARY KEY, member_id int CONSTRAINT orders_member_canary_fkey REFERENCES members(id));
INSERT INTO members VALUES (1, 'ada@example.com', 36, 'ada');
INSERT INTO orders VALUES (10, 1);
ALTER TABLE members OWNER TO warden; ALTER TABLE orders OWNER TO warden;
CREATE TABLE vault_canary.ledger_canary (id int);
ALTER TABLE vault_canary.ledger_canary OWNER TO warden;
DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'reader_canary') THEN
  CREATE ROLE reader_canary LOGIN PASSWORD 'reader-pw'; END IF; END $$;
"""

MY_FIXTURE = """
CREATE DATABASE IF NOT EXISTS shop_canary; USE shop_canary;
DROP TABLE IF EXISTS orders; DROP TABLE IF EXISTS members;
CREATE TABLE members (id int PRIMARY KEY, email varchar(100) NOT NULL, age int, nick varchar(8),
  api_token varchar(40) DEFAULT 'tok_canary_default', CONSTRAINT members_email_canary_key UNIQUE (email),
  CONSTRAINT members_age_canary_check CHECK (age >= 0)) ENGINE=InnoDB;
CREATE TABLE orders (id int PRIMARY KEY, member_id int,
  CONSTRAINT orders_member_canary_fkey FOREIGN KEY (member_id) REFERENCES members(id)) ENGINE=InnoDB;
INSERT INTO members VALUES (1, 'ada@example.com', 36, 'ada', DEFAULT);
INSERT INTO orders VALUES (10, 1);
CREATE USER IF NOT EXISTS 'app_canary'@'localhost' IDENTIFIED BY 'app-pw';
CREATE USER IF NOT EXISTS 'app_canary'@'127.0.0.1' IDENTIFIED BY 'app-pw';
GRANT ALL ON shop_canary.* TO 'app_canary'@'localhost'; GRANT ALL ON shop_canary.* TO 'app_canary'@'127.0.0.1';
CREATE USER IF NOT EXISTS 'reader_canary'@'localhost' IDENTIFIED BY 'reader-pw';
CREATE USER IF NOT EXISTS 'reader_canary'@'127.0.0.1' IDENTIFIED BY 'reader-pw';
GRANT SELECT ON shop_canary.members TO 'reader_canary'@'localhost';
GRANT SELECT ON shop_canary.members TO 'reader_canary'@'127.0.0.1';
CREATE USER IF NOT EXISTS 'ops_canary'@'127.0.0.1' IDENTIFIED BY 'ops-pw';
GRANT ALL ON *.* TO 'ops_canary'@'127.0.0.1';
"""

SQLITE_FIXTURE = """
PRAGMA foreign_keys=ON;
CREATE TABLE members (id integer PRIMARY KEY, email text NOT NULL CONSTRAINT members_email_canary_key UNIQUE,
  age int CONSTRAINT members_age_canary_check CHECK (age >= 0), nick text, api_token text DEFAULT 'tok_canary_default');
CREATE TABLE orders (id int PRIMARY KEY, member_id int CONSTRAINT orders_member_canary_fkey REFERENCES members(id));
CREATE TABLE strict_members (id integer PRIMARY KEY, age integer) STRICT;
INSERT INTO members VALUES (1, 'ada@example.com', 36, 'ada', 'tok_canary_default');
"""

def fixtures():
    """The canary schema, fresh (a PostgreSQL from scripts/test-postgres; a MariaDB whose root logs in on
    the socket WARDEN_MARIADB_ROOT_SOCKET, default /tmp/h6-maria/sock)."""
    subprocess.run(["runuser", "-u", "postgres", "--", "psql", "-q", "-d", "wardentest"], input=PG_FIXTURE, text=True, check=True)
    sock = os.environ.get("WARDEN_MARIADB_ROOT_SOCKET", "/tmp/h6-maria/sock")
    subprocess.run(["mariadb", "-S", sock, "-u", "root"], input=MY_FIXTURE, text=True, check=True)
    os.makedirs(os.path.dirname(SQLITE_DB), exist_ok=True)
    if os.path.exists(SQLITE_DB):
        os.remove(SQLITE_DB)
    subprocess.run(["sqlite3", SQLITE_DB], input=SQLITE_FIXTURE, text=True, check=True)

if __name__ == "__main__":
    fixtures()
    postgres(); mariadb(); sqlite()
    with open(os.path.join(HERE, "captured.jsonl"), "w") as f:
        for row in out:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(len(out), "captured", file=sys.stderr)
