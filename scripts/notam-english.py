#!/usr/bin/env python3
"""How plain the gateway's NOTAM English is on a set of real NOTAMs (issue 57).

Imports FILE (the FAA NOTAM API's reply shape, `{"items": [...]}`) into a scratch database with
`gatewayd notams import`, reads every translation back with `gatewayd notams list --json`, and
measures, independently of the translator's own code:

- fully plain: no raw date-time group (2402201459), coordinate group (341043.30N0970934.10W),
  height group (1226.0FT, FL180, SFC/AGL/MSL as words, "65 AGL"), distance group (2.6NM, TFD094017)
  and no contraction of the FAA/ICAO lists (the project's table, read from its source) left as
  code unless it is defined once in the text ("air traffic control (ATC)");
- English words left in capitals: an upper-case word of two letters or more that is a word of the
  system dictionary (/usr/share/dict/words, Debian's wamerican) and not a contraction, an
  identifier or a state after a comma ("Salem, OR"); the first word of a sentence counts too
  ("PILOTS must…");
- translations longer than twice their text.

Usage: scripts/notam-english.py FILE [--gatewayd PATH] [--show N] [--json]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATES = set("AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA "
             "RI SC SD TN TX UT VT VA WA WV WI WY DC PR GU VI".split())
DATE = re.compile(r"\b\d{10}(?:EST)?\b")
COORD = re.compile(r"\b\d{4,6}(?:\.\d+)?[NS]\s?\d{5,7}(?:\.\d+)?[EW]\b")
HEIGHT = re.compile(r"\b\d+(?:\.\d+)?FT\b|\bFL\d{2,3}\b|\b(?:SFC|AGL|MSL|AMSL)\b|\b\d+(?:\.\d+)? (?:AGL|MSL)\b")
DISTANCE = re.compile(r"\b\d+(?:\.\d+)?NM\b|\b[A-Z]{3}\d{6}\b")
# Read as they are, like "km" or "UTC": not contractions to spell out.
UNITS = {"UTC", "NOTAM", "NOTAMS"}
WORD = re.compile(r"\b[A-Z][A-Z'’-]*[A-Z]\b")


def contractions():
    text = open(os.path.join(ROOT, "Sources/TrafficGateway/GatewayNotams/NotamContractions.swift"), encoding="utf-8").read()
    return set(re.findall(r'"([A-Z0-9/]{2,})": "', text))


def dictionary():
    """English words and proper names (dallas, worth), not abbreviations the dictionary lists in
    capitals (VHF, GPS, FAA): those are read as letters and stay as they are."""
    path = "/usr/share/dict/words"
    if not os.path.exists(path):
        sys.exit("notam-english: /usr/share/dict/words is missing: sudo apt-get install wamerican")
    words = set()
    for w in open(path, encoding="utf-8", errors="replace"):
        w = w.strip()
        if w.isalpha() and not w.isupper():
            words.add(w.lower())
    return words


def measure(items, table, words):
    rows = []
    for n in items:
        text, tr = n.get("text", ""), n.get("translation", "")
        findings = []
        for kind, pattern in (("date", DATE), ("coordinate", COORD), ("height", HEIGHT), ("distance", DISTANCE)):
            findings += [(kind, m.group(0)) for m in pattern.finditer(tr)]
        capitals = []
        for m in WORD.finditer(tr):
            w = m.group(0)
            before = tr[max(0, m.start() - 2):m.start()]
            # Defined once in the text: "(VOR)", or a part of "(VOR/DME)", "(LNAV/VNAV)".
            defined = re.search(r"\((?:[A-Z0-9-]+/)*" + re.escape(w) + r"(?:/[A-Z0-9-]+)*\)", tr) is not None
            # A navaid's identifier in a radial/distance fix: "from MAP on the 021° radial".
            if tr[max(0, m.start() - 5):m.start()] == "from " and tr[m.end():m.end() + 8] == " on the ":
                continue
            after = tr[m.end():m.end() + 2]
            # Part of an identifier (2022-ASW-3544-OE, RNAV (GPS)-B): not a word.
            if (before.endswith("-") and before[:1].isdigit()) or (len(after) == 2 and after[0] == "-" and after[1].isdigit()):
                continue
            if w in UNITS:
                continue
            # A fix's five-letter name: before "intersection", after an airway (V77 FLOSS), or
            # "KARYN, TX" in a route NOTAM.
            if len(w) == 5 and (tr[m.end():m.end() + 13] == " intersection" or re.search(r"\b[VJTQ]\d+ $", tr[max(0, m.start() - 7):m.start()])
                                or (tr.startswith("Route ") and re.match(r", [A-Z]{2}\b", tr[m.end():m.end() + 4]))):
                continue
            if w in table and not defined and not re.search(r"[a-z]\s*\(" + re.escape(w) + r"\)", tr):
                findings.append(("contraction", w))
                continue
            if w in STATES and before == ", ":
                continue
            core = w.replace("’", "'").strip("'-").lower()
            if core in words and w not in table and len(core) >= 2:
                capitals.append(w)
        rows.append({"number": n.get("number"), "location": n.get("location"), "text": text, "translation": tr,
                     "findings": findings, "capitals": capitals, "long": len(tr) > 2 * max(len(text), 1)})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--gatewayd", default=os.path.join(ROOT, ".build/debug/gatewayd"))
    ap.add_argument("--show", type=int, default=0, help="print N NOTAMs that are not fully plain or keep capitals")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        db = os.path.join(d, "n.sqlite")
        subprocess.run([a.gatewayd, "notams", "import", a.file, "--database", db], check=True, capture_output=True)
        out = subprocess.run([a.gatewayd, "notams", "list", "--json", "--database", db], check=True, capture_output=True, text=True).stdout
    items = [json.loads(l) for l in out.splitlines() if l.strip()]
    rows = measure(items, contractions(), dictionary())
    plain = sum(1 for r in rows if not r["findings"])
    caps = sum(len(r["capitals"]) for r in rows)
    long = sum(1 for r in rows if r["long"])
    summary = {"notams": len(rows), "fully_plain": plain, "fully_plain_share": round(plain / max(len(rows), 1), 4),
               "capitalised_english_words": caps, "capitals_per_notam": round(caps / max(len(rows), 1), 3),
               "longer_than_twice_the_text": long}
    kinds = {}
    for r in rows:
        for k, t in r["findings"]:
            kinds.setdefault(k, {}).setdefault(t, 0)
            kinds[k][t] += 1
    common = {}
    for r in rows:
        for w in r["capitals"]:
            common[w] = common.get(w, 0) + 1
    summary["left_by_kind"] = {k: sorted(v.items(), key=lambda x: -x[1])[:12] for k, v in kinds.items()}
    summary["commonest_capitals"] = sorted(common.items(), key=lambda x: -x[1])[:25]
    if a.json:
        print(json.dumps(summary, indent=1))
    else:
        print(f"{len(rows)} NOTAMs: {plain} fully plain ({100 * plain / max(len(rows), 1):.1f} %), "
              f"{caps} English words in capitals ({caps / max(len(rows), 1):.2f} per NOTAM), {long} translations longer than twice the text")
        for k, v in summary["left_by_kind"].items():
            print(f"  left as {k}: " + ", ".join(f"{t} ×{c}" for t, c in v))
        print("  capitals: " + ", ".join(f"{t} ×{c}" for t, c in summary["commonest_capitals"]))
    shown = 0
    for r in rows:
        if shown >= a.show:
            break
        if r["findings"] or r["capitals"]:
            shown += 1
            print(f"\n{r['location']} {r['number']}: {r['text']}\n  → {r['translation']}\n  findings {r['findings']} capitals {r['capitals']}")


if __name__ == "__main__":
    main()
