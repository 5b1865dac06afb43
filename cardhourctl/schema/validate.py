#!/usr/bin/env python3
"""Checks cardhourctl --json output against the schemas of this folder.

    validate.py SCHEMA.json FILE [--lines]

SCHEMA.json names one output (see README.md); FILE holds one JSON document (or, with --lines,
one per line, as `events` and `forward` print them). The schemas take the API's own objects from
backend-sim/api/openapi.yaml (`openapi.yaml#/components/schemas/NAME`), read as JSON Schema:
`nullable: true` becomes a null type, and the API's `required` lists are left to each schema
here (cardhourctl prints the fields the client reads), while the API's
`additionalProperties: false` stays, so a field name the API does not have fails.
Exit status 0 when every document fits, 1 otherwise (each error named on stderr).
"""
import json
import pathlib
import sys

import jsonschema
import referencing
import referencing.jsonschema
import yaml

HERE = pathlib.Path(__file__).resolve().parent
OPENAPI = HERE.parent.parent / "backend-sim" / "api" / "openapi.yaml"
BASE = "https://cardhour.invalid/cardhourctl/schema/"


def as_json_schema(node):
    if isinstance(node, list):
        return [as_json_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: as_json_schema(v) for k, v in node.items() if k not in ("nullable", "required", "example")}
    if node.get("nullable") is True:
        if "type" in out:
            types = out["type"] if isinstance(out["type"], list) else [out["type"]]
            out["type"] = types + ["null"]
        if "enum" in out:
            out["enum"] = list(out["enum"]) + [None]
        if "$ref" in out or "allOf" in out:
            out = {"anyOf": [{"type": "null"}, out]}
    return out


def registry():
    api = as_json_schema(yaml.safe_load(OPENAPI.read_text(encoding="utf-8")))
    spec = referencing.jsonschema.DRAFT202012
    resources = [(BASE + "openapi.yaml", referencing.Resource(contents=api, specification=spec))]
    for path in HERE.glob("*.json"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        resources.append((doc["$id"], referencing.Resource.from_contents(doc)))
    return referencing.Registry().with_resources(resources)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    schema = json.loads((HERE / argv[1]).read_text(encoding="utf-8"))
    text = pathlib.Path(argv[2]).read_text(encoding="utf-8")
    documents = [l for l in text.splitlines() if l.strip()] if "--lines" in argv else [text]
    if not documents:
        print(f"{argv[2]}: no JSON at all", file=sys.stderr)
        return 1
    validator = jsonschema.Draft202012Validator(schema, registry=registry(),
                                                format_checker=jsonschema.FormatChecker())
    failed = False
    for number, document in enumerate(documents, 1):
        try:
            value = json.loads(document)
        except json.JSONDecodeError as error:
            print(f"{argv[2]}:{number}: not JSON: {error}", file=sys.stderr)
            failed = True
            continue
        for error in sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(p) for p in error.absolute_path) or "(top)"
            print(f"{argv[2]}:{number}: {argv[1]}: {where}: {error.message}", file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
