#!/usr/bin/env python3
"""Regenerates data/airports.bin (the gateway's airport table) from the `airportsdata` package.

    pip install airportsdata          # MIT licence, https://github.com/mborsetti/airportsdata
    python3 scripts/airports/generate.py [OUT]     # default data/airports.bin

Every airport with a 4-character ICAO-style identifier (airportsdata's key; US airports without a
real ICAO code carry "K" + their FAA LID there, e.g. K7S5) is kept, with its FAA LID where it has
one. The file is little-endian, read without parsing (see Sources/TrafficGateway/GatewayRecords/Logbook/AirportTable.swift):

    header  32 bytes: magic "SKYAPT01", count u32, lid_count u32, names_offset u32,
            lid_offset u32, lat_offset u32, source_version u32 (YYYYMMDD-like version number)
    records count x 24 bytes, sorted by ICAO id:
            icao[4] ASCII, lid[4] ASCII (space padded, blank when none), lat i32 (1e-6 deg),
            lon i32 (1e-6 deg), elevation i16 (ft), name_length u8, country[1] first letter
            placeholder (0), name_offset u32 (into the names block)
    lids    lid_count x 8 bytes, sorted by LID: lid[4] ASCII space padded, record index u32
    lats    count x 4 bytes: record indexes u32 sorted by latitude (nearest-airport search)
    names   UTF-8 names back to back (at most 60 bytes each)
"""
import struct
import sys

import airportsdata


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else "data/airports.bin"
    airports = airportsdata.load("ICAO")
    rows = []
    for icao, a in airports.items():
        if len(icao) != 4 or not icao.isascii() or not icao.isalnum():
            continue
        lid = (a.get("lid") or "").strip().upper()
        if len(lid) > 4 or not lid.isascii():
            lid = ""
        name = (a.get("name") or "").strip().encode("utf-8")[:60]
        while True:  # never cut a UTF-8 sequence in half
            try:
                name.decode("utf-8")
                break
            except UnicodeDecodeError:
                name = name[:-1]
        elevation = int(round(float(a.get("elevation") or 0)))
        rows.append((icao.upper(), lid, round(float(a["lat"]) * 1e6), round(float(a["lon"]) * 1e6),
                     max(-1500, min(30000, elevation)), name))
    rows.sort(key=lambda r: r[0])
    names = bytearray()
    records = bytearray()
    for icao, lid, lat, lon, elevation, name in rows:
        records += struct.pack("<4s4siihBBI", icao.encode(), lid.ljust(4).encode(), lat, lon, elevation,
                               len(name), 0, len(names))
        names += name
    lids = sorted((r[1], i) for i, r in enumerate(rows) if r[1])
    lid_block = b"".join(struct.pack("<4sI", lid.ljust(4).encode(), i) for lid, i in lids)
    lat_block = b"".join(struct.pack("<I", i) for i in sorted(range(len(rows)), key=lambda i: (rows[i][2], i)))
    header_size = 32
    lid_offset = header_size + len(records)
    lat_offset = lid_offset + len(lid_block)
    names_offset = lat_offset + len(lat_block)
    version = int("".join(ch for ch in str(getattr(airportsdata, "__version__", "0")) if ch.isdigit())[:9] or 0)
    header = struct.pack("<8sIIIIII", b"SKYAPT01", len(rows), len(lids), names_offset, lid_offset, lat_offset, version)
    with open(out, "wb") as f:
        f.write(header + records + lid_block + lat_block + bytes(names))
    print(f"{out}: {len(rows)} airports ({len(lids)} with an FAA LID), "
          f"{header_size + len(records) + len(lid_block) + len(lat_block) + len(names)} bytes, airportsdata {airportsdata.__version__}")


if __name__ == "__main__":
    main()
