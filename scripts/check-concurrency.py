#!/usr/bin/env python3
"""Fails when production code leaves the gateway's one concurrency model (issue 39, widened by
issue 53; docs/architecture.md, "One concurrency model"). Every production target is read:
Sources/TrafficGateway (the gateway's modules), Sources/GDL90, Sources/gatewayd and
Sources/GatewaySimulation (both linked into the binary). Comments and strings are stripped first.

The rules, each broken only on a line that says why (an exemption is per line, never per file):
a comment `concurrency: <reason>` on the line itself or on the line just above it.

- `@unchecked Sendable`: only the lock itself (`Locked`), the memory-mapped airport table and the
  codec's copy-on-write storage, each with its reason (and, in the test and benchmark harness
  GatewaySimulation, a line with its `concurrency:` reason);
- `nonisolated(unsafe)`: never without a reason (a global the compiler cannot prove);
- any sleep (`usleep`, `sleep`, `nanosleep`, `Thread.sleep`, `Task.sleep`, a clock's `sleep`):
  threads wait on a `Locked` condition, timers are `PeriodicService`s, retries wait through the
  one backoff;
- an unstructured `Task` or `Task.detached`: hand the work to the app's ServiceGroup;
- a Dispatch semaphore, group, timer source or `asyncAfter`;
- NIO scheduling (`scheduleTask`, `scheduleRepeatedTask`, `scheduleCallback`): timers are services;
- a custom executor (`SerialExecutor`, `TaskExecutor`, `unownedExecutor`, `executorPreference`);
- `pthread_create` but in `DedicatedThread`, and `Thread(` / `Thread.detachNewThread`.

Usage: python3 scripts/check-concurrency.py [ROOT]
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOPS = ("Sources/TrafficGateway", "Sources/GDL90", "Sources/gatewayd", "Sources/GatewaySimulation")
UNCHECKED = {"Sources/TrafficGateway/GatewaySupport/Locked.swift",
             "Sources/TrafficGateway/GatewayRecords/Logbook/AirportTable.swift",
             "Sources/GDL90/Deframer.swift"}
RULES = [
    (r"nonisolated\(unsafe\)", "nonisolated(unsafe): confine the value in a Locked, or make it a let of a Sendable type"),
    (r"(?<![\w.])(?:usleep|sleep|nanosleep)\(|Thread\.sleep|Task\.sleep|\.sleep\(\s*(?:for|until)\s*:", "sleeps: wait on a Locked condition, make the timer a PeriodicService, or wait through the one backoff"),
    (r"(?<![\w.])Task\s*(?:\(|\{)|Task\.detached", "starts an unstructured task: hand the work to the app's ServiceGroup (a PeriodicService, a source's `services`)"),
    (r"DispatchSemaphore|DispatchGroup|makeTimerSource", "a semaphore, group or Dispatch timer: wait on a Locked condition, or use a PeriodicService"),
    (r"\.asyncAfter\(", "a Dispatch deadline: make the timer a PeriodicService"),
    (r"\.schedule(?:Repeated)?(?:Async)?Task\(|\.scheduleCallback\(", "NIO scheduling: make the timer a service on the injected clock"),
    (r"SerialExecutor|TaskExecutor|unownedExecutor|executorPreference", "a custom executor: the core has one serial queue, the rest the cooperative pool"),
    (r"(?<![\w.])Thread\s*(?:\(|\{)|Thread\.detachNewThread|pthread_create\(", "a raw thread: use DedicatedThread.start"),
]
EXEMPT = re.compile(r"//.*\bconcurrency:\s*\S")


def stripped(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r'"""(?:.|\n)*?"""', lambda m: '""' + "\n" * m.group(0).count("\n"), text)
    lines = []
    for line in text.split("\n"):
        line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
        i = line.find("//")
        lines.append(line if i < 0 else line[:i])
    return lines


problems = []
files = exempted = 0
for top in TOPS:
    for d, _, names in os.walk(os.path.join(root, top)):
        for n in sorted(names):
            if not n.endswith(".swift"):
                continue
            path = os.path.join(d, n)
            rel = os.path.relpath(path, root)
            files += 1
            raw = open(path, encoding="utf-8").read().split("\n")
            code = stripped(path)

            def exempt(i):
                return bool(EXEMPT.search(raw[i]) or (i > 0 and EXEMPT.search(raw[i - 1])))

            for i, line in enumerate(code):
                if "@unchecked Sendable" in line:
                    if rel.startswith("Sources/GatewaySimulation") and exempt(i):
                        exempted += 1  # the test and benchmark harness, with its reason
                    elif rel not in UNCHECKED:
                        problems.append(f"{rel}:{i + 1}: @unchecked Sendable outside the three the model allows: confine the state in a Locked, or make the type a value")
                    elif "//" not in raw[i]:
                        problems.append(f"{rel}:{i + 1}: @unchecked Sendable without its reason on the line")
                # DedicatedThread is where the raw thread is made.
                if rel.endswith("GatewaySupport/DedicatedThread.swift"):
                    continue
                for pattern, why in RULES:
                    if re.search(pattern, line):
                        if exempt(i):
                            exempted += 1
                        else:
                            problems.append(f"{rel}:{i + 1}: {why}")
for p in problems:
    print("check-concurrency: " + p, file=sys.stderr)
print(f"check-concurrency: {files} files, {exempted} line(s) exempted with their reason, {'no' if not problems else len(problems)} problem(s)")
sys.exit(1 if problems else 0)
