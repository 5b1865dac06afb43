"""Reading backend-sim/api/openapi.yaml: the one copy that the provider's conformance test
(test_openapi.py) and the client's code check (tests/core/api/test_provider_codes.py) share.
Needs python3-yaml."""

import os

import yaml

DEFAULT_PATH = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                             "..", "..", "..", "backend-sim", "api", "openapi.yaml"))


def load(path=DEFAULT_PATH):
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def resolve_pointer(doc, ref):
    if not isinstance(ref, str) or not ref.startswith("#/"):
        raise KeyError(f"only local references are supported: {ref!r}")
    node = doc
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        else:
            raise KeyError(ref)
    return node


def deref(doc, node, depth=0):
    """Follows $ref chains of a parameter, response or header object."""
    while isinstance(node, dict) and "$ref" in node:
        if depth > 20:
            raise KeyError("reference cycle")
        node = resolve_pointer(doc, node["$ref"])
        depth += 1
    return node


def schema_property(doc, schema, name):
    """components.schemas.<schema>.properties.<name> ({} when absent)."""
    schemas = (doc.get("components") or {}).get("schemas") or {}
    return ((schemas.get(schema) or {}).get("properties") or {}).get(name) or {}


def error_codes(doc):
    """The Error.code enum: every code the provider answers with."""
    error = schema_property(doc, "Error", "error")
    return list(((error.get("properties") or {}).get("code") or {}).get("enum") or [])


def state_reasons(doc, schema):
    """The named reasons a <schema>.state_reason may carry (its x-state-reasons)."""
    return list(schema_property(doc, schema, "state_reason").get("x-state-reasons") or [])


def enum_of(doc, schema, name):
    return list(schema_property(doc, schema, name).get("enum") or [])
