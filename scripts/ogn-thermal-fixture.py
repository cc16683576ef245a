#!/usr/bin/env python3
# Generates fixtures/ogn/thermal.aprs and thermal.gps.jsonl (see fixtures/README.md).
import math, json, os
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "ogn")
T0 = 12 * 3600  # 12:00:00Z on 2026-05-26
DAY = "2026-05-26"
lat0, lon0 = 47.2000, 11.3000  # thermal centre
drift_kt, drift_dir = 8, 90    # the thermal drifts east at 8 kt
def pos(r_m, phase, t, period, cw=False):
    w = 2*math.pi/period * (-1 if cw else 1)
    a = phase + w*t
    dn = r_m*math.cos(a); de = r_m*math.sin(a)
    de += drift_kt*0.5144*t
    lat = lat0 + dn/111320; lon = lon0 + de/(111320*math.cos(math.radians(lat0)))
    # velocity
    vn = -r_m*w*math.sin(a); ve = r_m*w*math.cos(a) + drift_kt*0.5144
    trk = (math.degrees(math.atan2(ve, vn)) + 360) % 360
    gs = math.hypot(vn, ve)/0.5144
    return lat, lon, trk, gs
def aprs_lat(lat):
    d = int(lat); m = (lat-d)*60
    mm = f"{m:06.3f}"  # mm.mmm: the third decimal goes to !W
    return f"{d:02d}{mm[:5]}N", mm[5]
def aprs_lon(lon):
    d = int(lon); m = (lon-d)*60
    mm = f"{m:06.3f}"
    return f"{d:03d}{mm[:5]}E", mm[5]
# gliders: id, radius m, phase, period s, altitude ft, climb fpm
gliders = [("DDB001", 110, 0.0, 26, 4200, 380), ("DDB002", 120, 2.1, 28, 5000, 370),
           ("DDB003", 100, 4.2, 25, 5250, 390), ("DDB004", 130, 1.0, 30, 3950, 380)]
own = (115, 3.1, 27, 4600, 380)  # ownship: 400 ft (122 m) from the nearest, above and below
lines = []; gps = []
for s in range(0, 120):
    t = T0 + s
    hh, mm_, ss = t//3600, t//60 % 60, t % 60
    stamp = f"{DAY}T{hh:02d}:{mm_:02d}:{ss:02d}Z"
    for (gid, r, ph, per, alt, climb) in gliders:
        if s % 2: continue  # a beacon every 2 s, as OGN's APRS carries FLARM
        la, lo, trk, gs = pos(r, ph, s, per)
        a = alt + climb*s/60
        lat, wa = aprs_lat(la); lon, wb = aprs_lon(lo)
        rot = 360/per/3  # rot: 1 = 3°/s
        lines.append(f"{stamp} FLR{gid}>OGFLR,qAS,Thermal:/{hh:02d}{mm_:02d}{ss:02d}h{lat}/{lon}'{int(round(trk))%360:03d}/{int(round(gs)):03d}/A={int(round(a)):06d} !W{wa}{wb}! id06{gid} +{climb:03d}fpm +{rot:.1f}rot 20.0dB 0e +0.5kHz")
    r, ph, per, alt, climb = own
    la, lo, trk, gs = pos(r, ph, s, per)
    a = alt + climb*s/60
    gps.append(json.dumps({"class": "TPV", "mode": 3, "time": stamp, "lat": round(la, 7), "lon": round(lo, 7),
                           "altMSL": round(a*0.3048, 1), "speed": round(gs*0.5144, 2), "track": round(trk, 1),
                           "climb": round(climb*0.3048/60, 2)}))
open(os.path.join(HERE, "thermal.aprs"), "w").write("\n".join(lines)+"\n")
open(os.path.join(HERE, "thermal.gps.jsonl"), "w").write("\n".join(gps)+"\n")
print(len(lines), len(gps))
