#!/usr/bin/env python3
"""The counts issue 39's note reports, for a source tree (default: this checkout).

    python3 scripts/house-counts.py [ROOT]

Counts by text (comments stripped): modules and their lines, `@unchecked Sendable`, sleeps,
public declarations, timer mechanisms and concurrency primitives on the daemon's path, and
the longest functions. "Production" is the daemon's code: Sources/GDL90,
Sources/TrafficGateway and Sources/gatewayd (not the simulation, fuzz support or tests).
"""
import os, re, sys, collections

root = sys.argv[1] if len(sys.argv) > 1 else "."
src = os.path.join(root, "Sources")
PRODUCTION = ("GDL90", "TrafficGateway", "gatewayd")


def swift_files(top):
    for d, _, names in os.walk(top):
        for n in sorted(names):
            if n.endswith(".swift"):
                yield os.path.join(d, n)


def code(path):
    """The file's lines with // comments and string bodies blanked (crude, enough for counting)."""
    out = []
    for line in open(path, encoding="utf-8", errors="replace"):
        line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
        i = line.find("//")
        out.append(line if i < 0 else line[:i])
    return out


def module_of(path):
    rel = os.path.relpath(path, src).split(os.sep)
    if rel[0] == "TrafficGateway" and len(rel) > 2 and rel[1].startswith("Gateway"):
        return rel[1]
    return rel[0]


files = list(swift_files(src))
lines = collections.Counter()
for f in files:
    lines[module_of(f)] += sum(1 for _ in open(f, encoding="utf-8", errors="replace"))
print("modules (lines):")
for m, n in sorted(lines.items(), key=lambda x: -x[1]):
    print(f"  {m:22} {n:6}")

prod = [f for f in files if os.path.relpath(f, src).split(os.sep)[0] in PRODUCTION]
other = [f for f in files if f not in prod]


def count(pattern, among):
    rx = re.compile(pattern)
    return sum(len(rx.findall("".join(code(f)))) for f in among)


def count_raw(pattern, among):
    rx = re.compile(pattern)
    return sum(len(rx.findall(open(f, encoding="utf-8", errors="replace").read())) for f in among)


print("@unchecked Sendable: production %d, simulation and fuzz support %d" % (count_raw(r"@unchecked Sendable", prod), count_raw(r"@unchecked Sendable", other)))
sleeps = r"(?<![\w.])(usleep|sleep|nanosleep)\("
print("usleep/sleep/nanosleep calls: production %d, simulation and fuzz support %d" % (count(sleeps, prod), count(sleeps, other)))
print("public declarations (production): %d" % count(r"(?m)^\s*(?:@\w+\s+)*public\s", prod))
print("package declarations (production): %d" % count(r"(?m)^\s*(?:@\w+\s+)*package\s", prod))
print("on the daemon's path (production):")
for name, rx in [
    ("PeriodicService timers made", r"PeriodicService\("),
    ("unstructured Task { } / Task(...)", r"(?<![\w.])Task\s*(?:\(|\{)"),
    ("PeriodicService.start() (a task outside the group)", r"\}\.start\(\)"),
    ("Dispatch asyncAfter", r"asyncAfter\("),
    ("Dispatch timer sources", r"makeTimerSource"),
    ("NIO scheduled tasks", r"schedule(?:Repeated)?Task\("),
    ("DispatchSemaphore", r"DispatchSemaphore\("),
    ("DispatchGroup", r"DispatchGroup\("),
    ("pthread_create", r"pthread_create\("),
    ("Locked(...) locks", r"Locked(?:<[^>]*>)?\("),
    ("Atomic", r"Atomic<"),
    ("Mutex", r"(?<![\w])Mutex<|Mutex\("),
    ("nonisolated(unsafe)", r"nonisolated\(unsafe\)"),
]:
    print(f"  {name:52} {count(rx, prod)}")

# The longest functions: from a `func`/`init` line to its closing brace at the same depth.
lengths = []
for f in prod:
    body = code(f)
    i = 0
    while i < len(body):
        m = re.match(r"\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|private|fileprivate|internal|static|mutating|override|final|nonisolated|@inline\(__always\))\s+)*(func\s+[^\s(<]+|init[?!]?)\s*[(<]", body[i])
        if m:
            depth, started, j = 0, False, i
            while j < len(body):
                depth += body[j].count("{") - body[j].count("}")
                if "{" in body[j]:
                    started = True
                if started and depth <= 0:
                    break
                j += 1
            if started:
                lengths.append((j - i + 1, os.path.relpath(f, root), i + 1, m.group(1)))
        i += 1
lengths.sort(reverse=True)
print("longest functions (production, lines):")
for n, path, line, name in lengths[:8]:
    print(f"  {n:4}  {path}:{line} {name}")
