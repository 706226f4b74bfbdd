# Validates the caller's arguments with pydantic; prints the error as pydantic renders it (str, or json with --json).
import json, sys
from pydantic import BaseModel, constr, validator

class Signup(BaseModel):
    email: constr(regex=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
    name: constr(min_length=1)

    @validator("email")
    def must_be_valid(cls, v):
        return v

args = json.loads(sys.argv[1])
try:
    Signup(**args)
except Exception as e:
    if "--json" in sys.argv:
        print(e.json())
        sys.exit(1)
    raise
