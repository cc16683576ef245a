#!/usr/bin/env python3
"""Reads a flight's exports back with the ecosystem's own readers and checks that every track
point's time, position and altitude come back as written (issue 23).

    python3 scripts/check_exports.py EXPECTED.json DIR

EXPECTED.json (written by the Swift test from the flight itself, not from any export):
    {"points": [{"time": epoch_s, "lat": deg, "lon": deg, "alt_m": m or null,
                 "palt_m": m or null, "galt_m": m or null}, ...]}
DIR holds flight.gpx, flight.kml, flight.igc, flight.geojson and flight.csv.

Readers: gpxpy (GPX 1.1), fastkml and lxml (KML 2.2 with gx:Track), aerofiles (IGC), the json
and csv modules. Exit status 0 when all agree; 1 with one line per disagreement; 3 when a reader
is not installed (the test skips locally, fails in CI).
"""
import csv
import datetime
import json
import sys

try:
    import aerofiles.igc
    import fastkml.kml
    import gpxpy
    from lxml import etree
except ImportError as e:  # pragma: no cover
    print(f"missing reader: {e.name} (pip install gpxpy lxml fastkml aerofiles)")
    sys.exit(3)

problems = []


def check(what, i, got, want, tolerance):
    if want is None:
        return
    if got is None or abs(got - want) > tolerance:
        problems.append(f"{what}: point {i}: {got!r} != {want!r} (tolerance {tolerance})")


def epoch(dt):
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=datetime.timezone.utc)
    return dt.timestamp()


