#!/usr/bin/env python3
"""Include rules of backend-sim/src, checked on the sources.

Usage: test_includes.py [BACKEND_SIM_SRC]

  * No two units include each other: a unit is A.h + A.cpp, and a private header APrivate.h
    (shared by A's .cpp files) belongs to A; A including B while B includes A is a cycle.
  * The floors below service/ never include it: runtime/ (and store/, billing/, core/,
    http/, auth/) include nothing from service/, api/, server/ or cli/.
Prints every violation and exits 1 if there is one.
"""

import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
LOWER_FLOORS = ("runtime", "store", "billing", "core", "http", "auth")
UPPER_FLOORS = ("service", "api", "server", "cli")


def unit_of(rel):
    """'runtime/CliRuntimePrivate.h' -> 'runtime/CliRuntime'."""
    stem = os.path.splitext(rel)[0]
    return stem[: -len("Private")] if stem.endswith("Private") else stem


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    root = argv[1] if len(argv) > 1 else os.path.join(here, "..", "..", "..", "backend-sim", "src")
    root = os.path.normpath(root)
    includes = {}  # unit -> {unit it includes: file that does}
    problems = []
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            unit = unit_of(rel)
            with open(path, encoding="utf-8") as f:
                for line in f:
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    local = os.path.normpath(os.path.join(os.path.dirname(rel), target))
                    if os.path.exists(os.path.join(root, local)):
                        target = local
                    elif not os.path.exists(os.path.join(root, target)):
                        continue  # generated (CardHourVersion.h) or outside the tree
                    other = unit_of(target)
                    if other != unit:
                        includes.setdefault(unit, {}).setdefault(other, rel)
                    floor, target_floor = rel.split(os.sep)[0], target.split("/")[0]
                    if floor in LOWER_FLOORS and target_floor in UPPER_FLOORS:
                        problems.append(f"{rel} includes {target}: {floor}/ is below {target_floor}/")
    for a in sorted(includes):
        for b in sorted(includes[a]):
            if a < b and a in includes.get(b, {}):
                problems.append(f"{a} and {b} include each other "
                                f"({includes[a][b]} -> {b}, {includes[b][a]} -> {a})")
    for problem in problems:
        print(f"FAIL: {problem}")
    units = len({unit_of(os.path.relpath(os.path.join(d, n), root))
                 for d, _, fs in os.walk(root) for n in fs if n.endswith((".h", ".cpp"))})
    print(f"{units} units checked, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
