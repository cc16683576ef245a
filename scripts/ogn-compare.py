#!/usr/bin/env python3
"""Compares `gatewayd decode --json` on an OGN APRS log with the independent `ogn-parser`
package (PyPI: pip install ogn-parser, the Rust parser python-ogn-client moved to).

Every aircraft beacon both parse is compared field by field, within the specification's
precision: latitude and longitude to 1e-6 degree (the !Wab! digit is 1/1000 minute, 1.7e-5
degree), altitude in whole feet, course in whole degrees, speed in whole knots, climb in whole
fpm, turn rate to 0.1 rot, the address, its type, the aircraft type, the stealth and no-tracking
bits. Known, documented differences of meaning (not of reading) are not counted as mismatches:
  - `000/000` (OGN's "no data"): gatewayd gives no course (speed 0); ogn-parser gives course 0.
  - a beacon without an id field: gatewayd takes the address from the callsign; ogn-parser none.
Prints the counts by dialect and every mismatch; exits 1 when any field differs.

    python3 scripts/ogn-compare.py [--gatewayd .build/debug/gatewayd] fixtures/ogn/spec-examples.aprs
"""
import argparse
import collections
import json
import subprocess
import sys

try:
    import ogn_parser
except ImportError:
    sys.exit("ogn-compare: needs the ogn-parser package: pip install ogn-parser")


def reference(line):
    """ogn-parser's position fields of an aircraft beacon, or None."""
    try:
        packet = json.loads(ogn_parser.parse_to_json(line)[0]).get("aprs_packet", {})
    except Exception:
        return None
    p = packet.get("position")
    return p if p and p.get("latitude") is not None else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gatewayd", default=".build/debug/gatewayd")
    ap.add_argument("log")
    args = ap.parse_args()
    out = subprocess.run([args.gatewayd, "decode", "--json", args.log], capture_output=True, text=True, check=True)
    ours = collections.defaultdict(collections.deque)
    for line in out.stdout.splitlines():
        o = json.loads(line)
        ours[(o["callsign"], o["beaconTime"].replace(":", ""))].append(o)

    per_dialect = collections.Counter()
    compared_fields = 0
    mismatches = []
    only_reference = 0
    for raw in open(args.log, encoding="utf-8", errors="replace"):
        line = raw.rstrip("\r\n")
        if not line or line.startswith("#"):
            continue
        ref = reference(line)
        if ref is None or "qAC" in line.split(":", 1)[0] or ">OGNSDR" in line:
            continue
        callsign = line.split(">", 1)[0]
        stamp = ref["timestamp"][:6]
        if ref["timestamp"].endswith("z"):
            stamp = stamp[2:] + "00"
        queue = ours.get((callsign, stamp))
        if not queue:
            only_reference += 1
            continue
        o = queue.popleft()
        per_dialect[o["dialect"]] += 1

        def check(name, a, b, ok):
            nonlocal compared_fields
            compared_fields += 1
            if not ok:
                mismatches.append(f"{callsign} {o['dialect']}: {name}: gatewayd {a!r}, ogn-parser {b!r}")

        check("latitude", o["latitude"], ref["latitude"], abs(o["latitude"] - ref["latitude"]) < 1e-6)
        check("longitude", o["longitude"], ref["longitude"], abs(o["longitude"] - ref["longitude"]) < 1e-6)
        check("altitude", o["altitudeFt"], ref.get("altitude"), o["altitudeFt"] == ref.get("altitude"))
        no_data = ref.get("course") == 0 and ref.get("speed") == 0
        if not no_data:
            course = ref.get("course")
            check("course", o.get("trackDeg"), course, (o.get("trackDeg") is None and course is None) or (course is not None and o.get("trackDeg") == course % 360))
        check("speed", o.get("groundSpeedKt"), ref.get("speed"), o.get("groundSpeedKt") == ref.get("speed"))
        check("climb", o.get("climbFpm"), ref.get("climb_rate"), o.get("climbFpm") == ref.get("climb_rate"))
        rot = ref.get("turn_rate")
        check("turn rate", o.get("turnRateRot"), rot, (rot is None and o.get("turnRateRot") is None) or (rot is not None and o.get("turnRateRot") is not None and abs(float(rot) - o["turnRateRot"]) < 0.05))
        if ref.get("address") is not None:
            check("address", o["address"], ref["address"], int(o["address"], 16) == ref["address"])
            types = {0: "random", 1: "icao", 2: "flarm", 3: "ogn", 4: "naviter", 5: "fanet"}
            check("address type", o["addressType"], ref["address_type"], o["addressType"] == types.get(ref["address_type"], f"type {ref['address_type']}"))
            check("aircraft type", o["aircraftTypeCode"], ref["aircraft_type"], o["aircraftTypeCode"] == ref["aircraft_type"])
            check("stealth", o["stealth"], ref["is_stealth"], o["stealth"] == ref["is_stealth"])
            check("no-tracking", o["noTracking"], ref["is_notrack"], o["noTracking"] == ref["is_notrack"])
        if ref.get("flight_level") is not None:
            check("flight level", o.get("pressureAltitudeFt"), ref["flight_level"], o.get("pressureAltitudeFt") == round(float(ref["flight_level"]) * 100))

    compared = sum(per_dialect.values())
    print(f"ogn-compare: {compared} aircraft beacons compared, {compared_fields} fields, {len(mismatches)} differ; "
          f"{only_reference} read by ogn-parser alone")
    print("dialects: " + ", ".join(f"{d} {n}" for d, n in sorted(per_dialect.items())))
    for m in mismatches:
        print("  " + m)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
