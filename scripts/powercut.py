#!/usr/bin/env python3
"""Power-cut campaign (issue 40): `gatewayd run --record` with the alert log and logbook, killed
with SIGKILL (one time in five SIGTERM) at random moments while it plays the demo flight, its recording cut at a random byte
of what that run wrote (what a power cut leaves on an SD card) and its database's WAL cut at a
random byte, then started again in the same hour. After every restart it must come up and alert;
at every step:

- every datagram of a block that was whole in the recording when the power went is read back, in
  order, by the next run's recording and at the end by `gatewayd decode` (gatewayd's own reader);
- the database passes `PRAGMA integrity_check`;
- no flight is kept twice.

Usage: scripts/powercut.py [RUNS] [--seed N] [--gatewayd PATH]. Prints a summary line and
"N passed, N failed"; exits 1 on any failure. Everything is on this machine: a temporary folder,
no network.
"""
import argparse
import os
import random
import signal
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def blocks(data):
    """The whole blocks of a pcapng file, in order, up to the first that is not whole:
    (interface id or None, payload) for each enhanced packet block."""
    out, at, little = [], 0, True
    while at + 12 <= len(data):
        btype = struct.unpack_from("<I", data, at)[0]
        if btype == 0x0A0D0D0A:
            little = data[at + 8:at + 12] == b"\x4d\x3c\x2b\x1a"
        order = "<" if little else ">"
        length = struct.unpack_from(order + "I", data, at + 4)[0]
        if length < 12 or length % 4 or at + length > len(data):
            break
        if struct.unpack_from(order + "I", data, at + length - 4)[0] != length:
            break
        if btype == 6:
            iface, _, _, captured = struct.unpack_from(order + "IIII", data, at + 8)
            out.append((iface, bytes(data[at + 28:at + 28 + captured])))
        at += length
    return out, at


def datagrams(folder):
    """The GDL90 packets (interface 0) of every whole block of the folder's hours, in order."""
    out = []
    for name in sorted(os.listdir(folder)):
        if name.startswith("gdl90-") and name.endswith(".pcapng"):
            with open(os.path.join(folder, name), "rb") as f:
                out += [p for i, p in blocks(f.read())[0] if i == 0]
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="?", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gatewayd", default=os.path.join(ROOT, ".build", "debug", "gatewayd"))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="gatewayd-powercut-")
    record, database = os.path.join(work, "rec"), os.path.join(work, "gateway.sqlite")
    capture = os.path.join(ROOT, "fixtures", "demo-flight.pcap")
    notams = os.path.join(ROOT, "fixtures", "notams-demo.json")
    passed = failed = 0
    failures = []
    kept = []  # the packets whole after the last cut: what every later read must begin with
    alerted = restarts = cuts = wal_cuts = stops = 0
    started_at = time.monotonic()

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            failures.append(what)
            print("FAIL: " + what, file=sys.stderr)

    for run in range(args.runs):
        hour = os.path.join(record, "gdl90-2026-05-16-14.pcapng")
        before = os.path.getsize(hour) if os.path.exists(hour) else 0
        out = open(os.path.join(work, "stdout"), "wb")
        err = open(os.path.join(work, "stderr"), "wb")
        p = subprocess.Popen([args.gatewayd, "run", "--replay", capture, "--speed", "50", "--notams", notams,
                              "--record", record, "--database", database, "--http-port", "0", "--nmea-port", "0",
                              "--status-interval", "0"], stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        # The first alert (the TFR ahead) comes 90 s into the flight: 1.8 s at 50 times.
        moment = rng.uniform(0.3, 7.0)
        # One stop in five is the graceful one (the flight is kept then, again each time: never twice).
        graceful = rng.random() < 0.2
        time.sleep(moment)
        p.send_signal(signal.SIGTERM if graceful else signal.SIGKILL)
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            check(False, f"run {run}: SIGTERM did not stop it in 10 s")
            p.kill()
            p.wait()
        stops += graceful
        out.close()
        err.close()
        restarts += 1
        said = open(os.path.join(work, "stderr"), "rb").read().decode("utf-8", "replace")
        printed = open(os.path.join(work, "stdout"), "rb").read().decode("utf-8", "replace")
        check("gatewayd: playing" in said or moment < 1.0, f"run {run}: did not come up in {moment:.1f} s: {said[-400:]}")
        if moment > 3.0:
            check("raised" in printed, f"run {run}: no alert in {moment:.1f} s")
        if "raised" in printed:
            alerted += 1
        # Every packet whole before this run is still there, in order, then this run's.
        now = datagrams(record)
        check(now[:len(kept)] == kept, f"run {run}: the recording lost packets whole before the restart ({len(now)} < {len(kept)})")
        # The power cut: the card keeps a random prefix of what this run wrote.
        if os.path.exists(hour):
            size = os.path.getsize(hour)
            if size > before and rng.random() < 0.7:
                cut = rng.randint(before, size)
                os.truncate(hour, cut)
                cuts += 1
        wal = database + "-wal"
        if os.path.exists(wal) and os.path.getsize(wal) > 0 and rng.random() < 0.5:
            os.truncate(wal, rng.randint(0, os.path.getsize(wal)))
            wal_cuts += 1
        kept = datagrams(record)
        if not os.path.exists(database):
            continue  # stopped before it made its database
        # Read-only: the check must not make the file (nor its WAL) itself.
        db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        try:
            check(db.execute("PRAGMA integrity_check").fetchone()[0] == "ok", f"run {run}: integrity_check failed")
            # Stopped before its schema was all made (each step is a transaction): no logbook yet.
            if db.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'flight'").fetchone()[0]:
                twice = db.execute("SELECT COUNT(*) FROM (SELECT start FROM flight GROUP BY start HAVING COUNT(*) > 1)").fetchone()[0]
                check(twice == 0, f"run {run}: {twice} flight(s) kept twice")
        except sqlite3.DatabaseError as e:
            check(False, f"run {run}: the database cannot be read: {e}")
        finally:
            db.close()

    # gatewayd's own reader reads back every packet whole in the recording, torn tail and all.
    hour = os.path.join(record, "gdl90-2026-05-16-14.pcapng")
    decoded = subprocess.run([args.gatewayd, "decode", "--json", hour], capture_output=True, text=True)
    summary = [line for line in decoded.stderr.splitlines() if line.startswith("summary:")]
    count = int(summary[0].split()[1]) if summary else -1
    check(count == len(kept), f"decode read {count} datagrams, the recording holds {len(kept)} whole")
    flights = sqlite3.connect(f"file:{database}?mode=ro", uri=True).execute("SELECT COUNT(*) FROM flight").fetchone()[0]
    took = time.monotonic() - started_at
    print(f"powercut: {args.runs} kills (seed {args.seed}) in {took:.0f} s: {restarts} restarts, {alerted} alerted before the kill, "
          f"{stops} of them SIGTERM; {cuts} recordings and {wal_cuts} WALs cut; {len(kept)} datagrams whole in the recording, all read back; "
          f"{flights} flight(s) in the logbook")
    print(f"{passed} passed, {failed} failed")
    if failed == 0:
        subprocess.run(["rm", "-rf", work])
    else:
        print(f"powercut: files kept in {work}", file=sys.stderr)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
