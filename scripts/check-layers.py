#!/usr/bin/env python3
"""Fails when a module of the gateway depends on one at its own level or above (issue 39): the
layers, lowest first, are below; a module may depend only on modules of lower layers (and on GDL90,
the C shims and the outside packages). The compiler already refuses an import a target does not
depend on, and SwiftPM a cycle; this holds the intended order, siblings included.

Usage: python3 scripts/check-layers.py (from anywhere; reads `swift package dump-package`).
"""
import json
import os
import subprocess
import sys

LAYERS = [["GatewaySupport"], ["GatewayDomain"], ["GatewayCaptures"], ["GatewayRecords"],
          ["GatewayWeather"], ["GatewayFeeds", "GatewayVoice"], ["GatewayFleet"], ["GatewayRuntime"]]
LEVEL = {name: i for i, layer in enumerate(LAYERS) for name in layer}

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
package = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=root, capture_output=True, text=True, check=True).stdout)
problems = []
seen = set()
for target in package["targets"]:
    name = target["name"]
    if name not in LEVEL:
        continue
    seen.add(name)
    for dependency in target.get("dependencies", []):
        by = dependency.get("byName") or dependency.get("target") or []
        other = by[0] if by else None
        if other in LEVEL and LEVEL[other] >= LEVEL[name]:
            problems.append(f"{name} (layer {LEVEL[name] + 1}) depends on {other} (layer {LEVEL[other] + 1}): only lower layers may be imported")
missing = set(LEVEL) - seen
if missing:
    problems.append("no target named " + ", ".join(sorted(missing)))
for p in problems:
    print("check-layers: " + p, file=sys.stderr)
print(f"check-layers: {len(seen)} modules in {len(LAYERS)} layers, {'no' if not problems else len(problems)} problem(s)")
sys.exit(1 if problems else 0)
