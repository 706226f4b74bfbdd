"""Runs pydantic and jsonschema on one bad input and prints their own error JSON, so the extraction
tests read what these libraries really emit. Run by scripts/capture-error-shapes.

Input: name missing, email "not-an-email", age -1, address.city missing.
"""
import json
import os
import sys

out = sys.argv[1]
bad = {"email": "not-an-email", "age": -1, "address": {}}
versions = {}


def save(name, value):
    with open(os.path.join(out, name), "w") as f:
        json.dump(value, f, indent=2)
        f.write("\n")


# pydantic: ValidationError.errors() and .json(); FastAPI's 422 body is {"detail": errors()} with "body"
# prefixed to each loc (fastapi.exception_handlers.request_validation_exception_handler), built here by
# validating the request body under a "body" field the way FastAPI does.
import pydantic
from typing import Annotated
from pydantic import BaseModel, Field, ValidationError

versions["pydantic"] = pydantic.VERSION


class Address(BaseModel):
    city: str


class User(BaseModel):
    name: str
    # EmailStr needs the optional email-validator package; a pattern is pydantic's own check.
    email: Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")]
    age: Annotated[int, Field(ge=0)]
    address: Address


class Request(BaseModel):
    body: User


try:
    User.model_validate(bad)
except ValidationError as e:
    save("pydantic-errors.json", json.loads(e.json()))
try:
    Request.model_validate({"body": bad})
except ValidationError as e:
    save("pydantic-fastapi-422.json", {"detail": json.loads(e.json(include_url=False))})

# jsonschema: the ValidationError's own attributes, as servers serialize them (message, path,
# absolute_path, json_path, validator, schema_path).
import importlib.metadata
import jsonschema

versions["jsonschema"] = importlib.metadata.version("jsonschema")
schema = {
    "type": "object",
    "required": ["name", "email", "address"],
    "properties": {
        "name": {"type": "string"},
        "email": {"type": "string", "format": "email"},
        "age": {"type": "integer", "minimum": 0},
        "address": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}},
    },
}
validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
errors = sorted(validator.iter_errors(bad), key=lambda e: list(e.absolute_path))
save(
    "jsonschema-errors.json",
    {
        "errors": [
            {
                "message": e.message,
                "path": list(e.path),
                "absolute_path": list(e.absolute_path),
                "json_path": e.json_path,
                "validator": e.validator,
                "schema_path": list(e.schema_path),
            }
            for e in errors
        ]
    },
)
save("VERSIONS-python.json", versions)
