# Validates the caller's arguments with jsonschema; an uncaught ValidationError prints its traceback
# (--best prints best_match's message and path as a server would return them).
import json, sys
import jsonschema

SCHEMA = {"type": "object", "required": ["email", "name"],
          "properties": {"email": {"type": "string", "format": "email"}, "name": {"type": "string", "minLength": 1}}}
args = json.loads(sys.argv[1])
if "--best" in sys.argv:
    v = jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    print(json.dumps([{"path": "/" + "/".join(map(str, e.absolute_path)), "message": e.message} for e in v.iter_errors(args)]))
    sys.exit(1)
jsonschema.validate(args, SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
