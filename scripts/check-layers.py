#!/usr/bin/env python3
"""Fails when the package's targets leave their intended shape (issue 39, made strict by issue 53):

- every target is one this table knows (a new target is added here, with its layer and edges, in
  the same change);
- every edge, to a target, a C shim or another package's product, is one the table allows;
- a gateway module depends only on modules of lower layers (siblings included), the layers lowest
  first below.

The compiler refuses an import a target does not declare, and SwiftPM a cycle; this holds the
intended order and keeps each outside package and C library where it is meant to be.

Usage: python3 scripts/check-layers.py (from anywhere; reads `swift package dump-package`).
"""
import json
import os
import subprocess
import sys

LAYERS = [["GatewaySupport"], ["GatewayDomain", "GatewayHTTP"], ["GatewayCaptures"], ["GatewayRecords"],
          ["GatewayNotams", "GatewayWeather"], ["GatewayFeeds", "GatewayVoice", "GatewayNotify", "GatewayForecast"], ["GatewayFleet"], ["GatewayRuntime"]]
LEVEL = {name: i for i, layer in enumerate(LAYERS) for name in layer}
MODULES = [m for layer in LAYERS for m in layer]
SHIMS = ["CEccodes", "CCurl", "CZlib", "CEspeak", "CALSA", "CMosquitto", "CSQLite"]
HTTP = ["hummingbird:Hummingbird", "hummingbird:HummingbirdCore", "swift-http-types:HTTPTypes", "swift-nio:NIOCore",
        "swift-log:Logging", "swift-service-lifecycle:ServiceLifecycle"]
TESTS = ["GDL90", "GatewaySimulation", "GatewayFuzzSupport", "GatewayTestSupport", "swift-service-lifecycle:ServiceLifecycle",
         "swift-service-lifecycle:ServiceLifecycleTestKit"] + MODULES
# What each target may depend on (C shims and products by name, `package:product`).
ALLOWED = {
    "GDL90": [],  # the codec: the standard library only
    **{shim: [] for shim in SHIMS},
    "GatewaySupport": ["GDL90"],
    "GatewayDomain": ["GDL90"] + MODULES,
    "GatewayHTTP": HTTP + MODULES,  # the HTTP kit: Hummingbird, GatewaySupport
    "GatewayCaptures": ["GDL90", "CZlib"] + MODULES,
    "GatewayRecords": ["GDL90", "CCurl", "CSQLite"] + MODULES,
    "GatewayNotams": ["GDL90"] + MODULES,
    "GatewayWeather": ["GDL90", "CZlib"] + MODULES,
    "GatewayFeeds": ["GDL90", "swift-nio:NIOPosix"] + HTTP + MODULES,
    "GatewayVoice": ["GDL90", "CEspeak", "CALSA"] + MODULES,
    "GatewayNotify": ["GDL90", "CCurl"] + MODULES,
    "GatewayForecast": ["GDL90", "CEccodes"] + MODULES,
    "GatewayFleet": ["GDL90", "CMosquitto"] + HTTP + MODULES,
    "GatewayRuntime": ["GDL90", "swift-nio:NIOPosix", "swift-service-lifecycle:UnixSignals"] + HTTP + MODULES,
    "GatewaySimulation": ["GDL90"] + MODULES,
    "GatewayFuzzSupport": ["GDL90"] + MODULES,
    "gatewayd": ["GDL90", "GatewaySimulation", "swift-argument-parser:ArgumentParser"] + MODULES,
    "gatewayd-fuzz": ["GDL90", "GatewayFuzzSupport"],
    "GDL90Tests": ["GDL90"],
    # The tests (issue 53): what any of them may use; the end-to-end and process suites in GatewayTests,
    # a target per module `<Module>Tests`, and the helpers they share in GatewayTestSupport.
    **{tests: TESTS for tests in ["GatewayTests", "GatewayTestSupport"] + [m + "Tests" for m in MODULES]},
}

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
package = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=root, capture_output=True, text=True, check=True).stdout)
problems = []
seen = set()
edges = 0
for target in package["targets"]:
    name = target["name"]
    seen.add(name)
    if name not in ALLOWED:
        problems.append(f"{name}: a target scripts/check-layers.py does not know: add it to ALLOWED (and LAYERS for a gateway module)")
        continue
    for dependency in target.get("dependencies", []):
        if "product" in dependency:
            other = f"{dependency['product'][1]}:{dependency['product'][0]}"
        else:
            by = dependency.get("byName") or dependency.get("target") or []
            other = by[0] if by else "?"
        edges += 1
        if other not in ALLOWED[name]:
            problems.append(f"{name} depends on {other}: not an edge the table allows (scripts/check-layers.py, ALLOWED)")
        elif other in LEVEL and name in LEVEL and LEVEL[other] >= LEVEL[name]:
            problems.append(f"{name} (layer {LEVEL[name] + 1}) depends on {other} (layer {LEVEL[other] + 1}): only lower layers may be imported")
missing = set(LEVEL) - seen
if missing:
    problems.append("no target named " + ", ".join(sorted(missing)))
for p in problems:
    print("check-layers: " + p, file=sys.stderr)
print(f"check-layers: {len(seen)} targets, {edges} edges, {len(LEVEL)} modules in {len(LAYERS)} layers, {'no' if not problems else len(problems)} problem(s)")
sys.exit(1 if problems else 0)
