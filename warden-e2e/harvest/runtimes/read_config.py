# Reads a file the caller names, relative to the app's data directory; an uncaught error prints its traceback.
import os, sys
with open(os.path.join(os.environ["APP_DATA_DIR"], sys.argv[1])) as f:
    print(f.read())
