#!/usr/bin/env python3
"""The house's figures (issue 53), for a checkout: modules and their lines, `public` and `package`
declarations, timer mechanisms, dedicated threads, `nonisolated(unsafe)`, sleeps in tests, test
targets, README lines. Counts what the source says, nothing built.

Usage: python3 scripts/house-figures.py [CHECKOUT]   (default: this repository)
Compare two trees with a worktree of the older commit: git worktree add /tmp/old COMMIT.
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def swift_files(folder):
    for base, _, files in os.walk(os.path.join(root, folder)):
        for f in files:
            if f.endswith(".swift"):
                yield os.path.join(base, f)


def lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().splitlines()


gateway = "Sources/TrafficGateway"
modules = {}
for base, dirs, _ in os.walk(os.path.join(root, gateway)):
    for d in dirs:
        modules[d] = sum(len(lines(p)) for p in swift_files(os.path.join(gateway, d)))
    break
production = [p for folder in ("Sources/TrafficGateway", "Sources/gatewayd", "Sources/GatewaySimulation", "Sources/GDL90")
              for p in swift_files(folder)]
text = {p: lines(p) for p in production}


def count(pattern, files):
    rx = re.compile(pattern)
    return sum(1 for p in files for line in text.get(p) or lines(p) if rx.search(line) and not line.strip().startswith("//"))


gw = [p for p in production if "/Sources/TrafficGateway/" in p]
tests = list(swift_files("Tests"))
test_targets = sorted(d for d in os.listdir(os.path.join(root, "Tests")) if os.path.isdir(os.path.join(root, "Tests", d)))
PUBLIC, PACKAGE = r"^\s*(@\w+\s+)*public\s", r"^\s*(@\w+\s+)*package\s"
SLEEPS = r"(usleep|Thread\.sleep|Task\.sleep|\bsleep\()"
figures = [
    ("gateway modules", f"{len(modules)} ({', '.join(f'{m} {n}' for m, n in sorted(modules.items()))}; {sum(modules.values())} lines)"),
    ("public / package declarations in the gateway's modules", f"{count(PUBLIC, gw)} / {count(PACKAGE, gw)}"),
    ("timers: PeriodicService / NIO scheduleTask / clock or Task sleeps / condition waits of 1 s",
     f"{count(r'PeriodicService[(]', production)} / {count('scheduleTask', production)} / {count(r'(clock|Task)[.]sleep', production)} / {count(r'timeout: 1[)]', production)}"),
    ("dedicated threads started", count(r"DedicatedThread[.]start", production)),
    ("nonisolated(unsafe)", count(r"nonisolated[(]unsafe[)]", production)),
    ("EdgeService adapters", count(r"EdgeService[(]", production)),
    ("Hummingbird applications / HTTP ports bound, closed and rebound",
     f"{count(r'Application[(]', production)} / {count(r'IPv4Socket[.]bound[(]type: Int32[(]SOCK_STREAM', production)}"),
    ("sleeps in tests", count(SLEEPS, tests)),
    ("test targets", f"{len(test_targets)} ({', '.join(test_targets)})"),
    ("README lines", len(lines(os.path.join(root, "README.md")))),
]
for name, value in figures:
    print(f"{name}: {value}")
