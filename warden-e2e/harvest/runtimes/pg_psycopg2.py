# Runs the caller's SQL with psycopg2 on the server's configured database; an uncaught error prints its traceback.
import os, sys
import psycopg2

conn = psycopg2.connect(os.environ["PG_DSN"])
cur = conn.cursor()
cur.execute(sys.argv[1])
print(cur.fetchall())
