#!/usr/bin/env python3
"""How closely the gateway keeps the FAA's official NOTAM shapes (issue 57).

Imports FILE (the FAA NOTAM API's reply shape) with `gatewayd notams import`, reads each stored
NOTAM's area back with `gatewayd notams list --json`, and compares it with the official GeoJSON
geometry of the same NOTAM in FILE, read independently here with shapely: the union of every
Polygon part (holes kept, multi-part GeometryCollections whole), less the SUBTR parts that cut
the whole altitude band out (a SUBTR of only a lower band leaves the footprint whole). The measure is the
intersection over union (IoU) of the two areas, computed on a local equirectangular plane around
the NOTAM (longitudes scaled by cos(latitude); areas crossing 180° are unwrapped first).
A NOTAM counts as agreeing at IoU >= 0.98.

Usage: scripts/notam-shapes.py FILE [--gatewayd PATH] [--show N]     (pip install shapely)
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

try:
    from shapely.geometry import Point, Polygon
    from shapely.ops import unary_union
except ImportError:
    sys.exit("notam-shapes: shapely is missing: python3 -m pip install --user shapely")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def unwrap(ring, lon0):
    return [((lon - lon0 + 540) % 360 - 180 + lon0, lat) for lon, lat in ring]


def plane(rings_lonlat, lat0, lon0):
    k = math.cos(math.radians(lat0))
    return [[((lon - lon0) * k * 60, (lat - lat0) * 60) for lon, lat in unwrap(r, lon0)] for r in rings_lonlat]


def band(part):
    """A part's (floor, ceiling) in feet from its heightInformation (GND/SFC 0, UNL infinite)."""
    h = part.get("heightInformation") or {}
    def ft(v, default):
        if v in (None, ""):
            return default
        if str(v).upper() in ("GND", "SFC"):
            return 0
        if str(v).upper() == "UNL":
            return math.inf
        try:
            return float(v)
        except ValueError:
            return default
    return ft(h.get("lowerLevel"), 0), ft(h.get("upperLevel"), math.inf)


def official(item):
    """The polygons that make the area (BASE, UNION or unmarked parts) and those cut out of it
    (SUBTR parts whose altitude band covers every base part's whole band: a hole in the
    footprint; a SUBTR of only a lower band leaves the footprint whole above it)."""
    g = item.get("geometry") or {}
    parts = g.get("geometries", []) if g.get("type") == "GeometryCollection" else [g]
    polys, holes, bases = [], [], []
    for p in parts:
        shapes = [p["coordinates"]] if p.get("type") == "Polygon" else p["coordinates"] if p.get("type") == "MultiPolygon" else []
        if (p.get("operation") or "").upper() == "SUBTR":
            holes.append((band(p), shapes))
        elif shapes:
            polys += shapes
            bases.append(band(p))
    cut = [s for (lo, hi), shapes in holes for s in shapes if all(lo <= b[0] and hi >= b[1] for b in bases)]
    return polys, cut


def key(item):
    """The store's merge key: the account (issuer) and the number ("SUAC:02/052")."""
    n = item["properties"]["coreNOTAMData"]["notam"]
    return "%s:%s" % (n.get("accountId") or n.get("icaoLocation") or n.get("location"), n.get("number")), n.get("number")


def to_shape(polys, lat0, lon0):
    shapes = []
    for rings in polys:
        pr = plane(rings, lat0, lon0)
        if len(pr[0]) >= 3:
            shapes.append(Polygon(pr[0], [h for h in pr[1:] if len(h) >= 3]).buffer(0))
    return unary_union(shapes) if shapes else None


def stored_shape(g, lat0, lon0):
    shape = g.get("shape")
    if shape == "polygon":
        return to_shape([[g["coordinates"]]], lat0, lon0)
    if shape == "multipolygon":
        return to_shape(g["coordinates"], lat0, lon0)
    if shape == "circle":
        (lon, lat), = g["coordinates"]
        (x, y), = plane([[(lon, lat)]], lat0, lon0)[0:1][0:1][0]
        return Point(x, y).buffer(g["radiusNM"], 256)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--gatewayd", default=os.path.join(ROOT, ".build/debug/gatewayd"))
    ap.add_argument("--show", type=int, default=0)
    a = ap.parse_args()
    items = json.load(open(a.file))["items"]
    with tempfile.TemporaryDirectory() as d:
        db = os.path.join(d, "n.sqlite")
        subprocess.run([a.gatewayd, "notams", "import", a.file, "--database", db], check=True, capture_output=True)
        out = subprocess.run([a.gatewayd, "notams", "list", "--json", "--database", db], check=True, capture_output=True, text=True).stdout
    stored = {}
    for line in out.splitlines():
        n = json.loads(line)
        stored.setdefault(n["key"], n)
    rows = []
    for item in items:
        polys, cut = official(item)
        if not polys:
            continue
        store_key, number = key(item)
        location = store_key.split(":")[0]
        n = stored.get(store_key)
        first = polys[0][0][0]
        lon0, lat0 = first[0], first[1]
        want = to_shape(polys, lat0, lon0)
        if cut and want is not None:
            want = want.difference(to_shape(cut, lat0, lon0))
        got = stored_shape(n["geometry"], lat0, lon0) if n and n.get("geometry") else None
        if want is None or want.area == 0:
            continue
        iou = (want.intersection(got).area / want.union(got).area) if got is not None and not got.is_empty else 0.0
        rows.append((iou, location, number, len(polys), n["geometry"].get("shape") if n and n.get("geometry") else None,
                     n["geometry"].get("origin") if n and n.get("geometry") else None))
    # Parts with bands of their own (a BASE from the ground, a UNION from 1,501 ft): kept?
    banded = kept = 0
    for item in items:
        g = item.get("geometry") or {}
        parts = [p for p in g.get("geometries", []) if p.get("type") == "Polygon" and (p.get("operation") or "").upper() != "SUBTR"]
        if len({json.dumps(band(p)) for p in parts}) > 1:
            banded += 1
            n = stored.get(key(item)[0])
            want = sorted(band(p) for p in parts)
            got = sorted((lo or 0, math.inf if hi is None else hi) for lo, hi in ((n or {}).get("geometry") or {}).get("partBands") or [])
            kept += 1 if got == [(lo, hi) for lo, hi in want] else 0
    good = sum(1 for r in rows if r[0] >= 0.98)
    print(f"{len(rows)} NOTAMs with an official area: {good} agree at IoU >= 0.98 ({100 * good / max(len(rows), 1):.1f} %), "
          f"median IoU {sorted(r[0] for r in rows)[len(rows) // 2]:.4f}")
    print(f"{banded} NOTAMs whose official parts have different altitude bands: {kept} keep each part's band")
    for r in sorted(rows)[:max(a.show, 0)]:
        print(f"  IoU {r[0]:.3f}  {r[1]} {r[2]}: {r[3]} official part(s), stored {r[4]} ({r[5]})")


if __name__ == "__main__":
    main()
