#!/usr/bin/env python3
"""OpenAPI conformance test for cardhour-sim.

Usage: test_openapi.py [CARDHOUR_SIM_BIN] [OPENAPI_YAML]
  The binary may also come from $CARDHOUR_SIM_BIN; the document defaults to
  backend-sim/api/openapi.yaml in this checkout.

Part A checks that backend-sim/api/openapi.yaml is a structurally sound OpenAPI 3.0 document
whose (method, path) set is exactly what `cardhour-sim --print-routes` prints, and
whose Error.code enum is exactly what `cardhour-sim --print-error-codes` prints.
Part B starts the real provider (port 0, temporary data directory, --test-clock), exercises
every route, and validates every response: its status must be documented for the route, its
JSON body must match the documented schema (OpenAPI 3.0 converted to JSON Schema), its error
code must be one the response lists in `x-error-codes`, and required headers must be there.
Request-body limits in the document (required members, maxLength, minimum, enum, ...) are
probed against the server too. Needs python3-yaml and python3-jsonschema; stdlib otherwise.
Prints every failure, a summary, and a last line `N passed, M failed`; exits 1 on any failure.
"""

import copy
import http.client
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import jsonschema

from openapi_spec import DEFAULT_PATH as DEFAULT_SPEC_PATH, deref, load, resolve_pointer
from openapi_spec import error_codes as spec_error_codes

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
OPENAPI_ONLY_KEYWORDS = {"nullable", "discriminator", "readOnly", "writeOnly", "xml", "externalDocs",
                         "example", "deprecated"}
OVERALL_TIMEOUT_S = 100  # below the ctest TIMEOUT of 120, so the summary is still printed


# ---- results --------------------------------------------------------------------------------

class Results:
    def __init__(self):
        self.passed = 0
        self.failures = []
        self.section = ""

    def check(self, condition, what):
        if condition:
            self.passed += 1
        else:
            self.fail(what)
        return bool(condition)

    def fail(self, what):
        message = f"[{self.section}] {what}" if self.section else what
        self.failures.append(message)
        print(f"FAIL: {message}", flush=True)


R = Results()


class Abort(Exception):
    """Stops the run; the failure is already recorded."""


# ---- OpenAPI document -----------------------------------------------------------------------

