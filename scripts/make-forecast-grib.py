#!/usr/bin/env python3
"""Writes GRIB2 files of a model's composite reflectivity for the forecast radar's tests
(issue 55), made by ecCodes itself (the Python `eccodes` bindings), never by the gateway:
a Lambert conformal grid (template 3.30) with HRRR's projection parameters as NOMADS's GRIB
filter cuts it (3 km, standard parallels 38.5°, LoV 262.5°, the Earth a sphere of 6,371,229 m),
its first grid point at the box's south-west corner, and a known field: a storm line of
Gaussian cells (0–70 dBZ), with values below −10 and a few points marked missing (the bitmap).

Usage: make-forecast-grib.py OUT.grib2 --run YYYYMMDDHH --hour H [--packing simple|complex|jpeg]
       [--lat1 44.0 --lon1 -124.5 --nx 120 --ny 100] [--template 0]   (0: a lat/lon grid instead)
"""
import argparse
import math
import sys

try:
    import eccodes
    import numpy as np
except ImportError:
    sys.exit("make-forecast-grib: python3 -m pip install --user eccodes numpy")

PACKING = {"simple": "grid_simple", "complex": "grid_complex_spatial_differencing", "jpeg": "grid_jpeg"}


def field(nx, ny, hour):
    j, i = np.mgrid[0:ny, 0:nx]
    v = np.full((ny, nx), -20.0)
    for k, (ci, cj, peak, r) in enumerate([(0.3, 0.3, 62, 9), (0.5, 0.5, 70, 7), (0.7, 0.6, 48, 12), (0.45, 0.8, 35, 15)]):
        ci_ = ci * nx + hour * 1.5
        cj_ = cj * ny + hour * 0.8
        v = np.maximum(v, peak * np.exp(-((i - ci_) ** 2 + (j - cj_) ** 2) / (2 * r * r)) - 5)
    v += 3 * np.sin(i / 7.0) * np.cos(j / 5.0)
    return v


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--run", required=True)
    ap.add_argument("--hour", type=int, required=True)
    ap.add_argument("--packing", default="simple", choices=PACKING)
    ap.add_argument("--lat1", type=float, default=44.0)
    ap.add_argument("--lon1", type=float, default=-124.5)
    ap.add_argument("--nx", type=int, default=120)
    ap.add_argument("--ny", type=int, default=100)
    ap.add_argument("--template", type=int, default=30)
    a = ap.parse_args()
    h = eccodes.codes_grib_new_from_samples("GRIB2")
    s = eccodes.codes_set
    s(h, "centre", 7)
    s(h, "dataDate", int(a.run[:8]))
    s(h, "dataTime", int(a.run[8:10]) * 100)
    s(h, "discipline", 0)
    s(h, "parameterCategory", 16)
    s(h, "parameterNumber", 196)
    s(h, "typeOfFirstFixedSurface", 10)
    s(h, "indicatorOfUnitOfTimeRange", 1)
    s(h, "forecastTime", a.hour)
    if a.template == 30:
        s(h, "gridDefinitionTemplateNumber", 30)
        s(h, "shapeOfTheEarth", 6)
        s(h, "Nx", a.nx)
        s(h, "Ny", a.ny)
        s(h, "latitudeOfFirstGridPointInDegrees", a.lat1)
        s(h, "longitudeOfFirstGridPointInDegrees", a.lon1 % 360)
        s(h, "LaDInDegrees", 38.5)
        s(h, "LoVInDegrees", 262.5)
        s(h, "Latin1InDegrees", 38.5)
        s(h, "Latin2InDegrees", 38.5)
        s(h, "DxInMetres", 3000)
        s(h, "DyInMetres", 3000)
        s(h, "iScansNegatively", 0)
        s(h, "jScansPositively", 1)
    elif a.template == 20:
        # Polar stereographic: a grid the forecast radar does not draw (its refusal is tested).
        s(h, "gridDefinitionTemplateNumber", 20)
        s(h, "Nx", a.nx)
        s(h, "Ny", a.ny)
        s(h, "latitudeOfFirstGridPointInDegrees", a.lat1)
        s(h, "longitudeOfFirstGridPointInDegrees", a.lon1 % 360)
        s(h, "LaDInDegrees", 60)
        s(h, "orientationOfTheGridInDegrees", 255)
        s(h, "DxInMetres", 3000)
        s(h, "DyInMetres", 3000)
    else:
        s(h, "gridDefinitionTemplateNumber", 0)
        s(h, "Ni", a.nx)
        s(h, "Nj", a.ny)
        s(h, "latitudeOfFirstGridPointInDegrees", a.lat1 + (a.ny - 1) * 0.03)
        s(h, "longitudeOfFirstGridPointInDegrees", a.lon1 % 360)
        s(h, "latitudeOfLastGridPointInDegrees", a.lat1)
        s(h, "longitudeOfLastGridPointInDegrees", (a.lon1 + (a.nx - 1) * 0.03) % 360)
        s(h, "iDirectionIncrementInDegrees", 0.03)
        s(h, "jDirectionIncrementInDegrees", 0.03)
        s(h, "jScansPositively", 0)
    values = field(a.nx, a.ny, a.hour).flatten()
    values[7::97] = 9999.0  # missing points (the bitmap)
    s(h, "packingType", PACKING[a.packing])
    s(h, "bitsPerValue", 12)
    s(h, "decimalScaleFactor", 1)
    s(h, "bitmapPresent", 1)
    s(h, "missingValue", 9999.0)
    eccodes.codes_set_values(h, values)
    with open(a.out, "wb") as f:
        eccodes.codes_write(h, f)
    eccodes.codes_release(h)


if __name__ == "__main__":
    main()
