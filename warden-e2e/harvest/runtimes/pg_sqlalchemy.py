# Runs the caller's SQL through SQLAlchemy's engine; an uncaught error prints its traceback.
import os, sys
from sqlalchemy import create_engine, text

engine = create_engine(os.environ["PG_SQLALCHEMY_URL"])
with engine.connect() as conn:
    print(conn.execute(text(sys.argv[1])).fetchall())