def walk_refs(node, path="#"):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield path, value
            else:
                yield from walk_refs(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk_refs(value, f"{path}/{i}")


def to_json_schema(doc, schema, stack=()):
    """Converts an OpenAPI 3.0 schema object to a self-contained JSON Schema (draft 4): inlines
    $refs, turns `nullable: true` into an allowed null, drops OpenAPI-only keywords."""
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        ref = schema["$ref"]
        if ref in stack:
            raise ValueError(f"recursive schema {ref} is not supported")
        return to_json_schema(doc, resolve_pointer(doc, ref), stack + (ref,))
    out = {}
    for key, value in schema.items():
        if key in OPENAPI_ONLY_KEYWORDS or key.startswith("x-"):
            continue
        if key in ("properties", "patternProperties"):
            out[key] = {name: to_json_schema(doc, sub, stack) for name, sub in value.items()}
        elif key in ("items", "additionalProperties", "not"):
            out[key] = to_json_schema(doc, value, stack) if isinstance(value, dict) else value
        elif key in ("allOf", "anyOf", "oneOf"):
            out[key] = [to_json_schema(doc, sub, stack) for sub in value]
        else:
            out[key] = copy.deepcopy(value)
    if schema.get("nullable") is True:
        if "type" in out:
            types = out["type"] if isinstance(out["type"], list) else [out["type"]]
            out["type"] = types + ["null"]
            if "enum" in out and None not in out["enum"]:
                out["enum"] = out["enum"] + [None]
        else:
            out = {"anyOf": [{"type": "null"}, out]}
    return out


def schema_errors(json_schema, instance):
    validator = jsonschema.Draft4Validator(json_schema)
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    return ["at /" + "/".join(str(p) for p in e.absolute_path) + ": " + e.message[:300] for e in errors]


class Spec:
    def __init__(self, doc):
        self.doc = doc
        self.operations = {}  # (METHOD, template) -> operation
        for template, item in (doc.get("paths") or {}).items():
            if not isinstance(item, dict):
                continue
            for method, operation in item.items():
                if method in METHODS and isinstance(operation, dict):
                    self.operations[(method.upper(), template)] = operation
        self._matchers = []
        for template in (doc.get("paths") or {}):
            parts = template.split("/")
            regex = "^" + "/".join("[^/]+" if re.fullmatch(r"\{[^/{}]+\}", p) else re.escape(p)
                                   for p in parts) + "$"
            literals = sum(1 for p in parts if not p.startswith("{"))
            self._matchers.append((re.compile(regex), literals, template))
        self._schema_cache = {}

    def template_for(self, method, path):
        path = path.split("?", 1)[0]
        best = None
        for regex, literals, template in self._matchers:
            if (method, template) in self.operations and regex.match(path):
                if best is None or literals > best[0]:
                    best = (literals, template)
        return best[1] if best else None

    def response(self, method, template, status):
        responses = self.operations[(method, template)].get("responses", {})
        node = responses.get(str(status))
        return deref(self.doc, node) if node is not None else None

    def json_schema(self, schema):
        key = json.dumps(schema, sort_keys=True)
        if key not in self._schema_cache:
            self._schema_cache[key] = to_json_schema(self.doc, schema)
        return self._schema_cache[key]

    def request_schema(self, method, template):
        body = deref(self.doc, self.operations[(method, template)].get("requestBody"))
        if not body:
            return None
        media = (body.get("content") or {}).get("application/json")
        return self.json_schema(media["schema"]) if media and "schema" in media else None

    def parameters(self, method, template):
        item = self.doc["paths"][template]
        params = [deref(self.doc, p) for p in item.get("parameters", [])]
        params += [deref(self.doc, p) for p in self.operations[(method, template)].get("parameters", [])]
        return params

    def security(self, method, template):
        operation = self.operations[(method, template)]
        return operation["security"] if "security" in operation else self.doc.get("security", [])

    def needs_bearer(self, method, template):
        requirements = self.security(method, template)
        # An empty requirement object ({}) makes the route callable without credentials.
        return bool(requirements) and all(req for req in requirements)

    def has_idempotency_key(self, method, template):
        return any(p.get("in") == "header" and p.get("name", "").lower() == "idempotency-key"
                   for p in self.parameters(method, template))


# ---- part A: the document itself ------------------------------------------------------------

def route_table(binary, test_clock):
    args = [binary, "--print-routes"] + (["--test-clock"] if test_clock else [])
    out = subprocess.run(args, capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited with {out.returncode}: {out.stderr.strip()}")
    routes = set()
    for line in out.stdout.splitlines():
        if line.strip():
            method, path = line.split(None, 1)
            routes.add((method.upper(), path.strip()))
    return routes


def error_codes(binary):
    args = [binary, "--print-error-codes"]
    out = subprocess.run(args, capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited with {out.returncode}: {out.stderr.strip()}")
    return [line.strip() for line in out.stdout.splitlines() if line.strip()]


def collect_error_codes(node, found, where="#"):
    """Every response's x-error-codes, as {code: [where it is listed]}."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "x-error-codes" and isinstance(value, list):
                for code in value:
                    found.setdefault(code, []).append(where)
            else:
                collect_error_codes(value, found, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            collect_error_codes(value, found, f"{where}/{i}")
    return found


def check_error_codes(spec, binary):
    """The Error.code enum is the provider's list of codes (ErrorCode::all), both ways, and
    every x-error-codes entry is in it."""
    enum = spec_error_codes(spec.doc)
    R.check(enum, "components.schemas.Error: error.code has an enum of the codes")
    R.check(len(enum) == len(set(enum)), f"Error.code enum names each code once (got {len(enum)})")
    served = error_codes(binary)
    R.check(len(served) == len(set(served)), "--print-error-codes names each code once")
    for code in sorted(set(served) - set(enum)):
        R.fail(f"error code {code!r} is in the provider's list but not in the Error.code enum")
    for code in sorted(set(enum) - set(served)):
        R.fail(f"error code {code!r} is in the Error.code enum but not in the provider's list")
    R.check(set(served) == set(enum), f"Error.code enum == --print-error-codes ({len(served)} codes)")
    listed = collect_error_codes(spec.doc, {})
    for code, places in sorted(listed.items()):
        R.check(code in enum, f"x-error-codes {code!r} (at {places[0]}) is in the Error.code enum")
    print(f"document: {len(enum)} error codes; enum matches the provider: {set(served) == set(enum)}",
          flush=True)


def lint_response_schema(spec, schema, where, seen):
    """Response objects must be closed (additionalProperties: false) and list every member as
    required (the server always writes every member); money must be an integer."""
    if not isinstance(schema, dict):
        return
    if "$ref" in schema:
        ref = schema["$ref"]
        if ref in seen:
            return
        seen.add(ref)
        lint_response_schema(spec, resolve_pointer(spec.doc, ref), ref, seen)
        return
    if schema.get("type") == "object" or "properties" in schema:
        props = schema.get("properties", {})
        R.check(schema.get("additionalProperties") is False,
                f"{where}: response object schema needs additionalProperties: false")
        R.check(set(schema.get("required", [])) == set(props),
                f"{where}: required {sorted(schema.get('required', []))} != properties {sorted(props)}")
        for name, sub in props.items():
            lint_response_schema(spec, sub, f"{where}.{name}", seen)
    for key in ("items",):
        if isinstance(schema.get(key), dict):
            lint_response_schema(spec, schema[key], f"{where}[]", seen)
    for key in ("allOf", "anyOf", "oneOf"):
        for i, sub in enumerate(schema.get(key, [])):
            lint_response_schema(spec, sub, f"{where}.{key}[{i}]", seen)


def lint_money(spec):
    def visit(node, where):
        if isinstance(node, dict):
            for name, sub in (node.get("properties") or {}).items():
                if name.endswith("_micros") or "_micros_" in name:
                    target = deref(spec.doc, sub)
                    R.check(isinstance(target, dict) and target.get("type") == "integer",
                            f"{where}.{name}: money must be type: integer")
            for key, value in node.items():
                visit(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                visit(value, f"{where}/{i}")
    visit(spec.doc, "#")


def check_document(spec, binary):
    R.section = "document"
    doc = spec.doc
    R.check(isinstance(doc, dict), "the document is a mapping")
    R.check(isinstance(doc.get("openapi"), str) and re.fullmatch(r"3\.0\.\d+", doc.get("openapi", "")),
            f"openapi is 3.0.x (got {doc.get('openapi')!r})")
    info = doc.get("info") or {}
    R.check(isinstance(info.get("title"), str) and info["title"], "info.title is set")
    R.check(isinstance(info.get("version"), str) and info["version"], "info.version is set")
    R.check(isinstance(doc.get("paths"), dict) and doc["paths"], "paths is a non-empty mapping")
    for template in doc.get("paths", {}):
        R.check(template.startswith("/"), f"path {template!r} starts with /")

    refs = list(walk_refs(doc))
    bad = []
    for where, ref in refs:
        try:
            resolve_pointer(doc, ref)
        except KeyError:
            bad.append(f"{where}: {ref}")
    R.check(not bad, "every $ref resolves" + (": " + "; ".join(bad) if bad else ""))
    print(f"document: {len(refs)} $refs checked", flush=True)

    schemes = (doc.get("components") or {}).get("securitySchemes") or {}
    bearer = schemes.get("bearerAuth") or {}
    R.check(bearer.get("type") == "http" and str(bearer.get("scheme", "")).lower() == "bearer",
            "components.securitySchemes.bearerAuth is http bearer")
    schemas = (doc.get("components") or {}).get("schemas") or {}
    for name in ("User", "Session", "GpuType", "Image", "SshKey", "Instance", "SshEndpoint", "LedgerPage",
                 "Posting", "LedgerEntry", "BillingSummary", "Error", "Health"):
        R.check(name in schemas, f"components.schemas.{name} exists")
    R.check((schemas.get("SshEndpoint") or {}).get("nullable") is True, "SshEndpoint is nullable")
    states = ((schemas.get("Instance") or {}).get("properties") or {}).get("state", {}).get("enum")
    R.check(set(states or []) == {"creating", "starting", "running", "stopping", "stopped", "terminated",
                                  "failed"}, f"Instance.state enum (got {states})")
    idem = ((doc.get("components") or {}).get("parameters") or {}).get("IdempotencyKey") or {}
    R.check(idem.get("in") == "header" and idem.get("name") == "Idempotency-Key" and "422" in idem.get(
        "description", ""), "components.parameters.IdempotencyKey is the header and explains 422")

    for (method, template), operation in sorted(spec.operations.items()):
        where = f"{method} {template}"
        R.check(isinstance(operation.get("summary"), str) and operation["summary"], f"{where}: has a summary")
        responses = operation.get("responses") or {}
        R.check(responses, f"{where}: has responses")
        R.check(any(str(code).startswith("2") for code in responses), f"{where}: documents a success status")
        for code, response in responses.items():
            R.check(re.fullmatch(r"[1-5]\d\d", str(code)), f"{where}: response key {code!r} is a status code")
            response = deref(doc, response)
            R.check(isinstance(response.get("description"), str), f"{where} {code}: has a description")
            if str(code) >= "400":
                media = (response.get("content") or {}).get("application/json")
                R.check(media and media.get("schema") == {"$ref": "#/components/schemas/Error"},
                        f"{where} {code}: error responses use the Error schema")
                R.check(isinstance(response.get("x-error-codes"), list) and response["x-error-codes"],
                        f"{where} {code}: lists its error codes in x-error-codes")
            for media_type, media in (response.get("content") or {}).items():
                if media_type == "application/json":
                    lint_response_schema(spec, media.get("schema"), f"{where} {code}", set())
        placeholders = set(re.findall(r"\{([^}]+)\}", template))
        declared = {p.get("name") for p in spec.parameters(method, template) if p.get("in") == "path"}
        R.check(placeholders == declared, f"{where}: path parameters {sorted(declared)} match the template")
        for p in spec.parameters(method, template):
            if p.get("in") == "path":
                R.check(p.get("required") is True, f"{where}: path parameter {p.get('name')} is required")
        test_only = template.startswith("/v1/_test/")
        R.check(("test-only" in operation.get("tags", [])) == test_only,
                f"{where}: tagged test-only exactly when under /v1/_test/")
        if test_only:
            R.check("--test-clock" in operation.get("description", ""),
                    f"{where}: says it exists only with --test-clock")
        if spec.needs_bearer(method, template):
            R.check("401" in responses, f"{where}: an authenticated route documents 401")
            for requirement in spec.security(method, template):
                R.check(set(requirement) <= set(schemes), f"{where}: security scheme is defined")
        if spec.has_idempotency_key(method, template):
            R.check("422" in responses and "400" in responses,
                    f"{where}: a route honouring Idempotency-Key documents 400 and 422")
        if method in ("POST", "PUT", "PATCH") and operation.get("requestBody"):
            raw = "application/octet-stream" in (deref(spec.doc, operation["requestBody"]).get("content") or {})
            R.check(raw or spec.request_schema(method, template) is not None,
                    f"{where}: request body has a JSON schema (or is raw bytes)")
    lint_money(spec)

    documented = set(spec.operations)
    served = route_table(binary, test_clock=True)
    for route in sorted(served - documented):
        R.fail(f"route {route[0]} {route[1]} is served but not documented")
    for route in sorted(documented - served):
        R.fail(f"route {route[0]} {route[1]} is documented but not served")
    R.check(documented == served, f"documented routes == --print-routes --test-clock ({len(served)} routes)")
    plain = route_table(binary, test_clock=False)
    R.check(plain == served, "--print-routes lists every route, with or without --test-clock"
            f" (differ: {sorted(plain ^ served)})")
    # The test routes are served only with --test-clock (tst_api_auth checks the 404s).
    test_only = {op for op in documented if "test-only" in spec.operations[op].get("tags", [])}
    under_test = {op for op in served if op[1].startswith("/v1/_test/")}
    R.check(test_only == under_test,
            "the routes tagged test-only are exactly those under /v1/_test/"
            f" (differ: {sorted(test_only ^ under_test)})")
    print(f"document: {len(documented)} operations; route table matches: {documented == served}", flush=True)
    check_error_codes(spec, binary)


# ---- part B: the live server ----------------------------------------------------------------

class Server:
    def __init__(self, binary):
        self.binary = binary
        self.tmp = tempfile.mkdtemp(prefix="cardhour-openapi-")
        self.stderr_path = os.path.join(self.tmp, "stderr.log")
        self.proc = None
        self.port = None

    def start(self):
        data = os.path.join(self.tmp, "data")
        # A shared dataset, so that GET /v1/datasets has something to describe.
        dataset = os.path.join(self.tmp, "dataset")
        os.makedirs(dataset, exist_ok=True)
        with open(os.path.join(dataset, "train.csv"), "w") as f:
            f.write("x,y\n1,2\n")
        subprocess.run([self.binary, "datasets", "add", "demo", dataset, "--data", data], check=True,
                       stdout=subprocess.DEVNULL)
        self.stderr_file = open(self.stderr_path, "wb")
        # A cheap password hash (the production cost is checked in tests/security).
        self.proc = subprocess.Popen([self.binary, "--listen", "127.0.0.1:0", "--data", data, "--test-clock",
                                      "--runtime", "inprocess", "--scrypt-cost-log2", "10", "--allow-chaos"],
                                     stdout=subprocess.PIPE, stderr=self.stderr_file, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        line = b""
        while time.monotonic() < deadline and not line.endswith(b"\n"):
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.2)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 1)
                if not chunk:
                    break
                line += chunk
            elif self.proc.poll() is not None:
                break
        match = re.fullmatch(rb"listening http://127\.0\.0\.1:(\d+)\n", line)
        if not match:
            raise RuntimeError(f"the server did not announce its port (first line {line!r}); stderr: "
                               + self.stderr_tail())
        self.port = int(match.group(1))
        # Written before the listening line; /v1/_test/* answer only with it.
        with open(os.path.join(data, "test-clock-secret"), "rb") as f:
            self.test_secret = f.read().strip().decode("ascii")

    def stderr_tail(self):
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read()[-2000:].decode("utf-8", "replace")
        except OSError:
            return ""

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        if self.proc is not None and self.proc.stdout:
            self.proc.stdout.close()
        if getattr(self, "stderr_file", None):
            self.stderr_file.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


class Reply:
    def __init__(self, status, headers, raw):
        self.status = status
        self.headers = {k.lower(): v for k, v in headers}
        self.raw = raw
        self.json = None
        if raw:
            try:
                self.json = json.loads(raw.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                self.json = None

    @property
    def code(self):
        if isinstance(self.json, dict) and isinstance(self.json.get("error"), dict):
            return self.json["error"].get("code")
        return None


class Client:
    def __init__(self, spec, base):
        self.spec = spec
        self.base = base
        self.observed = {}  # (METHOD, template) -> set of statuses
        self.validated_bodies = 0
        self.requests = 0
        self.test_secret = None  # sent as X-CardHour-Test-Secret on /v1/_test/ paths

    def validate(self, method, path, reply, expect=None, label=""):
        template = self.spec.template_for(method, path)
        what = f"{method} {path}{' (' + label + ')' if label else ''}"
        if template is None:
            R.fail(f"{what}: no documented route matches")
            return
        self.observed.setdefault((method, template), set()).add(reply.status)
        if expect is not None:
            wanted = expect if isinstance(expect, (set, tuple, list)) else {expect}
            R.check(reply.status in wanted,
                    f"{what}: expected status {sorted(wanted)}, got {reply.status}: {reply.raw[:300]!r}")
        response = self.spec.response(method, template, reply.status)
        if not R.check(response is not None,
                       f"{what}: status {reply.status} is not documented for {method} {template}"
                       f" (body {reply.raw[:200]!r})"):
            return
        content = response.get("content") or {}
        for name, header in (response.get("headers") or {}).items():
            header = deref(self.spec.doc, header)
            value = reply.headers.get(name.lower())
            if header.get("required"):
                R.check(value is not None, f"{what}: documented header {name} is missing")
            if value is not None and "schema" in header:
                errors = schema_errors(self.spec.json_schema(header["schema"]), value)
                R.check(not errors, f"{what}: header {name}: {value!r} does not match: {errors}")
        if not content:
            R.check(reply.raw == b"", f"{what}: {reply.status} documents no body but got {reply.raw[:200]!r}")
            return
        if "application/json" in content:
            ctype = reply.headers.get("content-type", "")
            R.check(ctype.startswith("application/json"), f"{what}: Content-Type is {ctype!r}, not JSON")
            if not R.check(reply.json is not None or reply.raw == b"null",
                           f"{what}: body is not JSON: {reply.raw[:200]!r}"):
                return
            schema = content["application/json"].get("schema")
            if schema is not None:
                errors = schema_errors(self.spec.json_schema(schema), reply.json)
                self.validated_bodies += 1
                R.check(not errors, f"{what} -> {reply.status}: body does not match the schema: "
                                    + "; ".join(errors[:5]) + f" (body {reply.raw[:400]!r})")
            codes = response.get("x-error-codes")
            if codes and reply.code is not None:
                R.check(reply.code in codes,
                        f"{what} -> {reply.status}: error code {reply.code!r} not in documented {codes}")

    def call(self, method, path, body=None, token=None, headers=None, raw=None, expect=None, label="",
             timeout=10):
        reply = self.send(method, path, body, token, headers, raw, timeout)
        self.validate(method, path, reply, expect, label)
        return reply

    def send(self, method, path, body=None, token=None, headers=None, raw=None, timeout=10):
        """One request, not validated against any route (for paths and methods outside the document)."""
        self.requests += 1
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        if path.startswith("/v1/_test/") and self.test_secret:
            request.add_header("X-CardHour-Test-Secret", self.test_secret)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                reply = Reply(response.status, response.getheaders(), response.read())
        except urllib.error.HTTPError as error:
            reply = Reply(error.code, error.headers.items(), error.read())
        return reply

    def raw_exchange(self, method, path, payload, expect=None, label=""):
        """Sends `payload` (request head and body bytes) on a fresh socket and reads one reply."""
        self.requests += 1
        host, port = urllib.parse.urlsplit(self.base).hostname, urllib.parse.urlsplit(self.base).port
        with socket.create_connection((host, port), timeout=10) as s:
            try:
                s.sendall(payload)
            except OSError:
                pass
            data = b""
            while True:
                try:
                    chunk = s.recv(65536)
                except socket.timeout:
                    break
                except OSError:
                    break
                if not chunk:
                    break
                data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        match = re.match(rb"HTTP/1\.1 (\d{3})", lines[0] if lines else b"")
        if not R.check(match, f"{method} {path} ({label}): no HTTP response (got {data[:100]!r})"):
            return None
        headers = []
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers.append((name.decode().strip(), value.decode().strip()))
        reply = Reply(int(match.group(1)), headers, body)
        self.validate(method, path, reply, expect, label)
        return reply


def sse_events(response, deadline):
    """Yields (event, id, data) from an open SSE response until the deadline."""
    event, event_id, data = None, None, []
    while time.monotonic() < deadline:
        try:
            line = response.fp.readline()
        except socket.timeout:
            return
        if not line:
            return
        line = line.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data or event:
                yield event or "message", event_id, "\n".join(data)
            event, event_id, data = None, None, []
        elif line.startswith(":"):
            continue
        else:
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "event":
                event = value
            elif name == "data":
                data.append(value)
            elif name == "id":
                event_id = value


# ---- scenario helpers -----------------------------------------------------------------------

def make_ssh_key(tmp, name):
    path = os.path.join(tmp, name)
    subprocess.run(["ssh-keygen", "-t", "ed25519", "-N", "", "-f", path, "-q", "-C", f"{name}@openapi-test"],
                   check=True, timeout=30, stdin=subprocess.DEVNULL)
    with open(path + ".pub") as f:
        return f.read().strip()


def wait_state(c, token, instance_id, states, timeout=10.0):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        reply = c.call("GET", f"/v1/instances/{instance_id}", token=token, expect=200, label="poll")
        last = reply.json.get("state") if isinstance(reply.json, dict) else None
        if last in states:
            return reply.json
        time.sleep(0.02)
    R.fail(f"instance {instance_id} did not reach {states} within {timeout}s (last state {last})")
    return None


def signup(c, email, password="correct horse battery"):
    reply = c.call("POST", "/v1/auth/signup", {"email": email, "password": password}, expect=201)
    if reply.status != 201:
        raise Abort()
    return reply.json["token"], reply.json


def probe_request_body(c, method, path, base, token=None, label=""):
    """Derives invalid bodies from the documented request schema and expects 400 for each."""
    template = c.spec.template_for(method, path)
    schema = c.spec.request_schema(method, template)
    if schema is None:
        return 0
    probes = []
    strict = schema.get("additionalProperties") is False
    if strict:
        probes.append(("unknown member", dict(base, x_undocumented_member=1), "unknown_field"))
    for name in schema.get("required", []):
        body = dict(base)
        body.pop(name, None)
        probes.append((f"missing {name}", body, None))
    for name, prop in (schema.get("properties") or {}).items():
        types = prop.get("type")
        types = types if isinstance(types, list) else [types]
        if "maxLength" in prop:
            probes.append((f"{name} over maxLength", dict(base, **{name: "a" * (prop["maxLength"] + 1)}), None))
        if prop.get("minLength", 0) > 1:
            probes.append((f"{name} under minLength", dict(base, **{name: "a" * (prop["minLength"] - 1)}), None))
        if prop.get("pattern") == r"\S":
            probes.append((f"{name} blank", dict(base, **{name: "   "}), None))
        if "minimum" in prop:
            probes.append((f"{name} under minimum", dict(base, **{name: prop["minimum"] - 1}), None))
        if "maximum" in prop:
            probes.append((f"{name} over maximum", dict(base, **{name: prop["maximum"] + 1}), None))
        if "enum" in prop and "integer" in types:
            values = sorted(v for v in prop["enum"] if v is not None)
            outside = [values[0] - 1, values[-1] + 1]
            outside += [v for v in range(values[0], values[-1]) if v not in values][:1]
            for value in outside:
                probes.append((f"{name} = {value} (not in enum)", dict(base, **{name: value}), None))
        if "array" in types:
            items = prop.get("items") or {}
            if "maxItems" in prop:
                probes.append((f"{name} over maxItems",
                               dict(base, **{name: [f"id{i}" for i in range(prop["maxItems"] + 1)]}), None))
            if "maxLength" in items:
                probes.append((f"{name} item over maxLength", dict(base, **{name: ["a" * (items["maxLength"] + 1)]}),
                               None))
            if items.get("minLength", 0) >= 1:
                probes.append((f"{name} empty item", dict(base, **{name: [""]}), None))
        if strict:
            if "string" in types:
                probes.append((f"{name} not a string", dict(base, **{name: 123}), None))
            if "integer" in types:
                probes.append((f"{name} not an integer (string)", dict(base, **{name: "1"}), None))
                probes.append((f"{name} not an integer (fraction)", dict(base, **{name: 1.5}), None))
            if "number" in types:
                probes.append((f"{name} not a number", dict(base, **{name: "1"}), None))
            if "array" in types:
                probes.append((f"{name} not an array", dict(base, **{name: "x"}), None))
    for what, body, code in probes:
        reply = c.call(method, path, body, token=token, expect=400, label=f"{label}probe: {what}")
        if code is not None and reply.status == 400:
            R.check(reply.code == code, f"{method} {path} probe {what}: code {reply.code!r}, expected {code!r}")
    # Non-object and non-JSON bodies (an empty one only where the body is required).
    operation = c.spec.doc["paths"][template][method.lower()]
    bad_bodies = [("not JSON", b"{not json"), ("a JSON array", b"[1, 2]")]
    if operation.get("requestBody", {}).get("required", False):
        bad_bodies.append(("empty", b""))
    for what, raw in bad_bodies:
        reply = c.call(method, path, token=token, raw=raw, expect=400, label=f"{label}probe: {what}")
        if reply.status == 400:
            R.check(reply.code == "invalid_json", f"{method} {path} probe {what}: code {reply.code!r}")
    return len(probes) + len(bad_bodies)


# ---- the scenario ---------------------------------------------------------------------------

def run_scenario(c, tmp, server_port):
    spec = c.spec
    probes = 0

    R.section = "health"
    health = c.call("GET", "/v1/health", expect=200)
    R.check(health.json and health.json.get("test_clock") is True, "health says test_clock: true")
    version = (spec.doc.get("info") or {}).get("version")
    R.check(health.json and health.json.get("version") == version,
            f"health's version is the document's info.version {version!r}"
            f" (got {(health.json or {}).get('version')!r})")
    R.check(health.json and health.json.get("time_zone") == "Asia/Shanghai",
            f"health states the provider's zone (got {(health.json or {}).get('time_zone')!r})")
    c.call("GET", "/v1/_test/clock", expect=200)
    # The sandbox proof (paths/SandboxSecret): an answer for a nonce, 400 for a bad one.
    proof = c.call("POST", "/v1/_sandbox/prove", body={"nonce": "0123456789abcdef" * 4}, expect=200)
    R.check(proof.json and len(proof.json.get("proof", "")) == 64, "the sandbox answers a proof")
    c.call("POST", "/v1/_sandbox/prove", body={"nonce": "not hex"}, expect=400)

    R.section = "405 and 404 outside the document"
    error_schema = spec.json_schema({"$ref": "#/components/schemas/Error"})
    for template, item in sorted(spec.doc["paths"].items()):
        documented = {m.upper() for m in item if m in METHODS}
        path = re.sub(r"\{[^}]+\}", "00000000-0000-4000-8000-000000000000", template)
        for method in sorted({"GET", "POST", "DELETE", "PUT", "PATCH"} - documented):
            reply = c.send(method, path, body={} if method in ("POST", "PUT", "PATCH") else None)
            allow = {m.strip() for m in reply.headers.get("allow", "").split(",") if m.strip()}
            R.check(reply.status == 405 and reply.code == "method_not_allowed",
                    f"{method} {template}: an undocumented method answers 405 (got {reply.status})")
            R.check(allow == documented,
                    f"{method} {template}: Allow {sorted(allow)} == documented {sorted(documented)}")
            R.check(not schema_errors(error_schema, reply.json), f"{method} {template}: 405 body is an Error")
    for path in ("/v1/nope", "/v1/instances/x/reboot", "/v2/health"):
        reply = c.send("GET", path)
        R.check(reply.status == 404 and reply.code == "not_found" and not schema_errors(error_schema, reply.json),
                f"GET {path}: an unknown path answers 404 not_found (got {reply.status} {reply.raw[:100]!r})")

    R.section = "401 sweep"
    fake_uuid = "00000000-0000-4000-8000-000000000000"
    for (method, template) in sorted(spec.operations):
        if not spec.needs_bearer(method, template):
            continue
        path = re.sub(r"\{[^}]+\}", fake_uuid, template)
        body = {} if method == "POST" else None
        for label, token_header in (("no token", None), ("malformed token", "Bearer " + "A" * 43),
                                    ("short token", "Bearer abc"), ("basic auth", "Basic dXNlcjpwYXNz")):
            headers = {"Authorization": token_header} if token_header else {}
            reply = c.call(method, path, body, headers=headers, expect=401, label=label)
            if reply.status == 401:
                R.check(reply.code == "unauthorized", f"{method} {path} ({label}): code {reply.code!r}")

    R.section = "signup"
    alice_token, alice_session = signup(c, "Alice@Example.com")
    R.check(alice_session["user"]["email"] == "alice@example.com", "e-mail is lower-cased")
    R.check(alice_session["balance_micros"] == 10_000_000, "a new account has the 10 yuan trial credit")
    reply = c.call("POST", "/v1/auth/signup", {"email": "  alice@example.COM ", "password": "another password"},
                   expect=409, label="duplicate")
    R.check(reply.code == "email_taken", f"duplicate signup code {reply.code!r}")
    reply = c.call("POST", "/v1/auth/signup", {"email": "not-an-address", "password": "long enough"},
                   expect=400, label="bad e-mail")
    R.check(reply.code == "invalid_email", f"invalid e-mail code {reply.code!r}")
    reply = c.call("POST", "/v1/auth/signup", {"email": "weak@example.com", "password": "short"},
                   expect=400, label="weak password")
    R.check(reply.code == "weak_password", f"weak password code {reply.code!r}")
    probes += probe_request_body(c, "POST", "/v1/auth/signup",
                                 {"email": "probe@example.com", "password": "probe password"})
    password = c.spec.request_schema("POST", "/v1/auth/signup")["properties"]["password"]
    c.call("POST", "/v1/auth/signup", {"email": "min-pw@example.com", "password": "p" * password["minLength"]},
           expect=201, label="password at the documented minLength")
    c.call("POST", "/v1/auth/signup", {"email": "max-pw@example.com", "password": "p" * password["maxLength"]},
           expect=201, label="password at the documented maxLength")
    for (method, template) in sorted(spec.operations):
        if "413" not in spec.operations[(method, template)].get("responses", {}):
            continue
        path = re.sub(r"\{[^}]+\}", fake_uuid, template)
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                f"Content-Length: {1024 * 1024 + 1}\r\n\r\n").encode()
        reply = c.raw_exchange(method, path, head, expect=413, label="body over 1 MiB")
        if reply is not None:
            R.check(reply.code == "payload_too_large", f"{method} {path} 413 code {reply.code!r}")

    R.section = "login"
    reply = c.call("POST", "/v1/auth/login", {"email": "alice@example.com", "password": "wrong password"},
                   expect=401, label="wrong password")
    R.check(reply.code == "invalid_credentials", f"wrong password code {reply.code!r}")
    reply = c.call("POST", "/v1/auth/login", {"email": "nobody@example.com", "password": "whatever"},
                   expect=401, label="unknown user")
    reply = c.call("POST", "/v1/auth/login", {"email": "ALICE@example.com", "password": "correct horse battery"},
                   expect=200)
    R.check(reply.json and reply.json.get("token") != alice_token, "log-in issues a new token")
    probes += probe_request_body(c, "POST", "/v1/auth/login",
                                 {"email": "alice@example.com", "password": "correct horse battery"})

    R.section = "me"
    me = c.call("GET", "/v1/me", token=alice_token, expect=200)
    R.check(me.json and me.json.get("email") == "alice@example.com", "GET /v1/me names the caller")
    limits = c.call("GET", "/v1/limits", token=alice_token, expect=200).json
    R.check(limits and limits["instances"]["used"] == 0 and limits["instances"]["limit"] >= 1,
            "GET /v1/limits states the instance limit and that none is used")

    R.section = "catalog"
    gpus = c.call("GET", "/v1/catalog/gpus", token=alice_token, expect=200).json or []
    images = c.call("GET", "/v1/catalog/images", token=alice_token, expect=200).json or []
    datasets = c.call("GET", "/v1/datasets", token=alice_token, expect=200).json
    R.check(isinstance(datasets, list) and len(datasets) == 1 and datasets[0]["name"] == "demo"
            and datasets[0]["size_bytes"] == 8 and datasets[0]["mount_path"] == "/datasets/demo",
            "the registered dataset is listed with its size")
    c.call("GET", "/v1/datasets", expect=401, label="no token")

    gpu_ids = {g["id"] for g in gpus if isinstance(g, dict) and "id" in g}
    R.check({"rtx3090", "a100-80g"} <= gpu_ids, f"the catalog offers rtx3090 and a100-80g ({sorted(gpu_ids)})")
    R.check(any(i.get("id") == "base" for i in images if isinstance(i, dict)), "the catalog offers image base")
    cheap = min((g for g in gpus if g.get("capacity", 0) >= 2 and g.get("slice") is None),
                key=lambda g: g["price_per_hour_micros"])["id"]

    R.section = "ssh-keys"
    key1 = make_ssh_key(tmp, "key1")
    key2 = make_ssh_key(tmp, "key2")
    key3 = make_ssh_key(tmp, "key3")
    k1 = c.call("POST", "/v1/ssh-keys", {"name": "laptop", "public_key": key1}, token=alice_token, expect=201).json
    R.check(k1 and k1.get("type") == "ssh-ed25519" and k1.get("bits") == 256, "an ed25519 key: type and bits")
    reply = c.call("POST", "/v1/ssh-keys", {"name": "again", "public_key": key1}, token=alice_token, expect=409,
                   label="duplicate")
    R.check(reply.code == "duplicate_ssh_key", f"duplicate key code {reply.code!r}")
    reply = c.call("POST", "/v1/ssh-keys", {"public_key": "ssh-ed25519 AAAAnotbase64!!"}, token=alice_token,
                   expect=400, label="garbage key")
    R.check(reply.code == "invalid_ssh_key", f"garbage key code {reply.code!r}")
    k2 = c.call("POST", "/v1/ssh-keys", {"name": None, "public_key": key2}, token=alice_token, expect=201,
                label="null name").json
    R.check(k2 and k2.get("name") == "key", "a null name becomes `key`")
    listed = c.call("GET", "/v1/ssh-keys", token=alice_token, expect=200).json
    R.check(isinstance(listed, list) and len(listed) == 2, "GET /v1/ssh-keys lists two keys")
    c.call("DELETE", f"/v1/ssh-keys/{k2['id']}", token=alice_token, expect=204)
    c.call("DELETE", f"/v1/ssh-keys/{k2['id']}", token=alice_token, expect=404, label="already deleted")
    c.call("DELETE", f"/v1/ssh-keys/{fake_uuid}", token=alice_token, expect=404, label="unknown id")
    # Idempotency-Key on POST /v1/ssh-keys.
    first = c.call("POST", "/v1/ssh-keys", {"name": "idem", "public_key": key3}, token=alice_token,
                   headers={"Idempotency-Key": "key-idem-1"}, expect=201)
    again = c.call("POST", "/v1/ssh-keys", {"name": "idem", "public_key": key3}, token=alice_token,
                   headers={"Idempotency-Key": "key-idem-1"}, expect=201, label="replay")
    R.check(again.headers.get("idempotent-replayed") == "true", "a replay carries Idempotent-Replayed: true")
    R.check(again.json == first.json, "a replay returns the stored body")
    reply = c.call("POST", "/v1/ssh-keys", {"name": "other", "public_key": key3}, token=alice_token,
                   headers={"Idempotency-Key": "key-idem-1"}, expect=422, label="key reused")
    R.check(reply.code == "idempotency_key_reused", f"reused key code {reply.code!r}")
    probes += probe_request_body(c, "POST", "/v1/ssh-keys", {"name": "probe", "public_key": key2},
                                 token=alice_token)
    name = c.spec.request_schema("POST", "/v1/ssh-keys")["properties"]["name"]
    long_key = c.call("POST", "/v1/ssh-keys", {"name": "n" * name["maxLength"], "public_key": key2},
                      token=alice_token, expect=201, label="name at the documented maxLength").json
    if long_key and "id" in long_key:
        c.call("DELETE", f"/v1/ssh-keys/{long_key['id']}", token=alice_token, expect=204)

    R.section = "Idempotency-Key sweep"
    for (method, template) in sorted(spec.operations):
        if not spec.has_idempotency_key(method, template):
            continue
        path = re.sub(r"\{[^}]+\}", fake_uuid, template)
        for label, key in (("key too long", "k" * 256), ("key with a space", "a b"), ("empty key", "")):
            reply = c.call(method, path, {}, token=alice_token, headers={"Idempotency-Key": key}, expect=400,
                           label=label)
            if reply.status == 400:
                R.check(reply.code == "invalid_idempotency_key", f"{method} {path} ({label}): code {reply.code!r}")

    R.section = "billing"
    topup = c.call("POST", "/v1/billing/topup", {"amount_micros": 5_000_000}, token=alice_token, expect=201).json
    R.check(topup and topup["posting"]["kind"] == "topup" and topup["posting"]["amount_micros"] == 5_000_000,
            "a top-up posts a topup of the amount")
    first = c.call("POST", "/v1/billing/topup", {"amount_micros": 10_000}, token=alice_token,
                   headers={"Idempotency-Key": "topup-1"}, expect=201)
    again = c.call("POST", "/v1/billing/topup", {"amount_micros": 10_000}, token=alice_token,
                   headers={"Idempotency-Key": "topup-1"}, expect=201, label="replay")
    R.check(again.json == first.json and again.headers.get("idempotent-replayed") == "true",
            "a top-up replay returns the stored response")
    reply = c.call("POST", "/v1/billing/topup", {"amount_micros": 20_000}, token=alice_token,
                   headers={"Idempotency-Key": "topup-1"}, expect=422, label="key reused")
    R.check(reply.code == "idempotency_key_reused", f"reused key code {reply.code!r}")
    probes += probe_request_body(c, "POST", "/v1/billing/topup", {"amount_micros": 10_000}, token=alice_token)
    other_token, _ = signup(c, "other@example.com")
    reply = c.call("POST", "/v1/billing/topup", {"amount_micros": 20_000}, token=other_token,
                   headers={"Idempotency-Key": "topup-1"}, expect=201, label="another user's key")
    R.check(reply.headers.get("idempotent-replayed") is None, "Idempotency-Key is scoped per user")
    amount = c.spec.request_schema("POST", "/v1/billing/topup")["properties"]["amount_micros"]
    for bound in ("minimum", "maximum"):
        c.call("POST", "/v1/billing/topup", {"amount_micros": amount[bound]}, token=other_token, expect=201,
               label=f"amount_micros at the documented {bound}")
    rich_token, _ = signup(c, "rich@example.com")
    for i in range(12):
        reply = c.call("POST", "/v1/billing/topup", {"amount_micros": 100_000_000_000}, token=rich_token,
                       expect={201, 400}, label=f"to the limit #{i + 1}")
        if reply.status == 400:
            R.check(reply.code == "balance_limit", f"over-limit top-up code {reply.code!r}")
            R.check(i == 9, f"the 10th top-up of 100 000 yuan crosses the limit (it was #{i + 1})")
            break
    else:
        R.fail("top-ups never hit the 1 000 000 yuan balance limit")

    page = c.call("GET", "/v1/billing/ledger", token=alice_token, expect=200).json
    R.check(page and [p["kind"] for p in page["postings"]][-1] == "trial_credit", "the oldest posting is the trial")
    # The amount a new user is told before signing up is the one the sign-up grants.
    trial = c.call("GET", "/v1/health", expect=200).json or {}
    R.check(page and page["postings"][-1]["amount_micros"] == trial.get("trial_credit_micros"),
            f"health's trial_credit_micros {trial.get('trial_credit_micros')!r} is the trial posted"
            f" ({page['postings'][-1]['amount_micros'] if page else None!r})")
    page1 = c.call("GET", "/v1/billing/ledger?limit=1", token=alice_token, expect=200).json
    R.check(page1 and len(page1["postings"]) == 1 and page1["next_before"] is not None, "limit=1 pages")
    if page1 and page1.get("next_before"):
        page2 = c.call("GET", f"/v1/billing/ledger?limit=1&before={page1['next_before']}", token=alice_token,
                       expect=200).json
        R.check(page2 and page2["postings"] and page2["postings"][0]["seq"] < page1["postings"][0]["seq"],
                "before= reads further back")
    ledger_params = {p["name"]: p["schema"] for p in spec.parameters("GET", "/v1/billing/ledger")}
    bad_queries = ["limit=abc", "before=abc", "limit=", "before=-5"]
    for name, schema in ledger_params.items():
        if "minimum" in schema:
            bad_queries.append(f"{name}={schema['minimum'] - 1}")
        if "maximum" in schema:
            bad_queries.append(f"{name}={schema['maximum'] + 1}")
    for name, schema in ledger_params.items():
        for bound in ("minimum", "maximum"):
            if bound in schema:
                c.call("GET", f"/v1/billing/ledger?{name}={schema[bound]}", token=alice_token, expect=200,
                       label=f"{name} at the documented {bound}")
    for query in bad_queries:
        expect = 200 if query == "limit=" else 400  # an empty value means the default
        reply = c.call("GET", f"/v1/billing/ledger?{query}", token=alice_token, expect=expect, label=query)
        if expect == 400 and reply.status == 400:
            R.check(reply.code == "invalid_query", f"ledger ?{query}: code {reply.code!r}")
    c.call("GET", "/v1/billing/summary", token=alice_token, expect=200)

    R.section = "events"
    bad = c.call("GET", "/v1/events", expect=401, label="no token")
    conn = http.client.HTTPConnection("127.0.0.1", server_port, timeout=10)
    instance_id = None
    seen = {}
    first_instance_event_id = None
    try:
        conn.request("GET", "/v1/events", headers={"Authorization": f"Bearer {alice_token}",
                                                   "Accept": "text/event-stream"})
        response = conn.getresponse()
        template = spec.template_for("GET", "/v1/events")
        c.observed.setdefault(("GET", template), set()).add(response.status)
        R.check(response.status == 200, f"GET /v1/events: status {response.status}")
        doc_response = spec.response("GET", template, response.status) or {}
        R.check("text/event-stream" in (doc_response.get("content") or {}), "the stream is documented as SSE")
        R.check((response.getheader("Content-Type") or "").startswith("text/event-stream"),
                f"Content-Type is {response.getheader('Content-Type')!r}")
        event_schemas = {name: spec.json_schema(schema)
                         for name, schema in (doc_response.get("x-sse-events") or {}).items()}
        R.check({"hello", "instance", "billing"} <= set(event_schemas), "x-sse-events documents the event types")
        deadline = time.monotonic() + 10
        events = sse_events(response, deadline)
        created = False
        for event, event_id, data in events:
            seen[event] = seen.get(event, 0) + 1
            if not R.check(event in event_schemas, f"SSE event type {event!r} is documented"):
                continue
            try:
                payload = json.loads(data)
            except ValueError:
                R.fail(f"SSE {event} data is not JSON: {data[:200]!r}")
                continue
            errors = schema_errors(event_schemas[event], payload)
            c.validated_bodies += 1
            R.check(not errors, f"SSE {event} data does not match the schema: {errors[:5]} ({data[:300]!r})")
            if event == "hello":
                R.check(event_id is None, "hello carries no id")
                R.check(payload.get("user_id") == alice_session["user"]["id"], "hello names the caller")
            else:
                R.check(event_id is not None and event_id.isdigit(), f"{event} event carries a numeric id")
            if not created:
                created = True
                reply = c.call("POST", "/v1/instances", {"name": "sse-watch", "gpu_type": cheap, "image": "base",
                                                         "ssh_key_ids": [k1["id"]]},
                               token=alice_token, expect=202)
                instance_id = reply.json["id"] if reply.status == 202 else None
                R.check(reply.json and reply.json.get("state") == "creating" and
                        reply.json.get("ssh_key_ids") == [k1["id"]], "a new instance is creating, with its key")
            if event == "instance" and payload.get("id") == instance_id:
                if first_instance_event_id is None:
                    first_instance_event_id = event_id
                if payload.get("state") == "running":
                    break
        print(f"events: SSE event types seen on the first stream: {seen}", flush=True)
        R.check(seen.get("hello") == 1, f"one hello event (saw {seen})")
        R.check(seen.get("instance", 0) >= 1 and first_instance_event_id is not None,
                f"an instance event for the new instance arrived (saw {seen})")
    except (OSError, http.client.HTTPException) as error:
        R.fail(f"SSE stream failed: {error!r} (saw {seen})")
    finally:
        conn.close()
    if first_instance_event_id is not None:
        # Reconnecting with Last-Event-ID replays the buffered events after it.
        conn = http.client.HTTPConnection("127.0.0.1", server_port, timeout=10)
        try:
            conn.request("GET", "/v1/events", headers={"Authorization": f"Bearer {alice_token}",
                                                       "Last-Event-ID": str(int(first_instance_event_id) - 1)})
            response = conn.getresponse()
            R.check(response.status == 200, "reconnect with Last-Event-ID: 200")
            replayed = None
            for event, event_id, data in sse_events(response, time.monotonic() + 5):
                if event == "instance":
                    replayed = event_id
                    break
            R.check(replayed == first_instance_event_id,
                    f"Last-Event-ID replays the next event (wanted id {first_instance_event_id}, got {replayed})")
        except (OSError, http.client.HTTPException) as error:
            R.fail(f"SSE reconnect failed: {error!r}")
        finally:
            conn.close()

    R.section = "instances"
    if instance_id is None:
        reply = c.call("POST", "/v1/instances", {"gpu_type": cheap, "image": "base"}, token=alice_token, expect=202)
        instance_id = reply.json["id"]
    running = wait_state(c, alice_token, instance_id, {"running"})
    if running:
        R.check(running["running_since"] is not None, "a running instance has running_since")
    listed = c.call("GET", "/v1/instances", token=alice_token, expect=200).json
    R.check(isinstance(listed, list) and any(i["id"] == instance_id for i in listed), "the list has the instance")
    # Telemetry: a sample a second while running (the in-process runtime measures no load).
    deadline = time.monotonic() + 10
    metrics = None
    while time.monotonic() < deadline:
        metrics = c.call("GET", f"/v1/instances/{instance_id}/metrics?since=2000-01-01T00:00:00Z", token=alice_token,
                         expect=200).json
        if metrics and metrics["samples"]:
            break
        time.sleep(0.2)
    R.check(bool(metrics and metrics["samples"]), "a running instance has metrics samples")
    if metrics and metrics["samples"]:
        R.check(metrics["simulated"] is True, "sandbox cards are marked simulated")
        R.check(len(metrics["samples"][-1]["gpus"]) == running["gpu_count"] if running else True,
                "one GPU sample per card")
    c.call("GET", f"/v1/instances/{instance_id}/metrics?step=60", token=alice_token, expect=200, label="step 60")
    for query in ("step=0", "step=3601", "step=x", "since=yesterday"):
        c.call("GET", f"/v1/instances/{instance_id}/metrics?{query}", token=alice_token, expect=400, label=query)
    c.call("POST", f"/v1/instances/{instance_id}/start", token=alice_token, expect=409, label="start running")
    stopping = c.call("POST", f"/v1/instances/{instance_id}/stop", token=alice_token,
                      headers={"Idempotency-Key": "stop-1"}, expect=202).json
    R.check(stopping and stopping["state"] == "stopping" and stopping["state_reason"] == "stopped_by_user",
            "stop: stopping, stopped_by_user")
    replay = c.call("POST", f"/v1/instances/{instance_id}/stop", token=alice_token,
                    headers={"Idempotency-Key": "stop-1"}, expect=202, label="replay")
    R.check(replay.json == stopping, "a stop replay returns the stored instance")
    wait_state(c, alice_token, instance_id, {"stopped"})
    reply = c.call("POST", f"/v1/instances/{instance_id}/stop", token=alice_token, expect=409, label="stop stopped")
    R.check(reply.code == "illegal_transition", f"stop stopped: code {reply.code!r}")
    started = c.call("POST", f"/v1/instances/{instance_id}/start", token=alice_token,
                     headers={"Idempotency-Key": "start-1"}, expect=202).json
    R.check(started and started["state"] == "starting", "start: starting")
    c.call("POST", f"/v1/instances/{instance_id}/start", token=alice_token,
           headers={"Idempotency-Key": "start-1"}, expect=202, label="replay")
    c.call("POST", f"/v1/instances/{instance_id}/stop", token=alice_token,
           headers={"Idempotency-Key": "start-1"}, expect=422, label="key of a start reused for a stop")
    c.call("POST", f"/v1/instances/{instance_id}/start", token=alice_token,
           headers={"Idempotency-Key": "stop-1"}, expect=422, label="key of a stop reused for a start")
    wait_state(c, alice_token, instance_id, {"running"})
    R.section = "instance keys"
    extra = c.call("POST", "/v1/ssh-keys", {"name": "extra", "public_key": make_ssh_key(tmp, "extra")},
                   token=alice_token, expect=201).json
    if extra and "id" in extra:
        added = c.call("POST", f"/v1/instances/{instance_id}/ssh-keys", {"key_id": extra["id"]},
                       token=alice_token, expect=200).json
        R.check(added and extra["id"] in added["ssh_key_ids"], "a key added to an instance is listed on it")
        c.call("POST", f"/v1/instances/{instance_id}/ssh-keys", {"key_id": extra["id"]},
               token=other_token, expect=400, label="another user's key")
        c.call("POST", f"/v1/instances/{instance_id}/ssh-keys", {"key_id": 5}, token=alice_token, expect=400,
               label="key_id not a string")
        removed = c.call("DELETE", f"/v1/instances/{instance_id}/ssh-keys/{extra['id']}", token=alice_token,
                         expect=200).json
        R.check(removed and extra["id"] not in removed["ssh_key_ids"], "a removed key is gone from the instance")
        c.call("DELETE", f"/v1/instances/{instance_id}/ssh-keys/{extra['id']}", token=alice_token, expect=404,
               label="not installed")
        c.call("DELETE", f"/v1/instances/{instance_id}/ssh-keys/{extra['id']}", token=other_token, expect=404,
               label="another user's instance")
    c.call("POST", "/v1/_test/clock/advance", {"seconds": 90}, expect=200)
    summary = c.call("GET", "/v1/billing/summary", token=alice_token, expect=200).json
    R.check(summary and summary["spend_rate_micros_per_hour"] > 0 and summary["runs_out_at"] is not None
            and summary["instances"], "the summary shows the running instance")
    gone = c.call("DELETE", f"/v1/instances/{instance_id}", token=alice_token, expect=200).json
    R.check(gone and gone["state"] == "terminated" and gone["terminated_at"] is not None, "terminate")
    reply = c.call("DELETE", f"/v1/instances/{instance_id}", token=alice_token, expect=409, label="again")
    R.check(reply.code == "illegal_transition", f"terminate twice: code {reply.code!r}")
    c.call("POST", f"/v1/instances/{instance_id}/stop", token=alice_token, expect=409, label="stop terminated")
    c.call("POST", f"/v1/instances/{instance_id}/start", token=alice_token, expect=409, label="start terminated")
    listed = c.call("GET", "/v1/instances", token=alice_token, expect=200).json or []
    R.check(all(i["id"] != instance_id for i in listed), "terminated instances are hidden by default")
    for flag in ("true", "1"):
        listed = c.call("GET", f"/v1/instances?include_terminated={flag}", token=alice_token, expect=200).json or []
        R.check(any(i["id"] == instance_id for i in listed), f"include_terminated={flag} lists terminated ones")
    for method, suffix in (("GET", ""), ("DELETE", ""), ("POST", "/stop"), ("POST", "/start"), ("GET", "/metrics")):
        c.call(method, f"/v1/instances/{fake_uuid}{suffix}", token=alice_token, expect=404, label="unknown id")
    bob_token, _ = signup(c, "bob@example.com")
    for method, suffix in (("GET", ""), ("DELETE", ""), ("POST", "/stop"), ("POST", "/start"), ("GET", "/metrics")):
        c.call(method, f"/v1/instances/{instance_id}{suffix}", token=bob_token, expect=404,
               label="another user's instance")
    c.call("DELETE", f"/v1/ssh-keys/{k1['id']}", token=bob_token, expect=404, label="another user's key")
    for body, code in (({"gpu_type": "no-such-gpu", "image": "base"}, "unknown_gpu_type"),
                       ({"gpu_type": cheap, "image": "no-such-image"}, "unknown_image"),
                       ({"gpu_type": cheap, "image": "base", "gpu_count": 3}, "invalid_gpu_count"),
                       ({"gpu_type": cheap, "image": "base", "ssh_key_ids": [fake_uuid]}, "unknown_ssh_key"),
                       ({"gpu_type": cheap, "image": "base", "ssh_key_ids": [k1["id"]]}, "unknown_ssh_key"),
                       ({"gpu_type": cheap, "image": "base", "datasets": ["no-such-dataset"]}, "unknown_dataset")):
        token = bob_token if code == "unknown_ssh_key" else alice_token
        reply = c.call("POST", "/v1/instances", body, token=token, expect=400, label=code)
        R.check(reply.code == code, f"create {body}: code {reply.code!r}, expected {code}")
    probes += probe_request_body(c, "POST", "/v1/instances",
                                 {"name": "probe", "gpu_type": cheap, "image": "base", "gpu_count": 1,
                                  "ssh_key_ids": [k1["id"]], "datasets": ["demo"]}, token=alice_token)
    name = c.spec.request_schema("POST", "/v1/instances")["properties"]["name"]
    long_name = c.call("POST", "/v1/instances", {"name": "n" * name["maxLength"], "gpu_type": cheap,
                                                 "image": "base", "gpu_count": 2}, token=alice_token,
                       expect=202, label="name at the documented maxLength").json
    if long_name and "id" in long_name:
        R.check(long_name["name"] == "n" * name["maxLength"] and long_name["gpu_count"] == 2,
                "name and gpu_count are kept")
        c.call("DELETE", f"/v1/instances/{long_name['id']}", token=alice_token, expect=200)
    first = c.call("POST", "/v1/instances", {"name": "idem", "gpu_type": cheap, "image": "base"},
                   token=alice_token, headers={"Idempotency-Key": "create-1"}, expect=202)
    again = c.call("POST", "/v1/instances", {"image": "base", "gpu_type": cheap, "name": "idem"},
                   token=alice_token, headers={"Idempotency-Key": "create-1"}, expect=202,
                   label="replay with members reordered")
    R.check(first.json and again.json and first.json.get("id") == again.json.get("id"),
            "a create replay returns the same instance")
    R.check(again.headers.get("idempotent-replayed") == "true", "a create replay is marked")
    c.call("POST", "/v1/instances", {"name": "idem2", "gpu_type": cheap, "image": "base"}, token=alice_token,
           headers={"Idempotency-Key": "create-1"}, expect=422, label="key reused")
    key4 = make_ssh_key(tmp, "key4")
    k4 = c.call("POST", "/v1/ssh-keys", {"name": "short-lived", "public_key": key4}, token=alice_token,
                expect=201).json
    keyed = c.call("POST", "/v1/instances", {"gpu_type": cheap, "image": "base", "ssh_key_ids": [k4["id"], k4["id"]]},
                   token=alice_token, expect=202).json
    R.check(keyed and keyed["ssh_key_ids"] == [k4["id"]], "duplicate ssh_key_ids are ignored")
    c.call("DELETE", f"/v1/ssh-keys/{k4['id']}", token=alice_token, expect=204, label="a key in use")
    keyed = c.call("GET", f"/v1/instances/{keyed['id']}", token=alice_token, expect=200).json
    R.check(keyed and keyed["ssh_key_ids"] == [k4["id"]], "an instance keeps the ids of deleted keys")
    c.call("DELETE", f"/v1/instances/{keyed['id']}", token=alice_token, expect=200)
    if first.json and "id" in first.json:
        wait_state(c, alice_token, first.json["id"], {"running"})
        c.call("DELETE", f"/v1/instances/{first.json['id']}", token=alice_token, expect=200)

    R.section = "models"
    exercise_models(c, alice_token, bob_token, cheap)

    R.section = "chaos"
    probes += exercise_chaos(c, alice_token, bob_token, cheap)

    R.section = "snapshots"
    source = c.call("POST", "/v1/instances", {"name": "snap-src", "gpu_type": cheap, "image": "base", "gpu_count": 2},
                    token=alice_token, expect=202).json
    if source and "id" in source:
        wait_state(c, alice_token, source["id"], {"running"})
        snap = c.call("POST", f"/v1/instances/{source['id']}/snapshots", {"name": "s1"}, token=alice_token,
                      headers={"Idempotency-Key": "snap-1"}, expect=202).json
        replay = c.call("POST", f"/v1/instances/{source['id']}/snapshots", {"name": "s1"}, token=alice_token,
                        headers={"Idempotency-Key": "snap-1"}, expect=202, label="replay")
        R.check(snap and replay.json and replay.json.get("id") == snap.get("id"), "a snapshot replay returns it")
        c.call("POST", f"/v1/instances/{source['id']}/snapshots", token=alice_token, raw=b"", expect=202,
               label="no body")
        probes += probe_request_body(c, "POST", f"/v1/instances/{source['id']}/snapshots", {"name": "probe"},
                                     token=alice_token)
        c.call("POST", f"/v1/instances/{fake_uuid}/snapshots", token=alice_token, expect=404, label="unknown id")
        c.call("POST", f"/v1/instances/{source['id']}/snapshots", token=bob_token, expect=404,
               label="another user's instance")
        ready = None
        deadline = time.monotonic() + 10
        while snap and time.monotonic() < deadline:
            ready = c.call("GET", f"/v1/snapshots/{snap['id']}", token=alice_token, expect=200, label="poll").json
            if ready and ready.get("state") != "creating":
                break
            time.sleep(0.02)
        R.check(ready and ready["state"] == "ready" and ready["gpu_count"] == 2, f"the snapshot is ready: {ready}")
        listed = c.call("GET", "/v1/snapshots", token=alice_token, expect=200).json or []
        R.check(any(x["id"] == snap["id"] for x in listed), "the snapshot is listed")
        R.check(c.call("GET", "/v1/snapshots", token=bob_token, expect=200).json == [], "others see none")
        c.call("GET", f"/v1/snapshots/{snap['id']}", token=bob_token, expect=404, label="another user's")
        c.call("DELETE", f"/v1/snapshots/{snap['id']}", token=bob_token, expect=404, label="another user's")
        c.call("GET", f"/v1/snapshots/{fake_uuid}", token=alice_token, expect=404, label="unknown id")
        reply = c.call("POST", "/v1/instances", {"snapshot_id": fake_uuid}, token=alice_token, expect=400,
                       label="unknown snapshot")
        R.check(reply.code == "unknown_snapshot", f"restore from an unknown snapshot: code {reply.code!r}")
        restored = c.call("POST", "/v1/instances", {"snapshot_id": snap["id"], "gpu_count": 1}, token=alice_token,
                          expect=202, label="restore").json
        R.check(restored and restored["snapshot_id"] == snap["id"] and restored["gpu_type"] == cheap
                and restored["gpu_count"] == 1, "a restore takes the snapshot's GPU type, the count asked for")
        reply = c.call("DELETE", f"/v1/snapshots/{snap['id']}", token=alice_token, expect=409, label="in use")
        R.check(reply.code == "snapshot_in_use", f"delete in use: code {reply.code!r}")
        c.call("DELETE", f"/v1/instances/{restored['id']}", token=alice_token, expect=200)
        c.call("DELETE", f"/v1/instances/{source['id']}", token=alice_token, expect=200)
        reply = c.call("POST", f"/v1/instances/{source['id']}/snapshots", token=alice_token, expect=409,
                       label="terminated instance")
        R.check(reply.code == "illegal_transition", f"snapshot of a terminated instance: code {reply.code!r}")
        for kept in c.call("GET", "/v1/snapshots", token=alice_token, expect=200).json or []:
            while kept["state"] == "creating":
                time.sleep(0.02)
                kept = c.call("GET", f"/v1/snapshots/{kept['id']}", token=alice_token, expect=200, label="poll").json
            gone = c.call("DELETE", f"/v1/snapshots/{kept['id']}", token=alice_token, expect=200).json
            R.check(gone and gone["state"] == "deleted", "a deleted snapshot says so")
        c.call("DELETE", f"/v1/snapshots/{snap['id']}", token=alice_token, expect=404, label="deleted already")

    R.section = "test runtime"
    c.call("POST", "/v1/_test/runtime/hold", {"hold": True, "x_undocumented_member": 1}, expect=204,
           label="extra members are ignored")
    for what, raw in (("not JSON", b"{oops"), ("array", b"[]"), ("empty", b"")):
        reply = c.call("POST", "/v1/_test/runtime/hold", raw=raw, expect=400, label=what)
        R.check(reply.code == "invalid_json", f"hold {what}: code {reply.code!r}")
    held = c.call("POST", "/v1/instances", {"name": "held", "gpu_type": cheap, "image": "base"},
                  token=alice_token, expect=202).json
    held_id = held["id"]
    wait_state(c, alice_token, held_id, {"starting"})
    time.sleep(0.2)
    still = c.call("GET", f"/v1/instances/{held_id}", token=alice_token, expect=200).json
    R.check(still and still["state"] == "starting", "a held instance stays starting")
    c.call("POST", f"/v1/instances/{held_id}/stop", token=alice_token, expect=409, label="stop starting")
    c.call("POST", f"/v1/instances/{held_id}/start", token=alice_token, expect=409, label="start starting")
    c.call("POST", "/v1/_test/runtime/hold", {"hold": False}, expect=204)
    c.call("POST", "/v1/_test/runtime/release", expect=204)
    c.call("POST", "/v1/_test/runtime/release", body={"ignored": True}, expect=204, label="a body is ignored")
    wait_state(c, alice_token, held_id, {"running"})
    c.call("DELETE", f"/v1/instances/{held_id}", token=alice_token, expect=200)
    # Terminate while starting.
    c.call("POST", "/v1/_test/runtime/hold", {"hold": True}, expect=204)
    held = c.call("POST", "/v1/instances", {"gpu_type": cheap, "image": "base"}, token=alice_token, expect=202).json
    wait_state(c, alice_token, held["id"], {"starting"})
    c.call("DELETE", f"/v1/instances/{held['id']}", token=alice_token, expect=200, label="terminate starting")
    c.call("POST", "/v1/_test/runtime/hold", {"hold": False}, expect=204)
    c.call("POST", "/v1/_test/runtime/release", expect=204)
    time.sleep(0.1)
    after = c.call("GET", f"/v1/instances/{held['id']}", token=alice_token, expect=200).json
    R.check(after and after["state"] == "terminated", "a released, terminated instance stays terminated")
    # fail-next (extra members are ignored: the schema is open).
    for what, raw in (("not JSON", b"nope"), ("array", b"[\"x\"]")):
        reply = c.call("POST", "/v1/_test/runtime/fail-next", raw=raw, expect=400, label=what)
        R.check(reply.code == "invalid_json", f"fail-next {what}: code {reply.code!r}")
    c.call("POST", "/v1/_test/runtime/fail-next", {"reason": "boom", "x_undocumented_member": 1}, expect=204)
    doomed = c.call("POST", "/v1/instances", {"gpu_type": cheap, "image": "base"}, token=alice_token,
                    expect=202).json
    failed = wait_state(c, alice_token, doomed["id"], {"failed"})
    R.check(failed and failed["state_reason"] == "boom", "fail-next: state_reason is the reason")
    c.call("POST", f"/v1/instances/{doomed['id']}/stop", token=alice_token, expect=409, label="stop failed")
    c.call("POST", f"/v1/instances/{doomed['id']}/start", token=alice_token, expect=202, label="start failed")
    wait_state(c, alice_token, doomed["id"], {"running"})
    c.call("DELETE", f"/v1/instances/{doomed['id']}", token=alice_token, expect=200)
    c.call("POST", "/v1/_test/runtime/fail-next", {}, expect=204, label="default reason")
    doomed = c.call("POST", "/v1/instances", {"gpu_type": cheap, "image": "base"}, token=alice_token,
                    expect=202).json
    failed = wait_state(c, alice_token, doomed["id"], {"failed"})
    R.check(failed and failed["state_reason"] == "simulated failure", "fail-next: default reason")
    c.call("DELETE", f"/v1/instances/{doomed['id']}", token=alice_token, expect=200, label="terminate failed")

    R.section = "interruptible"
    spot = c.call("POST", "/v1/instances", {"gpu_type": cheap, "image": "base", "price_class": "interruptible",
                                            "restart_when_available": False},
                  token=alice_token, expect=202).json
    wait_state(c, alice_token, spot["id"], {"running"})
    c.call("POST", f"/v1/_test/instances/{spot['id']}/interrupt", {"notice_seconds": 3601}, expect=400,
           label="notice too long")
    noticed = c.call("POST", f"/v1/_test/instances/{spot['id']}/interrupt", {"notice_seconds": 30},
                     expect=200).json
    R.check(noticed and noticed["interruption_at"], "interrupt: the instance shows its deadline")
    c.call("POST", "/v1/_test/clock/advance", {"seconds": 31}, expect=200)
    stopped = wait_state(c, alice_token, spot["id"], {"stopped"})
    R.check(stopped and stopped["state_reason"] == "interrupted", "interrupt: stopped, reason interrupted")
    c.call("POST", f"/v1/_test/instances/{spot['id']}/interrupt", expect=409, label="not running")
    c.call("POST", "/v1/_test/instances/00000000-0000-4000-8000-000000000000/interrupt", {}, expect=404,
           label="no such instance")
    c.call("DELETE", f"/v1/instances/{spot['id']}", token=alice_token, expect=200)
    R.section = "hardware check and terminate reconciler"
    c.call("POST", "/v1/_test/runtime/shortchange-next", {}, expect=400, label="nothing short")
    c.call("POST", "/v1/_test/runtime/shortchange-next", {"gpu_count": 1, "disk_gib": 10}, expect=204)
    short = c.call("POST", "/v1/instances", {"gpu_type": cheap, "image": "base", "gpu_count": 2},
                   token=alice_token, expect=202).json
    failed = wait_state(c, alice_token, short["id"], {"failed"})
    R.check(failed and failed["hardware_check"] and failed["hardware_check"]["status"] == "failed",
            "a short box fails its hardware check")
    c.call("POST", "/v1/_test/runtime/fail-next-removal", {"reason": "stuck"}, expect=204)
    c.call("DELETE", f"/v1/instances/{short['id']}", token=alice_token, expect=200)
    c.call("POST", "/v1/_test/billing/leave-open", {"instance_id": short["id"]}, expect=204)
    c.call("POST", "/v1/_test/billing/leave-open", {"instance_id": "nope"}, expect=404, label="unknown")
    c.call("POST", "/v1/_test/clock/advance", {"seconds": 120}, expect=200)
    wanted = c.call("POST", "/v1/_test/reconciler/run", expect=202).json["pass"]
    report = None
    for _ in range(500):
        report = c.call("GET", "/v1/reconciler", token=alice_token, expect=200, label="poll").json
        if report["pass"] >= wanted:
            break
        time.sleep(0.02)
    R.check(report and [f["instance_id"] for f in report["findings"]] == [short["id"]],
            "the reconciler reports the terminated instance it cleaned and refunded")

    R.section = "clock"
    c.call("POST", "/v1/_test/clock/advance", {"seconds": 0}, expect=200)
    c.call("POST", "/v1/_test/clock/advance", {"seconds": 0.5}, expect=200, label="fraction")
    probes += probe_request_body(c, "POST", "/v1/_test/clock/advance", {"seconds": 1})

    R.section = "409 capacity"
    carol_token, _ = signup(c, "carol@example.com")
    dave_token, _ = signup(c, "dave@example.com")
    gpu = next(g for g in gpus if g["id"] == "a100-80g")
    big = c.call("POST", "/v1/instances", {"name": "all-cards", "gpu_type": gpu["id"], "image": "base",
                                            "gpu_count": 8}, token=carol_token, expect=202).json
    wait_state(c, carol_token, big["id"], {"running"})
    catalog = c.call("GET", "/v1/catalog/gpus", token=carol_token, expect=200).json
    R.check(next(g for g in catalog if g["id"] == gpu["id"])["available"] == gpu["capacity"] - 8,
            "available counts the held cards")
    reply = c.call("POST", "/v1/instances", {"gpu_type": gpu["id"], "image": "base"}, token=dave_token,
                   expect=409, label="no free cards")
    R.check(reply.code == "not_enough_gpus", f"no free cards: code {reply.code!r}")
    c.call("POST", f"/v1/instances/{big['id']}/stop", token=carol_token, expect=202)
    wait_state(c, carol_token, big["id"], {"stopped"})
    taker = c.call("POST", "/v1/instances", {"gpu_type": gpu["id"], "image": "base", "gpu_count": 8},
                   token=dave_token, expect=202).json
    reply = c.call("POST", f"/v1/instances/{big['id']}/start", token=carol_token, expect=409,
                   label="no free cards")
    R.check(reply.code == "not_enough_gpus", f"start without free cards: code {reply.code!r}")
    wait_state(c, dave_token, taker["id"], {"running"})
    c.call("DELETE", f"/v1/instances/{taker['id']}", token=dave_token, expect=200)
    c.call("DELETE", f"/v1/instances/{big['id']}", token=carol_token, expect=200, label="terminate stopped")

    R.section = "402 balance"
    erin_token, _ = signup(c, "erin@example.com")
    meter = c.call("POST", "/v1/instances", {"name": "drain", "gpu_type": cheap, "image": "base"},
                   token=erin_token, expect=202).json
    wait_state(c, erin_token, meter["id"], {"running"})
    price = meter["price_per_hour_micros"]
    hours = 10_000_000 / price
    c.call("POST", "/v1/_test/clock/advance", {"seconds": int(hours * 3600) + 3600}, expect=200)
    drained = wait_state(c, erin_token, meter["id"], {"stopped"})
    R.check(drained and drained["state_reason"] == "balance_exhausted", "an exhausted balance stops the instance")
    me = c.call("GET", "/v1/me", token=erin_token, expect=200).json
    R.check(me and me["balance_micros"] == 0, f"the balance is used up ({me and me['balance_micros']})")
    reply = c.call("POST", "/v1/instances", {"gpu_type": cheap, "image": "base"}, token=erin_token, expect=402)
    R.check(reply.code == "insufficient_balance", f"create without money: code {reply.code!r}")
    reply = c.call("POST", "/v1/instances", {"gpu_type": cheap, "image": "base"}, token=erin_token,
                   headers={"Idempotency-Key": "retry-after-402"}, expect=402, label="with a key")
    reply = c.call("POST", f"/v1/instances/{meter['id']}/start", token=erin_token, expect=402)
    R.check(reply.code == "insufficient_balance", f"start without money: code {reply.code!r}")
    c.call("POST", "/v1/billing/topup", {"amount_micros": 10_000_000}, token=erin_token, expect=201)
    retry = c.call("POST", "/v1/instances", {"gpu_type": cheap, "image": "base"}, token=erin_token,
                   headers={"Idempotency-Key": "retry-after-402"}, expect=202, label="retry after a 402 succeeds")
    if retry.status == 202:
        c.call("DELETE", f"/v1/instances/{retry.json['id']}", token=erin_token, expect=200)
    c.call("DELETE", f"/v1/instances/{meter['id']}", token=erin_token, expect=200)
    ledger = c.call("GET", "/v1/billing/ledger?limit=500", token=erin_token, expect=200).json
    kinds = {p["kind"] for p in (ledger or {}).get("postings", [])}
    R.check({"trial_credit", "compute", "topup"} <= kinds, f"erin's ledger has all posting kinds ({kinds})")
    for posting in (ledger or {}).get("postings", []):
        R.check(sum(e["amount_micros"] for e in posting["entries"]) == 0, f"posting {posting['seq']} balances")
    verify = c.call("GET", "/v1/_test/ledger/verify", expect=200).json
    R.check(verify and verify["ok"] is True and verify["problem"] == "", f"the ledger verifies ({verify})")

    R.section = "spending limits and stop policies"
    gina_token, _ = signup(c, "gina@example.com")
    limits = c.call("GET", "/v1/spending-limits", token=gina_token, expect=200).json
    R.check(limits and [p["period"] for p in limits["periods"]] == ["day", "month", "total"]
            and limits["time_zone"], f"three periods in a stated zone ({limits})")
    for bad in ({"day": {"max_micros": -1}}, {"month": {"alert_micros": 5, "max_micros": 4}},
                {"day": 5}):
        reply = c.call("PUT", "/v1/spending-limits", bad, token=gina_token, expect=400, label=str(bad))
        R.check(reply.code == "invalid_request", f"{bad}: code {reply.code!r}")
    c.call("PUT", "/v1/spending-limits", {"week": {}}, token=gina_token, expect=400, label="unknown period")
    host = c.call("POST", "/v1/instances", {"gpu_type": cheap, "image": "base",
                                           "stop_policy": {"max_cost_micros": 5_000_000,
                                                           "idle": {"window_seconds": 600}}},
                  token=gina_token, expect=202).json
    running = wait_state(c, gina_token, host["id"], {"running"})
    R.check(running and running["stop_policy"]["idle"]["threshold_percent"] == 5
            and running["planned_stop"] is not None, f"the policy with defaults and a planned stop ({running})")
    deadline = time.monotonic() + 10
    idle = None
    while time.monotonic() < deadline:  # the in-process box's cards are idle: its window runs
        idle = c.call("GET", f"/v1/instances/{host['id']}", token=gina_token, expect=200).json
        if idle and idle["planned_stop"] and idle["planned_stop"]["reason"] == "idle":
            break
        time.sleep(0.2)
    R.check(idle and idle["planned_stop"]["reason"] == "idle", f"an idle window is planned ({idle})")
    kept = c.call("POST", f"/v1/instances/{host['id']}/keep-running", token=gina_token, expect=200).json
    R.check(kept and kept["planned_stop"]["warning"] is False, f"keep-running restarts the window ({kept})")
    moved = c.call("PUT", f"/v1/instances/{host['id']}/stop-policy", {"stop_at": "2999-01-01T00:00:00Z"},
                   token=gina_token, expect=200).json
    R.check(moved and moved["planned_stop"]["reason"] == "max_duration", f"the timer moved ({moved})")
    c.call("PUT", f"/v1/instances/{host['id']}/stop-policy", {"stop_at": "2000-01-01T00:00:00Z"},
           token=gina_token, expect=400, label="a past stop time")
    c.call("PUT", f"/v1/instances/00000000-0000-4000-8000-000000000000/stop-policy", {}, token=gina_token, expect=404)
    c.call("POST", f"/v1/instances/00000000-0000-4000-8000-000000000000/keep-running", token=gina_token, expect=404)
    capped = c.call("PUT", "/v1/spending-limits", {"day": {"max_micros": 0, "alert_micros": 0}},
                    token=gina_token, expect=200).json
    R.check(capped and capped["periods"][0]["max_micros"] == 0, "a zero daily maximum is set")
    stopped = wait_state(c, gina_token, host["id"], {"stopped"})
    R.check(stopped and stopped["state_reason"] == "spending_limit", f"the cap stopped the host ({stopped})")
    reply = c.call("POST", "/v1/instances", {"gpu_type": cheap, "image": "base"}, token=gina_token, expect=402,
                   label="under a reached cap")
    R.check(reply.code == "spending_limit_reached", f"create under a cap: code {reply.code!r}")
    c.call("POST", f"/v1/instances/{host['id']}/keep-running", token=gina_token, expect=409, label="stopped")
    c.call("PUT", f"/v1/instances/{host['id']}/stop-policy", {}, token=gina_token, expect=200, label="removed")
    c.call("DELETE", f"/v1/instances/{host['id']}", token=gina_token, expect=200)
    c.call("PUT", f"/v1/instances/{host['id']}/stop-policy", {}, token=gina_token, expect=409, label="terminated")

    R.section = "logout"
    session = c.call("POST", "/v1/auth/login", {"email": "bob@example.com", "password": "correct horse battery"},
                     expect=200).json
    c.call("POST", "/v1/auth/logout", token=session["token"], expect=204)
    c.call("GET", "/v1/me", token=session["token"], expect=401, label="revoked token")
    c.call("POST", "/v1/auth/logout", token=session["token"], expect=401, label="revoked token")
    c.call("GET", "/v1/me", token=bob_token, expect=200, label="other tokens still work")

    R.section = "429 throttle"
    signup(c, "frank@example.com")
    for attempt in range(1, 6):
        reply = c.call("POST", "/v1/auth/login", {"email": "frank@example.com", "password": f"wrong {attempt}"},
                       expect=401, label=f"wrong password #{attempt}")
    reply = c.call("POST", "/v1/auth/login", {"email": "frank@example.com", "password": "wrong 6"}, expect=429,
                   label="6th attempt")
    R.check(reply.code == "too_many_attempts", f"6th attempt: code {reply.code!r}")
    c.call("POST", "/v1/auth/login", {"email": "frank@example.com", "password": "correct horse battery"},
           expect=429, label="even the right password while locked")
    c.call("POST", "/v1/auth/login", {"email": "bob@example.com", "password": "correct horse battery"},
           expect=200, label="another address from the same client (the per-client limit is looser)")
    c.call("POST", "/v1/_test/clock/advance", {"seconds": 15 * 60 + 1}, expect=200)
    c.call("POST", "/v1/auth/login", {"email": "frank@example.com", "password": "correct horse battery"},
           expect=200, label="after the lock")
    return probes


def exercise_chaos(c, alice_token, bob_token, gpu_type):
    """The chaos API on the in-process runtime (started with --allow-chaos): a failed launch, a
    slow API, and the faults this runtime cannot do refused as documented."""
    probes = probe_request_body(c, "POST", "/v1/chaos/faults", {"kind": "slow_api", "delay_ms": 1, "duration_s": 1},
                                token=bob_token)
    armed = c.call("POST", "/v1/chaos/faults", {"kind": "fail_launch", "reason": "no capacity (rehearsal)"},
                   token=alice_token, expect=201).json or {}
    R.check(armed.get("state") == "armed", f"a fail_launch fault is armed (got {armed.get('state')!r})")
    host = c.call("POST", "/v1/instances", {"gpu_type": gpu_type, "image": "base"}, token=alice_token,
                  expect=202).json or {}
    failed = wait_state(c, alice_token, host.get("id"), {"failed"}) if "id" in host else None
    R.check(failed and "no capacity (rehearsal)" in (failed.get("state_reason") or ""),
            "the next launch failed with the fault's reason")
    listed = c.call("GET", "/v1/chaos/faults", token=alice_token, expect=200).json or []
    R.check(listed and listed[0].get("state") == "done" and listed[0].get("failed_instance_id") == host.get("id"),
            "the fault is done, naming the instance it failed")
    c.call("GET", "/v1/chaos/faults", token=bob_token, expect=200, label="another user's list")
    c.call("DELETE", f"/v1/chaos/faults/{armed.get('id')}", token=bob_token, expect=404, label="another user's")
    slow = c.call("POST", "/v1/chaos/faults", {"kind": "slow_api", "delay_ms": 50, "duration_s": 1},
                  token=bob_token, expect=201).json or {}
    cleared = c.call("DELETE", f"/v1/chaos/faults/{slow.get('id')}", token=bob_token, expect=200).json or {}
    R.check(cleared.get("state") == "cleared", f"a cleared slow_api is cleared (got {cleared.get('state')!r})")
    c.call("POST", "/v1/chaos/faults", {"kind": "drop_ssh", "instance_id": "no-such-host"}, token=alice_token,
           expect=404, label="another user's or no host")
    if "id" in host:
        reply = c.call("POST", "/v1/chaos/faults", {"kind": "drop_ssh", "instance_id": host["id"]},
                       token=alice_token, expect=409, label="no box in the in-process runtime")
        R.check(reply.code == "chaos_unsupported", f"drop_ssh in-process: code {reply.code!r}")
        reply = c.call("POST", "/v1/chaos/faults", {"kind": "interrupt", "instance_id": host["id"]},
                       token=alice_token, expect=409, label="interrupt of an on-demand host")
        R.check(reply.code == "illegal_transition", f"interrupt on demand: code {reply.code!r}")
    return probes


def exercise_models(c, alice_token, bob_token, gpu_type):
    import hashlib
    listed = c.call("GET", "/v1/models", token=alice_token, expect=200).json or []
    R.check(all(m.get("visibility") == "public" for m in listed), "a new user sees public models only")
    if listed:
        c.call("GET", f"/v1/models/{listed[0]['id']}", token=alice_token, expect=200, label="public")
    c.call("GET", "/v1/models/no-such-model", token=alice_token, expect=404, label="unknown")
    data = bytes(range(256)) * 12  # 3072 bytes in two chunks
    sha = hashlib.sha256(data).hexdigest()

    def chunk(upload_id, offset, part, token=alice_token, expect=200, label="", digest=None):
        headers = {"Content-Type": "application/octet-stream", "Upload-Offset": str(offset),
                   "Upload-Chunk-SHA256": digest or hashlib.sha256(part).hexdigest()}
        return c.call("PUT", f"/v1/model-uploads/{upload_id}", token=token, raw=part, headers=headers,
                      expect=expect, label=label)

    up = c.call("POST", "/v1/model-uploads", {"name": "tiny", "size_bytes": len(data), "sha256": sha},
                token=alice_token, expect=201).json
    c.call("POST", "/v1/model-uploads", {"name": "tiny", "size_bytes": 1, "sha256": sha},
           token=alice_token, expect=409, label="name taken")
    c.call("POST", "/v1/model-uploads", {"name": "huge", "size_bytes": 1 << 45, "sha256": sha},
           token=alice_token, expect=409, label="over the limit")
    c.call("POST", "/v1/model-uploads", {"name": "Bad Name", "size_bytes": 1, "sha256": sha},
           token=alice_token, expect=400, label="bad name")
    c.call("GET", "/v1/model-uploads", token=alice_token, expect=200)
    c.call("GET", f"/v1/model-uploads/{up['id']}", token=alice_token, expect=200)
    c.call("GET", f"/v1/model-uploads/{up['id']}", token=bob_token, expect=404, label="another user's")
    chunk(up["id"], 0, data[:2048], digest="0" * 64, expect=422, label="corrupted chunk")
    chunk(up["id"], 0, data[:2048])
    chunk(up["id"], 0, data[:2048], expect=409, label="wrong offset")
    chunk(up["id"], 2048, b"", expect=400, label="empty chunk")
    done = chunk(up["id"], 2048, data[2048:], expect=201).json or {}
    model = done.get("model") or {}
    R.check(model.get("sha256") == sha and model.get("visibility") == "private",
            "the completed upload is a private model with the declared SHA-256")
    c.call("GET", f"/v1/models/{model.get('id')}", token=alice_token, expect=200, label="own")
    c.call("GET", f"/v1/models/{model.get('id')}", token=bob_token, expect=404, label="another user's")
    c.call("DELETE", f"/v1/models/{model.get('id')}", token=bob_token, expect=404, label="another user's")
    bad = c.call("POST", "/v1/model-uploads", {"name": "bad", "size_bytes": 4, "sha256": sha},
                 token=alice_token, expect=201).json
    chunk(bad["id"], 0, b"abcd", expect=422, label="whole file does not match")
    gone = c.call("POST", "/v1/model-uploads", {"name": "gone", "size_bytes": 4, "sha256": sha},
                  token=alice_token, expect=201).json
    c.call("DELETE", f"/v1/model-uploads/{gone['id']}", token=alice_token, expect=200)
    c.call("DELETE", f"/v1/model-uploads/{gone['id']}", token=alice_token, expect=404, label="gone")
    mounting = c.call("POST", "/v1/instances", {"gpu_type": gpu_type, "image": "base", "models": ["tiny"]},
                      token=alice_token, expect=202).json or {}
    reply = c.call("DELETE", f"/v1/models/{model.get('id')}", token=alice_token, expect=409, label="mounted")
    R.check(reply.code == "model_in_use", f"delete a mounted model: code {reply.code!r}")
    if "id" in mounting:
        wait_state(c, alice_token, mounting["id"], {"running"})
        c.call("DELETE", f"/v1/instances/{mounting['id']}", token=alice_token, expect=200)
        wait_state(c, alice_token, mounting["id"], {"terminated"})
    c.call("DELETE", f"/v1/models/{model.get('id')}", token=alice_token, expect=200)


def summarize(c):
    R.section = "coverage"
    spec = c.spec
    documented = 0
    observed = 0
    lines = []
    for (method, template) in sorted(spec.operations):
        statuses = set(str(s) for s in spec.operations[(method, template)].get("responses", {}))
        seen = {str(s) for s in c.observed.get((method, template), set())}
        documented += len(statuses)
        observed += len(seen & statuses)
        R.check(any(s.startswith("2") for s in seen), f"{method} {template}: a success status was exercised")
        missing = sorted(statuses - seen)
        lines.append(f"  {method:6} {template:34} seen {','.join(sorted(seen)) or '-':28}"
                     f" not exercised {','.join(missing) or '-'}")
    all_seen = set()
    for statuses in c.observed.values():
        all_seen |= statuses
    for status in (200, 201, 202, 204, 400, 401, 402, 404, 409, 413, 422, 429):
        R.check(status in all_seen, f"status {status} was exercised somewhere")
    print("coverage (route, statuses seen, documented statuses not exercised):")
    print("\n".join(lines))
    print(f"coverage: {len(c.observed)}/{len(spec.operations)} routes called, {observed}/{documented} documented"
          f" (route, status) pairs exercised, {c.requests} requests, {c.validated_bodies} JSON bodies validated")


def on_alarm(signum, frame):
    raise TimeoutError(f"the test ran over {OVERALL_TIMEOUT_S} s")


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    binary = argv[1] if len(argv) > 1 else os.environ.get("CARDHOUR_SIM_BIN", "")
    spec_path = argv[2] if len(argv) > 2 else DEFAULT_SPEC_PATH
    if not binary:
        print("usage: test_openapi.py CARDHOUR_SIM_BIN [OPENAPI_YAML] (or set $CARDHOUR_SIM_BIN)")
        return 2
    if not os.access(binary, os.X_OK):
        print(f"FAIL: {binary} is not an executable")
        print("0 passed, 1 failed")
        return 1
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(OVERALL_TIMEOUT_S)
    try:
        from importlib import metadata
        version = metadata.version("jsonschema")
    except Exception:  # noqa: BLE001 - only informative
        version = "?"
    print(f"spec: {spec_path}\nserver: {binary}\njsonschema {version}", flush=True)

    server = None
    client = None
    probes = 0
    try:
        spec = Spec(load(spec_path))
        check_document(spec, binary)

        server = Server(binary)
        server.start()
        base = f"http://127.0.0.1:{server.port}"
        print(f"server: {base}", flush=True)
        client = Client(spec, base)
        client.test_secret = server.test_secret
        with tempfile.TemporaryDirectory(prefix="cardhour-openapi-keys-") as tmp:
            probes = run_scenario(client, tmp, server.port)
    except Abort:
        R.fail("stopped early (see the failure above)")
    except Exception as error:  # noqa: BLE001 - every crash is a test failure with its traceback
        import traceback
        traceback.print_exc()
        R.fail(f"the test crashed: {error!r}")
    finally:
        signal.alarm(0)
        if server is not None:
            exit_code = server.proc.poll() if server.proc else None
            if exit_code is not None:
                R.fail(f"the server exited early with {exit_code}; stderr: {server.stderr_tail()}")
            server.stop()
    if client is not None:
        try:
            summarize(client)
            print(f"request-body probes derived from the document: {probes}")
        except Exception as error:  # noqa: BLE001
            R.fail(f"the summary crashed: {error!r}")
    R.section = ""
    if R.failures:
        print(f"\n{len(R.failures)} failure(s):")
        for failure in R.failures:
            print(f"  - {failure}")
    print(f"{R.passed} passed, {len(R.failures)} failed", flush=True)
    return 1 if R.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
