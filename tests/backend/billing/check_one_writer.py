#!/usr/bin/env python3
"""The books have one writer: no file of backend-sim/src but billing/Bookkeeper.cpp writes the
ledger's tables or a cached balance, and none but the Meter, the services that post (a top-up,
trial credit, a model's storage fee) and the Bookkeeper itself calls its posting functions;
the SSE `billing` event is published in one place, on the Bookkeeper's billMoved.
Prints each offending line and exits 1."""
import os
import re
import sys

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "backend-sim", "src")
if len(sys.argv) > 1:
    SRC = sys.argv[1]

WRITER = "billing/Bookkeeper.cpp"
WRITES = re.compile(r"(INSERT\s+(OR\s+\w+\s+)?INTO\s+(ledger_txns|ledger_entries)"
                    r"|UPDATE\s+(ledger_txns|ledger_entries)\b|DELETE\s+FROM\s+(ledger_txns|ledger_entries)"
                    r"|UPDATE\s+users\s+SET\s+[^\"]*balance_micros"
                    r"|INSERT\s+INTO\s+users\s*\([^)]*balance_micros)", re.I)
# Calls of the posting functions: on a Bookkeeper (books.post(...), m_books.postAll(...)).
POSTS = re.compile(r"\b(m_)?books\s*(\.|->)\s*post(All)?\s*\(")
# (TerminateReconciler: the refund of time billed after a termination.)
POSTERS = {WRITER, "billing/Meter.cpp", "billing/MeterPostings.cpp", "service/Accounts.cpp",
           "service/PrivateModels.cpp", "service/AccountBill.cpp", "service/TerminateReconciler.cpp"}
# The one place that turns billMoved into the SSE event.
BILLING_EVENT = re.compile(r'publish\w*\([^;]*u"billing"_s')
EVENT_SOURCES = {"service/AccountBill.cpp"}


def main():
    problems = []
    event_files = set()
    for base, _, files in os.walk(SRC):
        for name in files:
            if not name.endswith((".cpp", ".h")):
                continue
            path = os.path.join(base, name)
            rel = os.path.relpath(path, SRC).replace(os.sep, "/")
            if rel == "store/Migrations.cpp":
                continue  # the schema, and the data migrations that made it
            with open(path, encoding="utf-8") as f:
                text = f.read()
            # Statements span lines ("..." "..."): joined, so a split one is still seen.
            joined = re.sub(r'"\s*\n\s*(u)?"', "", text)
            if rel != WRITER:
                for m in WRITES.finditer(joined):
                    problems.append(f"{rel}: writes the books ({m.group(0)!r}): only {WRITER} may")
            if rel not in POSTERS:
                for m in POSTS.finditer(text):
                    problems.append(f"{rel}: posts ({m.group(0)!r}) outside the known posters")
            if re.search(r"\bLedger::post|\bledger\s*(\.|->)\s*post(All)?\s*\(", text):
                problems.append(f"{rel}: posts through the Ledger, which only reads the books")
            if BILLING_EVENT.search(joined):
                event_files.add(rel)
    for rel in sorted(event_files - EVENT_SOURCES):
        problems.append(f"{rel}: publishes the `billing` event: only the Bookkeeper's billMoved may")
    if len(event_files) > 1:
        problems.append(f"the `billing` event is published in {sorted(event_files)}: one place only")
    for line in problems:
        print("check_one_writer: " + line)
    if not problems:
        print("check_one_writer: the Bookkeeper writes the books; one place publishes `billing`")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
