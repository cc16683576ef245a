'use strict';
// The fleet page: the club's aircraft on one map, the gateways, the club logbook and the live
// alerts, from `gatewayd fleet`. Every string from the station goes into the page through
// textContent (el, svg below), never innerHTML, so nothing it says can become markup.
(function () {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const SVG = 'http://www.w3.org/2000/svg';
  const STALE_SEC = 60;
  const STRIP_MAX = 20;
  const levelRank = { advisory: 1, caution: 2, warning: 3 };
  const state = {
    fleet: null, fetchedAt: 0, serverOffset: 0, flights: null, ok: false, lastOk: 0,
    strip: [], seen: new Set(), stale: '', stream: null
  };

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) if (attrs[k] !== undefined && attrs[k] !== null) e.setAttribute(k, String(attrs[k]));
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  // A station started with a token ([fleet] station_token) wants it on every request: from the
  // address (?token=) or kept on this device, asked for when the station says 401.
  let token = params.get('token') || localStorage.getItem('fleet-token') || '';
  function withToken(path) {
    if (!token) return path;
    return path + (path.indexOf('?') < 0 ? '?' : '&') + 'token=' + encodeURIComponent(token);
  }
  async function getJSON(path) {
    const r = await fetch(withToken(path), { cache: 'no-store' });
    if (r.status === 401) { $('need-token').hidden = false; throw new Error(path + ': a token is required'); }
    if (!r.ok) throw new Error(path + ': HTTP ' + r.status);
    return r.json();
  }
  function has(v) { return v !== undefined && v !== null; }
  // A number the page can draw or print: finite (a string, NaN or 1e308 is not).
  function num(v) { return typeof v === 'number' && isFinite(v); }
  // A place on the Earth: the station refuses others, and the page never trusts that alone
  // (one longitude of -123000000 made the grid loop below run forever in every open tab).
  function onEarth(lat, lon) { return num(lat) && num(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180; }
  function placed(o) { return !!o && onEarth(o.lat, o.lon); }
  function pad(n) { return (n < 10 ? '0' : '') + n; }
  function now() { return Date.now() + state.serverOffset; }
  function hhmmss(ms) { const d = new Date(ms); return pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes()) + ':' + pad(d.getUTCSeconds()) + 'Z'; }
  function hhmm(iso) { if (!iso) return '\u2014'; const d = new Date(iso); return isNaN(d) ? '\u2014' : pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes()) + 'Z'; }
  function day(iso) { const d = new Date(iso); return isNaN(d) ? '\u2014' : d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1) + '-' + pad(d.getUTCDate()); }
  function ago(sec) {
    if (!has(sec) || !isFinite(sec)) return '\u2014';
    const s = Math.max(0, Math.round(sec));
    if (s < 60) return s + ' s ago';
    if (s < 3600) return Math.floor(s / 60) + ' min ago';
    if (s < 86400) return Math.floor(s / 3600) + ' h ' + pad(Math.floor(s / 60) % 60) + ' min ago';
    return Math.floor(s / 86400) + ' d ago';
  }
  function hmm(sec) { if (!has(sec)) return '\u2014'; const m = Math.round(sec / 60); return Math.floor(m / 60) + ':' + pad(m % 60); }
  function feet(ft) { return has(ft) ? Math.round(ft).toLocaleString('en-US') + ' ft' : '\u2014'; }
  function worst(alerts) {
    let best = '';
    for (const a of alerts || []) if ((levelRank[a.level] || 0) > (levelRank[best] || 0)) best = a.level;
    return best;
  }
  // Ages as of now: the station's figure plus the time since the answer came (so they go on
  // growing while the link is down, and the picture greys out).
  function since() { return state.fetchedAt ? (Date.now() - state.fetchedAt) / 1000 : 0; }
  function contactAge(g) { return has(g.contactAgeSec) ? g.contactAgeSec + since() : null; }
  function positionAge(g) { return has(g.ownshipAgeSec) ? g.ownshipAgeSec + since() : null; }
  function isStale(g) { return !g.online || !g.ownship || !(positionAge(g) <= STALE_SEC); }

  // ---- the link to the station ----
  function link(ok, why) {
    state.ok = ok;
    if (ok) state.lastOk = Date.now();
    $('link').textContent = ok ? 'live' : 'offline';
    $('link').className = 'link ' + (ok ? 'up' : 'down');
    $('link').title = ok ? 'connection to the station' : 'station not answering' + (why ? ' (' + why + ')' : '') +
      (state.lastOk ? '; last answer ' + hhmmss(state.lastOk + state.serverOffset) : '');
  }
  async function loadFleet() {
    try {
      const doc = await getJSON('/api/fleet');
      state.fleet = doc; state.fetchedAt = Date.now();
      const t = Date.parse(doc.time);
      if (!isNaN(t)) state.serverOffset = t - Date.now();
      link(true);
      for (const g of doc.gateways) if (g.lastAlert) addAlert(Object.assign({ gateway: g.id }, g.lastAlert));
      render();
    } catch (e) {
      link(false, e.message);
      render();
    }
  }
  async function loadFlights() {
    try {
      state.flights = await getJSON('/api/fleet/flights');
      renderFlights();
    } catch (e) {
      link(false, e.message);
    }
  }

  function render() {
    const doc = state.fleet;
    const gws = doc ? doc.gateways : [];
    const up = gws.filter((g) => g.online).length;
    $('online').textContent = doc ? up + ' / ' + gws.length + ' online' : '\u2013 / \u2013 online';
    state.stale = gws.map((g) => isStale(g) ? 1 : 0).join('');
    renderGateways(gws);
    drawMap(gws);
  }

  // ---- gateways ----
  function renderGateways(gws) {
    const body = $('gateways'); clear(body);
    $('gateway-count').textContent = state.fleet ? String(gws.length) : '';
    if (!gws.length) {
      const tr = el('tr'), td = el('td', 'muted', state.fleet ? 'No gateway has reported yet' : 'Waiting for the station');
      td.colSpan = 8; tr.appendChild(td); body.appendChild(tr); return;
    }
    for (const g of gws) {
      const tr = el('tr', (worst(g.activeAlerts) || '') + (g.online ? '' : ' off'));
      const id = el('td'); id.appendChild(el('strong', '', g.id));
      if (g.ogn) id.appendChild(el('div', 'sub', 'OGN ' + g.ogn));
      const n = (g.activeAlerts || []).length;
      if (n) id.appendChild(el('div', 'sub', n + ' active alert' + (n === 1 ? '' : 's')));
      tr.appendChild(id);
      const st = el('td');
      st.appendChild(el('span', 'chip ' + (g.online ? 'online' : 'offline'), g.online ? 'online' : 'offline'));
      if (!g.online && g.reason) st.appendChild(el('div', 'sub', g.reason));
      tr.appendChild(st);
      const contact = el('td', 'age'); contact.dataset.age = 'contact'; contact.textContent = ago(contactAge(g));
      if (g.lastContact) contact.title = hhmmss(Date.parse(g.lastContact));
      tr.appendChild(contact);
      const pos = el('td', 'age');
      if (g.ownship) {
        pos.dataset.age = 'position'; pos.textContent = ago(positionAge(g));
        if (g.ownship.deadReckoned) pos.appendChild(el('div', 'sub', 'dead-reckoned'));
        else if (g.ownship.gpsValid === false) pos.appendChild(el('div', 'sub', 'no GPS fix'));
      } else pos.textContent = 'none';
      tr.appendChild(pos);
      const o = g.ownship;
      const alt = el('td', 'num', o && num(o.altitudeFt) ? feet(o.altitudeFt) : '\u2014');
      if (o) alt.appendChild(el('div', 'sub', (has(o.groundSpeedKt) ? Math.round(o.groundSpeedKt) + ' kt' : '') + (o.airborne === false ? ' on ground' : '')));
      tr.appendChild(alt);
      tr.appendChild(el('td', 'num', has(g.targets) ? g.targets : '\u2014'));
      const last = el('td', 'wrap');
      const a = g.lastAlert;
      if (a) {
        last.appendChild(el('span', 'chip ' + (a.event === 'cleared' ? 'cleared' : a.level), a.event === 'cleared' ? 'cleared' : a.level));
        last.appendChild(document.createTextNode(' ' + (a.message || a.kind || '')));
        const t = Date.parse(a.time);
        if (!isNaN(t)) last.appendChild(el('div', 'sub', hhmmss(t) + ' \u00b7 ' + ago((now() - t) / 1000)));
      } else last.appendChild(el('span', 'muted', 'none'));
      tr.appendChild(last);
      tr.appendChild(el('td', '', g.version || '\u2014'));
      body.appendChild(tr);
    }
  }

  // ---- the map: SVG, equirectangular around the middle latitude, north up, fitted ----
  const NICE_NM = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
  const GRID_MIN = [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1200, 1800];
  // A light aircraft seen from above, nose up, about 28 px span.
  const PLANE = 'M0,-14 L3,-4 L13,2 L3,2 L2,10 L6,13 L-6,13 L-2,10 L-3,2 L-13,2 L-3,-4 Z';
  function angle(deg, hemi) {
    const m = Math.round(Math.abs(deg) * 60);
    return Math.floor(m / 60) + '\u00b0' + (m % 60 ? pad(m % 60) + '\u2032' : '') + hemi[deg < 0 ? 1 : 0];
  }
  function drawMap(gws) {
    const map = $('map'), wrap = $('map-wrap');
    const W = wrap.clientWidth, H = wrap.clientHeight;
    drawnSize = W + 'x' + H;
    clear(map);
    if (!W || !H) return;
    map.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    const pts = [];
    for (const g of gws) {
      if (placed(g.ownship)) pts.push([g.ownship.lat, g.ownship.lon]);
      for (const p of g.track || []) if (Array.isArray(p) && onEarth(p[0], p[1])) pts.push(p);
    }
    const any = gws.some((g) => placed(g.ownship));
    $('map-empty').hidden = any;
    $('map-empty').textContent = state.fleet ? 'No aircraft position yet' : 'Waiting for the station';
    if (!pts.length) return;
    let s = 90, n = -90, w = 180, e = -180;
    for (const p of pts) { s = Math.min(s, p[0]); n = Math.max(n, p[0]); w = Math.min(w, p[1]); e = Math.max(e, p[1]); }
    const k = Math.cos((s + n) / 2 * Math.PI / 180);
    // At least 3 NM across, so one aircraft alone is not drawn at an absurd scale.
    const spanX = Math.max((e - w) * k, 3 / 60), spanY = Math.max(n - s, 3 / 60);
    // Margins: room for the labels (right of a symbol), the grid's words and the scale bar.
    const ml = 56, mr = 120, mt = 40, mb = 48;
    const scale = Math.min((W - ml - mr) / spanX, (H - mt - mb) / spanY); // px per degree of latitude
    const cx = (w + e) / 2, cy = (s + n) / 2, ox = ml + (W - ml - mr) / 2, oy = mt + (H - mt - mb) / 2;
    const X = (lon) => ox + (lon - cx) * k * scale, Y = (lat) => oy - (lat - cy) * scale;
    const lonAt = (x) => cx + (x - ox) / (k * scale), latAt = (y) => cy - (y - oy) / scale;

    // The graticule: a round step in minutes giving three to eight lines across the longer side.
    const g0 = svg('g', {});
    const across = Math.max(W / (k * scale), H / scale) * 60;
    const step = (GRID_MIN.find((m) => across / m <= 8) || 3600) / 60;
    // Bounded whatever the numbers: at most 64 lines each way.
    for (let lon = Math.ceil(lonAt(0) / step) * step, n = 0; lon <= lonAt(W) && n < 64; lon += step, n++) {
      const x = X(lon);
      g0.appendChild(svg('line', { class: 'grid', x1: x, y1: 0, x2: x, y2: H }));
      // Words only clear of the latitudes' column, the north mark and the edge.
      if (x > 64 && x < W - 90) g0.appendChild(svg('text', { class: 'grid-label', x: x + 3, y: 13 }, angle(lon, 'EW')));
    }
    for (let lat = Math.ceil(latAt(H) / step) * step, n = 0; lat <= latAt(0) && n < 64; lat += step, n++) {
      const y = Y(lat);
      g0.appendChild(svg('line', { class: 'grid', x1: 0, y1: y, x2: W, y2: y }));
      if (y > 30 && y < H - 40) g0.appendChild(svg('text', { class: 'grid-label', x: 3, y: y - 3 }, angle(lat, 'NS')));
    }
    map.appendChild(g0);

    // Scale bar (a round number of NM, at most a quarter of the width) and the north mark.
    const pxPerNM = scale / 60;
    const nm = NICE_NM.filter((v) => v * pxPerNM <= W / 4).pop() || NICE_NM[0];
    const bx = 14, by = H - 16, bw = nm * pxPerNM;
    map.appendChild(svg('path', { class: 'scale', d: 'M' + bx + ',' + (by - 6) + 'V' + by + 'H' + (bx + bw) + 'V' + (by - 6) }));
    map.appendChild(svg('text', { class: 'scale-label', x: bx + bw + 6, y: by + 1 }, nm + ' NM'));
    map.appendChild(svg('path', { class: 'scale', d: 'M' + (W - 20) + ',34 V14 M' + (W - 25) + ',20 L' + (W - 20) + ',13 L' + (W - 15) + ',20' }));
    map.appendChild(svg('text', { class: 'north', x: W - 20, y: 48, 'text-anchor': 'middle' }, 'N'));

    // Tracks first, under every symbol; stale ones under the live ones.
    const order = gws.slice().sort((a, b) => (isStale(b) - isStale(a)) || ((levelRank[worst(a.activeAlerts)] || 0) - (levelRank[worst(b.activeAlerts)] || 0)));
    const groups = [];
    for (const g of order) {
      const level = worst(g.activeAlerts), stale = isStale(g);
      const grp = svg('g', { class: 'ac' + (level && !stale ? ' ' + level : '') + (stale ? ' stale' : '') });
      const tr = (g.track || []).filter((p) => Array.isArray(p) && onEarth(p[0], p[1])).map((p) => X(p[1]).toFixed(1) + ',' + Y(p[0]).toFixed(1));
      if (tr.length > 1) grp.appendChild(svg('polyline', { class: 'track', points: tr.join(' ') }));
      map.appendChild(grp);
      groups.push([g, grp, level, stale]);
    }
    // Symbols, then labels placed where they overlap neither a symbol nor an earlier label.
    const boxes = [];
    const symbols = [];
    for (const [g, grp, level, stale] of groups) {
      const o = g.ownship;
      if (!placed(o)) continue;
      const x = X(o.lon), y = Y(o.lat);
      symbols.push([g, grp, level, stale, x, y]);
      boxes.push({ x: x - 14, y: y - 14, w: 28, h: 28 });
      if (level === 'warning' && !stale) grp.appendChild(svg('circle', { class: 'ring', cx: x, cy: y, r: 20 }));
      const title = svg('title', {}, g.id + (g.online ? '' : ' (offline' + (g.reason ? ': ' + g.reason : '') + ')') +
        (level ? ', ' + level : '') + ', position ' + ago(positionAge(g)));
      if (num(o.trackDeg)) {
        const p = svg('path', { class: 'plane', d: PLANE, transform: 'translate(' + x.toFixed(1) + ',' + y.toFixed(1) + ') rotate(' + Math.round(o.trackDeg) + ')' });
        p.appendChild(title); grp.appendChild(p);
      } else {
        const c = svg('circle', { class: 'plane', cx: x, cy: y, r: 7 });
        c.appendChild(title); grp.appendChild(c);
      }
    }
    for (const [g, grp, , stale, x, y] of symbols) {
      const o = g.ownship;
      const t = svg('text', { class: 'label' });
      t.appendChild(svg('tspan', { class: 'id', x: 0, dy: 0 }, g.id));
      const line2 = (num(o.altitudeFt) ? feet(o.altitudeFt) : '\u2014 ft') + '  ' + (num(o.groundSpeedKt) ? Math.round(o.groundSpeedKt) : '\u2014') + ' kt';
      t.appendChild(svg('tspan', { x: 0, dy: 15 }, line2));
      if (stale) t.appendChild(svg('tspan', { x: 0, dy: 15 }, g.online ? 'position ' + ago(positionAge(g)) : 'offline \u00b7 ' + ago(contactAge(g))));
      grp.appendChild(t);
      const bb = t.getBBox();
      const lw = bb.width + 4, lh = bb.height + 2;
      // Right, left, below, above the symbol; then further down on the right.
      const tries = [[x + 18, y - 10], [x - 18 - lw, y - 10], [x - lw / 2, y + 18], [x - lw / 2, y - 18 - lh]];
      for (let i = 1; i <= 4; i++) tries.push([x + 18, y - 10 + i * lh * 0.6], [x + 18, y - 10 - i * lh * 0.6]);
      let at = tries[0];
      for (const c of tries) {
        const b = { x: c[0], y: c[1], w: lw, h: lh };
        const inside = b.x >= 0 && b.y >= 0 && b.x + b.w <= W && b.y + b.h <= H;
        if (inside && !boxes.some((o2) => b.x < o2.x + o2.w && o2.x < b.x + b.w && b.y < o2.y + o2.h && o2.y < b.y + b.h)) { at = c; break; }
      }
      boxes.push({ x: at[0], y: at[1], w: lw, h: lh });
      // bb.y is the first line's top relative to its baseline at 0.
      t.setAttribute('transform', 'translate(' + (at[0] + 2 - bb.x).toFixed(1) + ',' + (at[1] + 1 - bb.y).toFixed(1) + ')');
    }
  }

  // ---- the club logbook ----
  function renderFlights() {
    const list = (state.flights || []).slice();
    list.sort((a, b) => (Date.parse(b.off_block || b.takeoff) || 0) - (Date.parse(a.off_block || a.takeoff) || 0));
    const body = $('flights'); clear(body);
    const shown = list.slice(0, 200);
    $('flight-count').textContent = list.length ? (list.length > shown.length ? 'newest ' + shown.length + ' of ' + list.length : String(list.length)) : '';
    if (!list.length) {
      const tr = el('tr'), td = el('td', 'muted', 'No flight kept yet'); td.colSpan = 9; tr.appendChild(td); body.appendChild(tr); return;
    }
    for (const f of shown) {
      const tr = el('tr');
      const from = f.started_in_air ? '(air)' : (f.departure || '?'), to = f.ended_in_air ? '(air)' : (f.arrival || '?');
      const cells = [
        ['', f.gateway], ['', day(f.off_block || f.takeoff)], ['', from + ' \u2192 ' + to], ['', hhmm(f.off_block) + ' \u2013 ' + hhmm(f.on_block)],
        ['num', hmm(f.airborne_s)], ['num', has(f.distance_nm) ? f.distance_nm.toFixed(1) : '\u2014'], ['num', feet(f.max_altitude_ft)],
        ['num', has(f.alerts) ? f.alerts : '\u2014'], ['num', has(f.encounters) ? f.encounters : '\u2014']
      ];
      for (const [cls, v] of cells) tr.appendChild(el('td', cls, v));
      if (has(f.closest_nm)) tr.lastChild.title = 'closest ' + f.closest_nm.toFixed(2) + ' NM';
      body.appendChild(tr);
    }
  }

  // ---- the live alert strip: the station's /alerts (one gateway's alert plus "gateway") ----
  function alertKey(a) { return a.gateway + '/' + (a.eventId || (a.id + '/' + a.event + '/' + a.time)); }
  function addAlert(a) {
    if (!a || !a.gateway) return;
    const key = alertKey(a);
    if (state.seen.has(key)) return;
    state.seen.add(key);
    state.strip.push(a);
    // Newest on top by the alert's own time: the backlog after an outage arrives oldest first.
    state.strip.sort((x, y) => (Date.parse(y.time) || 0) - (Date.parse(x.time) || 0));
    state.strip.splice(STRIP_MAX);
    // What fell off the strip stays seen (a gateway's last alert comes back in every poll).
    if (state.seen.size > 5000) state.seen = new Set(state.strip.map(alertKey));
    renderStrip();
  }
  function renderStrip() {
    const list = $('strip'); clear(list);
    if (!state.strip.length) { list.appendChild(el('li', 'muted none', 'No alert yet')); return; }
    for (const a of state.strip) {
      const cleared = a.event === 'cleared';
      const li = el('li', cleared ? 'cleared' : (a.level || ''));
      const who = el('span', 'who', a.gateway);
      const lvl = el('span', '');
      lvl.appendChild(el('span', 'chip ' + (cleared ? 'cleared' : a.level), cleared ? 'cleared' : a.level));
      const t = Date.parse(a.time);
      li.appendChild(who); li.appendChild(lvl); li.appendChild(el('span', 'when', isNaN(t) ? '' : hhmmss(t)));
      li.appendChild(el('span', 'msg', a.message || a.kind || ''));
      list.appendChild(li);
    }
  }
  // Under automation (whose virtual clock waits for an endless stream), or without EventSource,
  // the strip lives on the gateways' last alerts from /api/fleet alone.
  function stream() {
    if (!window.EventSource || navigator.webdriver) { $('stream').textContent = '\u00b7 from the last alerts'; return; }
    if (state.stream) state.stream.close();
    const es = new EventSource(withToken('/alerts'));
    state.stream = es;
    es.onopen = () => { $('stream').textContent = '\u00b7 live'; };
    es.onmessage = (m) => {
      let a; try { a = JSON.parse(m.data); } catch (e) { return; }
      addAlert(a);
    };
    es.onerror = () => { $('stream').textContent = '\u00b7 reconnecting'; };
  }

  // ---- ages, the clock, theme, start ----
  function tick() {
    $('clock').textContent = hhmmss(now());
    const doc = state.fleet;
    if (!doc) return;
    // Redraw when a gateway turns stale (its position passed 60 s), else only refresh the ages.
    if (doc.gateways.map((g) => isStale(g) ? 1 : 0).join('') !== state.stale) { render(); return; }
    const rows = $('gateways').rows;
    doc.gateways.forEach((g, i) => {
      const tr = rows[i]; if (!tr) return;
      for (const td of tr.querySelectorAll('[data-age]')) {
        const v = ago(td.dataset.age === 'contact' ? contactAge(g) : positionAge(g));
        if (td.firstChild && td.firstChild.nodeType === 3) td.firstChild.nodeValue = v;
      }
    });
  }
  function setTheme(t) {
    document.documentElement.dataset.theme = t; $('theme').textContent = t === 'night' ? 'Day' : 'Night';
    localStorage.setItem('fleet-theme', t);
  }
  $('theme').addEventListener('click', () => setTheme(document.documentElement.dataset.theme === 'night' ? 'day' : 'night'));
  const savedTheme = params.get('theme') || localStorage.getItem('fleet-theme');
  setTheme(savedTheme === 'night' || savedTheme === 'day' ? savedTheme : (window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'night' : 'day'));
  // The map is drawn in the wrap's pixels (so words keep their size): redraw when it changes size.
  let drawnSize = '';
  const redraw = () => {
    const size = $('map-wrap').clientWidth + 'x' + $('map-wrap').clientHeight;
    if (size !== drawnSize) { drawnSize = size; drawMap(state.fleet ? state.fleet.gateways : []); }
  };
  if (window.ResizeObserver) new ResizeObserver(redraw).observe($('map-wrap'));
  window.addEventListener('resize', redraw);
  function every(ms, fn) { const run = () => fn().finally(() => setTimeout(run, ms)); run(); }
  every(2000, loadFleet);
  every(60000, loadFlights);
  setInterval(tick, 1000);
  tick();
  $('token-save').addEventListener('click', () => {
    token = $('token-input').value;
    localStorage.setItem('fleet-token', token);
    $('need-token').hidden = true;
    loadFleet(); loadFlights(); stream();
  });
  stream();
})();
