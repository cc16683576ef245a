#!/usr/bin/env python3
"""Fails when the gateway's library leaves its one concurrency model (issue 39; README, "One
concurrency model"). In Sources/TrafficGateway (comments stripped):

- `@unchecked Sendable` only where the model allows it, each with its reason on the line: the lock
  itself (`Locked`), the memory-mapped airport table, and the codec's copy-on-write storage
  (Sources/GDL90);
- no `usleep`, `sleep` or `nanosleep` (an awaited, injected sleep is Swift concurrency's): threads
  wait on a `Locked` condition, timers are services;
- no unstructured `Task` but the HTTP server's stand-alone harness (tests, benchmarks, fuzzer);
- no Dispatch semaphore, group or timer source, and `asyncAfter` only for the voice's next callout;
- no `pthread_create` but `DedicatedThread`.

Usage: python3 scripts/check-concurrency.py [ROOT]
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNCHECKED = {"Sources/TrafficGateway/GatewaySupport/Support/Locked.swift",
             "Sources/TrafficGateway/GatewayRecords/Logbook/AirportTable.swift",
             "Sources/GDL90/Deframer.swift"}
RULES = [
    (r"(?<!await )(?<![\w.])(?:usleep|sleep|nanosleep)\(", set(), "sleeps: wait on a Locked condition, or make the timer a PeriodicService"),
    (r"(?<![\w.])Task\s*(?:\(|\{)|Task\.detached", {"Sources/TrafficGateway/GatewayFeeds/Feeds/FeedServer+Standalone.swift"},
     "starts an unstructured task: hand the work to the app's ServiceGroup (a PeriodicService, a source's `services`)"),
    (r"DispatchSemaphore|DispatchGroup|makeTimerSource", set(), "a semaphore, group or Dispatch timer: wait on a Locked condition, or use a PeriodicService"),
    (r"\.asyncAfter\(", {"Sources/TrafficGateway/GatewayRuntime/Sinks/VoiceSink.swift"}, "a Dispatch deadline: make the timer a PeriodicService"),
    (r"pthread_create\(", {"Sources/TrafficGateway/GatewaySupport/Support/DedicatedThread.swift"}, "a raw thread: use DedicatedThread.start"),
]


def stripped(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    lines = []
    for line in text.split("\n"):
        line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
        i = line.find("//")
        lines.append(line if i < 0 else line[:i])
    return lines


problems = []
files = 0
for top in ("Sources/TrafficGateway", "Sources/GDL90"):
    for d, _, names in os.walk(os.path.join(root, top)):
        for n in sorted(names):
            if not n.endswith(".swift"):
                continue
            path = os.path.join(d, n)
            rel = os.path.relpath(path, root)
            files += 1
            raw = open(path, encoding="utf-8").read().split("\n")
            for i, line in enumerate(stripped(path)):
                if "@unchecked Sendable" in line:
                    if rel not in UNCHECKED:
                        problems.append(f"{rel}:{i + 1}: @unchecked Sendable outside the three the model allows: confine the state in a Locked, or make the type a value")
                    elif "//" not in raw[i]:
                        problems.append(f"{rel}:{i + 1}: @unchecked Sendable without its reason on the line")
                if not rel.startswith("Sources/TrafficGateway"):
                    continue
                for pattern, allowed, why in RULES:
                    if re.search(pattern, line) and rel not in allowed:
                        problems.append(f"{rel}:{i + 1}: {why}")
for p in problems:
    print("check-concurrency: " + p, file=sys.stderr)
print(f"check-concurrency: {files} files, {'no' if not problems else len(problems)} problem(s)")
sys.exit(1 if problems else 0)