def main():
    expected = json.load(open(sys.argv[1]))["points"]
    folder = sys.argv[2]
    with_alt = [p for p in expected if p["alt_m"] is not None]

    # GPX: gpxpy.
    gpx = gpxpy.parse(open(f"{folder}/flight.gpx"))
    points = [p for t in gpx.tracks for s in t.segments for p in s.points]
    if len(points) != len(expected):
        problems.append(f"gpx: {len(points)} track points, {len(expected)} written")
    for i, (p, e) in enumerate(zip(points, expected)):
        check("gpx time", i, epoch(p.time), e["time"], 0.0011)
        check("gpx latitude", i, p.latitude, e["lat"], 6e-8)
        check("gpx longitude", i, p.longitude, e["lon"], 6e-8)
        check("gpx elevation", i, p.elevation, e["alt_m"], 0.051)

    # KML: fastkml for the model, lxml for the raw gx:Track elements.
    data = open(f"{folder}/flight.kml", "rb").read()
    document = list(fastkml.kml.KML.from_string(data).features)[0]
    tracks = [f for f in document.features if type(f).__name__ == "Placemark" and f.name == "Flight track"]
    if len(tracks) != 1:
        problems.append(f"kml: {len(tracks)} 'Flight track' placemarks (fastkml)")
    else:
        items = tracks[0].kml_geometry.track_items
        if len(items) != len(with_alt):
            problems.append(f"kml: fastkml reads {len(items)} gx:Track points, {len(with_alt)} written")
        for i, (item, e) in enumerate(zip(items, with_alt)):
            check("kml time", i, epoch(item.when.dt), e["time"], 0.0011)
            lon, lat, alt = item.coord.coords[0]
            check("kml latitude", i, lat, e["lat"], 6e-8)
            check("kml longitude", i, lon, e["lon"], 6e-8)
            check("kml altitude", i, alt, e["alt_m"], 0.051)
    ns = {"k": "http://www.opengis.net/kml/2.2", "gx": "http://www.google.com/kml/ext/2.2"}
    root = etree.fromstring(data)
    track = root.xpath("//k:Placemark[k:name='Flight track']/gx:Track", namespaces=ns)[0]
    if track.findtext("k:altitudeMode", namespaces=ns) != "absolute":
        problems.append("kml: the track's altitudeMode is not absolute")
    whens = track.findall("k:when", ns)
    coords = track.findall("gx:coord", ns)
    if len(whens) != len(with_alt) or len(coords) != len(with_alt):
        problems.append(f"kml: lxml reads {len(whens)} when / {len(coords)} gx:coord, {len(with_alt)} written")
    line = root.xpath("//k:Placemark[k:name='Flight path']/k:LineString", namespaces=ns)
    if not line or line[0].findtext("k:altitudeMode", namespaces=ns) != "absolute":
        problems.append("kml: no absolute-altitude LineString 'Flight path'")

    # IGC: aerofiles. B records are whole seconds, positions in thousandths of a minute,
    # altitudes in whole metres.
    with open(f"{folder}/flight.igc") as f:
        igc = aerofiles.igc.Reader().read(f)
    errors, fixes = igc["fix_records"]
    if errors:
        problems.append(f"igc: aerofiles reports {errors}")
    seconds = []
    for e in expected:
        s = int(e["time"] // 1)
        if not seconds or s > seconds[-1][0]:
            seconds.append((s, e))
    if len(fixes) != len(seconds):
        problems.append(f"igc: {len(fixes)} B records, {len(seconds)} seconds written")
    for i, (fix, (s, e)) in enumerate(zip(fixes, seconds)):
        t = fix["time"]
        check("igc time of day", i, t.hour * 3600 + t.minute * 60 + t.second, s % 86400, 0)
        check("igc latitude", i, fix["lat"], e["lat"], 1 / 60000 / 2 + 1e-9)
        check("igc longitude", i, fix["lon"], e["lon"], 1 / 60000 / 2 + 1e-9)
        check("igc pressure altitude", i, fix["pressure_alt"], e["palt_m"], 0.5)
        check("igc GNSS altitude", i, fix["gps_alt"], e["galt_m"], 0.5)
    header = igc["header"][1]
    if not header or "utc_date" not in header:
        problems.append("igc: aerofiles finds no date in the H records")

    # GeoJSON: json.
    geo = json.load(open(f"{folder}/flight.geojson"))
    track = [f for f in geo["features"] if f["properties"].get("kind") == "track"][0]
    coords, times = track["geometry"]["coordinates"], track["properties"]["times"]
    if len(coords) != len(with_alt) or len(times) != len(with_alt):
        problems.append(f"geojson: {len(coords)} coordinates / {len(times)} times, {len(with_alt)} written")
    for i, (c, t, e) in enumerate(zip(coords, times, with_alt)):
        check("geojson time", i, epoch(datetime.datetime.fromisoformat(t.replace("Z", "+00:00"))), e["time"], 0.0011)
        check("geojson latitude", i, c[1], e["lat"], 6e-8)
        check("geojson longitude", i, c[0], e["lon"], 6e-8)
        check("geojson altitude", i, c[2], e["alt_m"], 0.051)

    # CSV: csv.
    rows = list(csv.DictReader(open(f"{folder}/flight.csv", newline="")))
    if len(rows) != len(expected):
        problems.append(f"csv: {len(rows)} rows, {len(expected)} written")
    for i, (r, e) in enumerate(zip(rows, expected)):
        check("csv time", i, float(r["epoch_s"]), e["time"], 0.0006)
        check("csv latitude", i, float(r["latitude"]), e["lat"], 6e-8)
        check("csv longitude", i, float(r["longitude"]), e["lon"], 6e-8)
        ft = 1 / 0.3048
        if e["palt_m"] is not None:
            check("csv pressure altitude", i, float(r["pressure_altitude_ft"]) / ft, e["palt_m"], 0.05 / ft)
        if e["galt_m"] is not None:
            check("csv geometric altitude", i, float(r["geometric_altitude_ft"]) / ft, e["galt_m"], 0.05 / ft)

    for p in problems[:50]:
        print(p)
    if len(problems) > 50:
        print(f"... and {len(problems) - 50} more")
    print(f"checked {len(expected)} points in gpx, kml, igc, geojson, csv: {'OK' if not problems else f'{len(problems)} disagreements'}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
