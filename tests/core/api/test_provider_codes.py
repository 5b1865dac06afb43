#!/usr/bin/env python3
"""client_provider_codes: every named provider code the client matches (core/api/ProviderCodes.h)
is one that backend-sim/api/openapi.yaml lists, so a code renamed or dropped in the contract fails
here instead of leaving a comparison in the client that is never true again.

Usage: test_provider_codes.py [PROVIDER_CODES_H] [OPENAPI_YAML]
Each namespace of the header is checked against one list of the document:
  ErrorCode      the Error.code enum
  StateReason    Instance.state_reason's x-state-reasons
  SnapshotReason Snapshot.state_reason's x-state-reasons
  StopReason     the StopWarning.reason enum (PlannedStop.reason must agree)
Prints each failure and a last line `N passed, M failed`; exits 1 on any failure."""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "backend", "openapi"))

import openapi_spec  # noqa: E402 - found through the path above

DEFAULT_HEADER = os.path.normpath(os.path.join(HERE, "..", "..", "..", "core", "api", "ProviderCodes.h"))
NAMESPACE = re.compile(r"^namespace\s+(\w+)\s*\{(.*?)^\}\s*//\s*namespace\s+\1", re.M | re.S)
CONSTANT = re.compile(r"inline\s+constexpr\s+QLatin1StringView\s+(\w+)\s*\{\s*\"([^\"]*)\"\s*\}\s*;")


def header_constants(text):
    """{namespace: [(name, value)]} of the header's inline constexpr constants."""
    found = {}
    for namespace, body in NAMESPACE.findall(text):
        found[namespace] = CONSTANT.findall(body)
    return found


def main(argv):
    header = argv[1] if len(argv) > 1 else DEFAULT_HEADER
    doc = openapi_spec.load(argv[2] if len(argv) > 2 else openapi_spec.DEFAULT_PATH)
    with open(header, encoding="utf-8") as f:
        text = f.read()
    lists = {
        "ErrorCode": ("the Error.code enum", openapi_spec.error_codes(doc)),
        "StateReason": ("Instance.state_reason's x-state-reasons",
                        openapi_spec.state_reasons(doc, "Instance")),
        "SnapshotReason": ("Snapshot.state_reason's x-state-reasons",
                           openapi_spec.state_reasons(doc, "Snapshot")),
        "StopReason": ("the StopWarning.reason enum", openapi_spec.enum_of(doc, "StopWarning", "reason")),
    }
    passed, failures = 0, []

    def check(condition, what):
        nonlocal passed
        if condition:
            passed += 1
        else:
            failures.append(what)
            print(f"FAIL: {what}", flush=True)

    constants = header_constants(text)
    # Every constant in the file sits in a namespace read above: none escapes the check.
    check(sum(len(v) for v in constants.values()) == len(CONSTANT.findall(text)),
          f"{header}: every constant is inside a checked namespace")
    for namespace in sorted(constants):
        check(namespace in lists, f"namespace {namespace} is one this test knows ({', '.join(lists)})")
    for namespace, (where, listed) in lists.items():
        check(listed, f"openapi.yaml has {where}")
        check(constants.get(namespace), f"{header} names at least one {namespace}")
        for name, value in constants.get(namespace, []):
            check(value in listed, f"{namespace}::{name} ({value!r}) is in {where}")
        values = [value for _, value in constants.get(namespace, [])]
        check(len(values) == len(set(values)), f"{namespace} names each value once")
    check(set(lists["StopReason"][1]) == set(openapi_spec.enum_of(doc, "PlannedStop", "reason")),
          "StopWarning.reason and PlannedStop.reason list the same reasons")
    print(f"{passed} passed, {len(failures)} failed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
