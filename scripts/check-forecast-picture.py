#!/usr/bin/env python3
"""Checks a forecast picture against the GRIB file it was drawn from, with readers independent
of the gateway (issue 55): GDAL reads the PNG with its world file (`gdal_translate -of XYZ`:
each pixel's centre in degrees and its palette index), ecCodes' Python bindings read the GRIB
(every grid point's latitude, longitude and value, missing ones as missing), and each pixel's
index must be the 5 dBZ band of the value at the grid point nearest to its centre (great-circle
distance; index 0 below 5 dBZ or missing, 1 = 5–10 … 14 = 70–75, 15 = ≥ 75). A pixel whose two
nearest grid points are at the same distance within 0.5 % (a tie: the plane and the sphere may
choose differently) is not held against the picture. Prints one line; exit 1 on a mismatch.

Usage: check-forecast-picture.py FILE.grib2 fFF.png
"""
import os
import subprocess
import sys
import tempfile

import eccodes
import numpy as np


def band(v):
    if v is None or v < 5:
        return 0
    if v >= 75:
        return 15
    return 1 + int((v - 5) // 5)


def unit(lat, lon):
    la, lo = np.radians(lat), np.radians(lon)
    return np.stack([np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)], axis=-1)


def main():
    grib, png = sys.argv[1], sys.argv[2]
    with open(grib, "rb") as f:
        h = eccodes.codes_grib_new_from_file(f)
        eccodes.codes_set(h, "missingValue", 1e20)
        data = eccodes.codes_grib_get_data(h)
        eccodes.codes_release(h)
    lats = np.array([p["lat"] for p in data]); lons = np.array([p["lon"] for p in data]); vals = np.array([p["value"] for p in data])
    grid = unit(lats, np.where(lons > 180, lons - 360, lons))
    with tempfile.TemporaryDirectory() as d:
        xyz = os.path.join(d, "p.xyz")
        subprocess.run(["gdal_translate", "-q", "-of", "XYZ", png, xyz], check=True)
        pix = np.loadtxt(xyz)
    centres = unit(pix[:, 1], pix[:, 0])
    mismatches = ties = 0
    for start in range(0, len(pix), 2000):
        c = centres[start:start + 2000]
        dots = c @ grid.T
        order = np.argsort(-dots, axis=1)[:, :2]
        for k in range(len(c)):
            i0, i1 = order[k]
            v = vals[i0]
            want = band(None if v >= 1e19 else v)
            got = int(pix[start + k, 2])
            if got != want:
                a0, a1 = np.arccos(min(1, dots[k, i0])), np.arccos(min(1, dots[k, i1]))
                if a1 - a0 <= 0.005 * max(a1, 1e-12):
                    ties += 1
                else:
                    mismatches += 1
    print(f"checked {len(pix)} pixels against {len(vals)} grid points: {mismatches} mismatches, {ties} at near-ties")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
