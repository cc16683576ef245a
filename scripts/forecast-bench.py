#!/usr/bin/env python3
"""The forecast radar's figures (issue 55, BENCHMARKS.md): a whole run for a 200 NM box fetched,
decoded and drawn by `gatewayd weather forecast fetch` from a loopback NOMADS (scripts/nomads-fake.py)
serving GRIB2 files made by ecCodes (scripts/make-forecast-grib.py, complex packing with spatial
differencing as NOMADS serves HRRR and the NAM nest, 12 bits, 0.1 dBZ), for HRRR (f00–f18) and the
NAM nest (f00–f60). Says bytes fetched and on disk per run, decode, draw and write time per frame
(from the command's own per-hour lines: median and worst), wall time per frame, and the command's
peak memory (/usr/bin/time's maximum resident set, beside `forecast list`'s as the same-run baseline).

The field is synthetic (storm cells over a textured background), so bytes fetched are this
field's; a real field compresses differently: the upper bound of 16 bits a point is printed beside.

Usage: forecast-bench.py [--gatewayd .build/release/gatewayd] [--radius 200] [--near KSLE]
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gatewayd", default=os.path.join(HERE, "..", ".build", "release", "gatewayd"))
    ap.add_argument("--radius", type=float, default=200)
    ap.add_argument("--keep", action="store_true", help="keep the scratch folder")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="skygate-forecast-bench-")
    # The NOMADS filter cuts the smallest block of the Lambert grid holding the box: for 200 NM
    # around KSLE (44.9 N 123.0 W) about 740 × 750 km, turned some 18° by the cone there, so about
    # 310 × 310 points of 3 km; 330 × 330 from 40.0 N 128.5 W covers it.
    n = max(60, int(330 * a.radius / 200))
    runs = [("hrrr", "2026120500", range(0, 19), lambda hh, f: f"hrrr.t{hh}z.wrfsfcf{f:02d}.grib2"),
            ("nam", "2026120500", range(0, 61), lambda hh, f: f"nam.t{hh}z.conusnest.hiresf{f:02d}.tm00.grib2")]
    print(f"forecast bench: {a.radius:.0f} NM box around KSLE, {n}×{n} points of 3 km a frame, files made by ecCodes (complex packing)")
    for model, run, hours, name in runs:
        served = os.path.join(work, "nomads", run[:8])
        os.makedirs(served, exist_ok=True)
        for h in hours:
            subprocess.run([sys.executable, os.path.join(HERE, "make-forecast-grib.py"), os.path.join(served, name(run[8:], h)),
                            "--run", run, "--hour", str(h), "--packing", "complex", "--lat1", "40.0", "--lon1", "-128.5",
                            "--nx", str(n), "--ny", str(n)], check=True, stdout=subprocess.DEVNULL)
    server = subprocess.Popen([sys.executable, os.path.join(HERE, "nomads-fake.py"), os.path.join(work, "nomads")], stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    try:
        for model, run, hours, _ in runs:
            database = os.path.join(work, model, "g.sqlite")
            os.makedirs(os.path.dirname(database))
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.monotonic()
            p = subprocess.run(["/usr/bin/time", "-f", "maxrss %M", a.gatewayd, "weather", "forecast", "fetch", "--model", model, "--near", "KSLE", "--radius", str(a.radius),
                                "--hours", str(hours[-1]), "--run", run, "--url", f"http://127.0.0.1:{port}", "--database", database],
                               capture_output=True, text=True)
            wall = time.monotonic() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if p.returncode != 0:
                sys.exit(f"forecast bench: {model}: {p.stdout}{p.stderr}")
            lines = p.stdout + p.stderr
            times = [tuple(float(x) for x in m) for m in re.findall(r"decoded in ([0-9.]+) ms, drawn in ([0-9.]+) ms, PNG and files in ([0-9.]+) ms", lines)]
            size = re.search(r"drawn (\d+)×(\d+)", lines)
            fetched = int(re.search(r"(\d+) kB fetched", lines).group(1))
            folder = os.path.join(work, model, "forecast", model, run)
            on_disk = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))
            frames = len(times)
            med = [statistics.median(t[i] for t in times) for i in range(3)]
            worst = [max(t[i] for t in times) for i in range(3)]
            peak = int(re.search(r"maxrss (\d+)", p.stderr).group(1))  # kB
            # The same-run baseline: the same binary listing the runs (no ecCodes, no picture).
            idle = subprocess.run(["/usr/bin/time", "-f", "maxrss %M", a.gatewayd, "weather", "forecast", "list", "--database", database],
                                  capture_output=True, text=True)
            base = int(re.search(r"maxrss (\d+)", idle.stderr).group(1))
            print(f"{model}: {frames} frames of {size.group(1)}×{size.group(2)} px; fetched {fetched} kB ({fetched / frames:.0f} kB a frame; "
                  f"16 bits a point would be {n * n * 2 / 1024 * frames:.0f} kB); on disk {on_disk / 1024:.0f} kB ({on_disk / 1024 / frames:.1f} kB a frame)")
            print(f"{model}: per frame decode {med[0]:.1f} ms (worst {worst[0]:.1f}), draw {med[1]:.1f} ms (worst {worst[1]:.1f}), "
                  f"PNG and files {med[2]:.1f} ms (worst {worst[2]:.1f}); wall {wall:.1f} s for the run, {wall / frames * 1000:.0f} ms a frame "
                  f"with the loopback fetch; CPU {(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime):.1f} s; peak RSS {peak / 1024:.0f} MB "
                  f"(`forecast list`, same binary, no ecCodes: {base / 1024:.0f} MB; {(peak - base) / 1024:.0f} MB for ecCodes and the drawing)")
    finally:
        server.terminate()
        server.wait()
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print("kept:", work)


if __name__ == "__main__":
    main()
