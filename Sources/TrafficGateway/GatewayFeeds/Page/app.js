'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  let token = params.get('token') || localStorage.getItem('gw-token') || '';
  const state = {
    panel: 'traffic', range: 10, trackUp: true, traffic: null, alerts: new Map(), history: [], canAck: false,
    serverOffset: 0, selected: null, lastNotamView: Number(localStorage.getItem('gw-notams-seen') || 0), timers: {},
    flight: params.get('flight') ? Number(params.get('flight')) : null, shownFlight: null, flightDoc: null
  };
  const levelRank = { advisory: 1, caution: 2, warning: 3 };

  function url(path) {
    if (!token) return path;
    return path + (path.indexOf('?') < 0 ? '?' : '&') + 'token=' + encodeURIComponent(token);
  }
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  async function getJSON(path) {
    const r = await fetch(url(path), { cache: 'no-store' });
    if (r.status === 401) { $('need-token').hidden = false; throw new Error('token'); }
    if (!r.ok) throw new Error(path + ': ' + r.status);
    $('link').textContent = 'live'; $('link').className = 'link up';
    return r.json();
  }
  function linkDown() { $('link').textContent = 'offline'; $('link').className = 'link down'; }
  function now() { return Date.now() / 1000 + state.serverOffset; }
  function syncClock(doc) { if (doc && doc.epoch) state.serverOffset = doc.epoch - Date.now() / 1000; }
  function pad(n) { return (n < 10 ? '0' : '') + n; }
  function utc(iso) { if (!iso) return ''; const d = new Date(iso); return pad(d.getUTCDate()) + ' ' + pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes()) + 'Z'; }
  function local(iso) { if (!iso) return ''; const d = new Date(iso); return pad(d.getHours()) + ':' + pad(d.getMinutes()) + ' local'; }
  function hhmmss(iso) { const d = new Date(iso); return pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes()) + ':' + pad(d.getUTCSeconds()) + 'Z'; }
  function relAlt(ft) {
    if (ft === undefined || ft === null) return '';
    const h = Math.round(ft / 100), a = Math.abs(h);
    return (h > 0 ? '+' : h < 0 ? '\u2212' : '') + (a < 10 ? '0' : '') + a;
  }
  function vsArrow(vs) { return vs >= 500 ? '\u2191' : vs <= -500 ? '\u2193' : ''; }
  function clockPos(bearing, track) {
    if (bearing === undefined || bearing === null) return '';
    const rel = ((bearing - (track || 0)) % 360 + 360) % 360;
    const c = Math.round(rel / 30) % 12;
    return (c === 0 ? 12 : c) + ' o\u2019clock';
  }

  // ---- panels ----
  function showPanel() {
    // #notams/<number> and #alerts/<eventId> (a notification's link) open the panel at that item.
    const parts = (location.hash || '#traffic').slice(1).split('/');
    const name = parts[0];
    const target = parts.length > 1 ? safeDecode(parts.slice(1).join('/')) : null;
    const panel = ['traffic', 'alerts', 'notams', 'radar', 'weather', 'flights', 'status'].indexOf(name) >= 0 ? name : 'traffic';
    state.focusNotam = panel === 'notams' ? target : null;
    state.focusAlert = panel === 'alerts' ? target : null;
    if (state.panel === 'notams' && panel !== 'notams') {
      state.lastNotamView = now(); localStorage.setItem('gw-notams-seen', String(state.lastNotamView));
    }
    state.panel = panel;
    for (const p of document.querySelectorAll('.panel')) p.hidden = p.id !== 'panel-' + panel;
    for (const a of document.querySelectorAll('nav a')) a.classList.toggle('on', a.dataset.panel === panel);
    schedule();
    if (panel === 'traffic') draw();
    if (panel === 'flights') drawFlight();
    if (panel === 'radar') drawRadarMap();
  }
  function safeDecode(s) { try { return decodeURIComponent(s); } catch (e) { return s; } }
  const periods = { traffic: 1000, alerts: 10000, notams: 60000, radar: 20000, weather: 30000, flights: 30000, status: 2000 };
  const loaders = { traffic: loadTraffic, alerts: loadAlerts, notams: loadNotams, radar: loadRadar, weather: loadWeather, flights: loadFlights, status: loadStatus };
  // A loader runs at its period while its panel shows (the traffic also under the Radar view,
  // which draws it), the alerts while polling, every other one at most once a minute.
  function active(name) { return name === state.panel || (name === 'alerts' && state.polling) || (name === 'traffic' && state.panel === 'radar'); }
  function schedule() {
    for (const name in loaders) {
      clearTimeout(state.timers[name]);
      const period = active(name) ? periods[name] : Math.max(60000, periods[name]);
      const run = () => {
        loaders[name]().catch((e) => { if (String(e.message) !== 'token') linkDown(); })
          .finally(() => { state.timers[name] = setTimeout(run, active(name) ? periods[name] : Math.max(60000, periods[name])); });
      };
      state.timers[name] = setTimeout(run, active(name) ? 0 : period);
    }
  }

  // ---- traffic ----
  async function loadTraffic() {
    const doc = await getJSON('/api/traffic');
    syncClock(doc);
    state.traffic = doc;
    // A storage fault: alerts go on, nothing is kept on the card (the status line and /healthz say it too).
    $('storage-banner').hidden = !doc.storage;
    $('storage-text').textContent = doc.storage ? 'Storage degraded: ' + doc.storage + ' \u2014 alerts go on, the alert log and logbook are not saved' : '';
    renderOwnship(doc); renderTrafficList(doc); renderAirspaceList(doc);
    if (state.alerts.size) renderBanner();
    draw(); drawRadarMap();
  }
  function renderOwnship(doc) {
    const box = $('ownship-body'); clear(box);
    const o = doc.ownship;
    if (!o) { box.appendChild(el('div', 'big', 'No ownship fix')); box.appendChild(el('div', 'muted', 'Waiting for GDL90 ownship or gpsd')); return; }
    const top = el('div', 'big', (o.altitudeFt !== null && o.altitudeFt !== undefined ? o.altitudeFt + ' ft' : '— ft') + '  ' + Math.round(o.groundSpeedKt || 0) + ' kt  ' + (o.trackDeg !== null && o.trackDeg !== undefined ? pad3(o.trackDeg) + '\u00b0' : '—'));
    box.appendChild(top);
    const vs = o.verticalSpeedFpm || 0;
    box.appendChild(el('div', 'kvline', (o.airborne ? 'Airborne' : 'On the ground') + ' \u00b7 ' + (vs > 0 ? '+' : '') + vs + ' fpm \u00b7 GPS ' + (o.gpsValid ? 'fix' : 'no fix') + ' (' + o.source + ')' + (o.deadReckoned ? ' \u00b7 dead-reckoned ' + o.ageSec + ' s' : '')));
  }
  function pad3(n) { n = Math.round(n) % 360; return (n < 10 ? '00' : n < 100 ? '0' : '') + n; }
  function targetName(t) { return t.callsign || t.address; }
  function renderTrafficList(doc) {
    const body = $('traffic-list'); clear(body);
    const track = doc.ownship ? doc.ownship.trackDeg : 0;
    const shown = doc.targets.slice(0, 40);
    $('traffic-count').textContent = doc.targets.length + ' target' + (doc.targets.length === 1 ? '' : 's');
    for (const t of shown) {
      const tr = el('tr', (t.alert || '') + (t.stale ? ' stale' : '') + (state.selected === t.address ? ' pick' : ''));
      // The name on its line, the address and the alert chip under it: a long callsign with its
      // address and chip on one line pushed the GS column out of the card at 1280 px (issue 44).
      const name = el('td', 'who'); name.appendChild(el('strong', '', targetName(t)));
      if (t.callsign || t.alert) {
        const sub = el('div', 'sub');
        if (t.callsign) sub.appendChild(el('span', 'muted', t.address + ' '));
        if (t.alert) sub.appendChild(el('span', 'chip ' + t.alert, t.alert));
        name.appendChild(sub);
      }
      tr.appendChild(name);
      tr.appendChild(el('td', '', relAlt(t.relativeAltitudeFt) + vsArrow(t.verticalSpeedFpm || 0)));
      tr.appendChild(el('td', '', t.rangeNM !== undefined ? t.rangeNM.toFixed(1) + ' NM' : ''));
      tr.appendChild(el('td', '', clockPos(t.bearingDeg, state.trackUp ? track : 0)));
      tr.appendChild(el('td', '', t.groundSpeedKt !== undefined && t.groundSpeedKt !== null ? t.groundSpeedKt + ' kt' : ''));
      tr.addEventListener('click', () => { state.selected = t.address; renderSelected(); renderTrafficList(state.traffic); draw(); });
      body.appendChild(tr);
    }
    renderSelected();
  }
  function renderSelected() {
    const box = $('selected');
    const doc = state.traffic;
    const t = doc && state.selected ? doc.targets.find((x) => x.address === state.selected) : null;
    if (!t) { box.hidden = true; return; }
    box.hidden = false; clear(box);
    box.appendChild(el('h2', '', targetName(t) + (t.callsign ? ' (' + t.address + ')' : '')));
    const lines = [
      (t.altitudeFt !== undefined ? t.altitudeFt + ' ft' : 'altitude unknown') + (t.relativeAltitudeFt !== undefined ? ' (' + relAlt(t.relativeAltitudeFt) + ')' : ''),
      (t.rangeNM !== undefined ? t.rangeNM.toFixed(1) + ' NM, bearing ' + pad3(t.bearingDeg) + '\u00b0' : ''),
      (t.groundSpeedKt !== undefined ? t.groundSpeedKt + ' kt' : '') + (t.verticalSpeedFpm ? ', ' + t.verticalSpeedFpm + ' fpm' : '') + ', ' + t.category + (t.stale ? ', stale ' + t.ageSec + ' s' : '')
    ];
    for (const l of lines) if (l) box.appendChild(el('div', 'kvline', l));
  }
  function renderAirspaceList(doc) {
    const list = $('airspace-list'); clear(list);
    if (!doc.airspace.length) { list.appendChild(el('li', 'muted', 'No active area')); return; }
    for (const a of doc.airspace) {
      const li = el('li');
      li.appendChild(el('span', 'chip ' + (a.severity === 'warning' || a.severity === 'critical' ? 'warning' : 'caution'), (a.kind || 'area').toUpperCase()));
      li.appendChild(el('strong', '', a.name));
      li.appendChild(el('div', 'muted', a.limits + (a.end ? ' \u00b7 until ' + utc(a.end) + ' (' + local(a.end) + ')' : '')));
      list.appendChild(li);
    }
  }

  // ---- scope (canvas for shapes, DOM for words) ----
  const canvas = $('scope');
  const labelPool = [];
  function label(i) {
    while (labelPool.length <= i) { const d = el('div', 'lbl'); $('labels').appendChild(d); labelPool.push(d); }
    return labelPool[i];
  }
  function draw() {
    if (state.panel !== 'traffic') return;
    const wrap = $('scope-wrap');
    const size = wrap.clientWidth, dpr = window.devicePixelRatio || 1;
    if (!size) return;
    if (canvas.width !== Math.round(size * dpr)) { canvas.width = Math.round(size * dpr); canvas.height = Math.round(size * dpr); }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, size, size);
    const css = getComputedStyle(document.documentElement);
    const color = (n) => css.getPropertyValue(n).trim();
    const c = size / 2, scale = (size / 2 - 14) / state.range;
    const doc = state.traffic;
    const own = doc && doc.ownship;
    const rot = state.trackUp && own && own.trackDeg !== null && own.trackDeg !== undefined ? own.trackDeg * Math.PI / 180 : 0;
    let used = 0;
    // Rings with their distances.
    ctx.strokeStyle = color('--ring'); ctx.lineWidth = 1.5;
    for (const f of [0.5, 1]) {
      ctx.beginPath(); ctx.arc(c, c, state.range * f * scale, 0, Math.PI * 2); ctx.stroke();
      const l = label(used++); l.className = 'lbl ring'; l.textContent = (state.range * f) + ' NM';
      l.style.transform = 'translate(' + Math.round(c + 4) + 'px,' + Math.round(c - state.range * f * scale + 2) + 'px)';
    }
    // North mark.
    const nx = c + Math.sin(-rot) * (size / 2 - 8), ny = c - Math.cos(-rot) * (size / 2 - 8);
    const nl = label(used++); nl.className = 'lbl ring'; nl.textContent = 'N';
    nl.style.transform = 'translate(' + Math.round(nx - 5) + 'px,' + Math.round(ny - 8) + 'px)';
    const sp = radar.on ? scopePicture() : null;
    $('scope-note').textContent = (state.trackUp ? 'Track up' : 'North up') + (own ? '' : ' \u00b7 no ownship fix') +
      (sp ? ' \u00b7 ' + (sp.kind === 'nexrad-conus' ? 'CONUS ' : '') + 'radar ' + ageText(sp.meta.time) + ' old' : radar.on && radar.index ? ' \u00b7 no radar yet' : '') +
      (forecast.on ? (forecastPicture(forecastNow()) ? ' \u00b7 ' + forecastLabel() + ' forecast ' + forecastWords(forecastNow()).split(',')[0] + ' (model, not observed)' : ' \u00b7 no forecast kept') : '');
    if (!own) { hideLabels(used); drawOwnship(ctx, c, color); return; }
    const coslat = Math.cos(own.lat * Math.PI / 180);
    const project = (lat, lon) => {
      const e = (lon - own.lon) * 60 * coslat, n = (lat - own.lat) * 60;
      const x = e * Math.cos(rot) - n * Math.sin(rot), y = e * Math.sin(rot) + n * Math.cos(rot);
      return [c + x * scale, c - y * scale];
    };
    // The forecast for the hour valid now (issue 55) under the observed radar, then the radar
    // (issue 42): under the areas and the traffic, never over them.
    if (forecast.on) drawPicture(ctx, forecastPicture(forecastNow()), own, rot, c, scale, dpr, 0.4);
    if (radar.on) drawPicture(ctx, scopePicture(), own, rot, c, scale, dpr, 0.55);
    // Airspace areas with their names and limits.
    for (const a of doc.airspace) {
      const strong = a.kind === 'tfr' || a.kind === 'prohibited' || a.kind === 'restricted';
      ctx.strokeStyle = color(strong ? '--tfr' : '--area'); ctx.lineWidth = 2.5; ctx.setLineDash(strong ? [] : [8, 5]);
      ctx.fillStyle = ctx.strokeStyle; ctx.globalAlpha = 1;
      ctx.beginPath();
      let sx = 0, sy = 0;
      a.outline.forEach((p, i) => { const q = project(p[0], p[1]); sx += q[0]; sy += q[1]; if (i) ctx.lineTo(q[0], q[1]); else ctx.moveTo(q[0], q[1]); });
      ctx.closePath(); ctx.stroke(); ctx.globalAlpha = 0.08; ctx.fill(); ctx.globalAlpha = 1; ctx.setLineDash([]);
      const n = a.outline.length || 1, lx = sx / n, ly = sy / n;
      if (lx > -50 && lx < size + 50 && ly > -50 && ly < size + 50) {
        const l = label(used++); l.className = 'lbl area ' + (a.kind || '');
        l.textContent = a.name + ' ' + a.limits;
        l.style.transform = 'translate(' + Math.round(lx - 80) + 'px,' + Math.round(ly - 10) + 'px)';
      }
    }
    // Targets: symbols on the canvas, relative altitude (and callsign when picked or alerting) as DOM labels.
    const maxLabels = 80;
    const wanted = [];
    for (const t of doc.targets) {
      if (t.lat === undefined) continue;
      const q = project(t.lat, t.lon);
      if (q[0] < -20 || q[0] > size + 20 || q[1] < -20 || q[1] > size + 20) continue;
      const col = color(t.alert ? { warning: '--warn', caution: '--caut', advisory: '--adv' }[t.alert] : '--tgt');
      ctx.globalAlpha = t.stale ? 0.35 : 1;
      ctx.fillStyle = col; ctx.strokeStyle = col; ctx.lineWidth = 2;
      const heading = ((t.trackDeg || 0) * Math.PI / 180) - rot;
      ctx.save(); ctx.translate(q[0], q[1]); ctx.rotate(heading);
      ctx.beginPath(); ctx.moveTo(0, -11); ctx.lineTo(8, 8); ctx.lineTo(0, 4); ctx.lineTo(-8, 8); ctx.closePath();
      if (t.alert || state.selected === t.address) ctx.fill(); else ctx.stroke();
      ctx.restore();
      if (t.alert === 'warning') { ctx.beginPath(); ctx.arc(q[0], q[1], 16, 0, Math.PI * 2); ctx.stroke(); }
      ctx.globalAlpha = 1;
      const named = t.alert || state.selected === t.address;
      wanted.push({ q, cls: 'lbl' + (t.alert ? ' ' + t.alert : '') + (t.stale ? ' stale' : ''),
        text: relAlt(t.relativeAltitudeFt) + vsArrow(t.verticalSpeedFpm || 0) + (named ? ' ' + targetName(t) : ''),
        rank: ({ warning: 0, caution: 1, advisory: 2 })[t.alert] ?? (state.selected === t.address ? 3 : 4) });
    }
    // Labels placed most urgent first, each beside its symbol where it covers no label already
    // placed (right, left, then a line lower, higher, two lower…): aircraft flying together (a
    // gaggle in a thermal, a formation) stay readable. With no free place, the place covering
    // the least.
    wanted.sort((a, b) => a.rank - b.rank);
    const placed = [];
    for (const w of wanted.slice(0, maxLabels)) {
      const l = label(used++);
      l.className = w.cls;
      l.textContent = w.text;
      // The label's own size, as the browser lays it out (an estimate where it cannot say).
      const width = (l.offsetWidth || 8 * w.text.length) + 4, height = l.offsetHeight || 17;
      const spots = [];
      for (const dy of [-8, 10, -26, 28, -44]) for (const dx of [12, -12 - width]) spots.push([w.q[0] + dx, w.q[1] + dy]);
      // The first spot covering no placed label, else the one covering the least of them.
      const covered = ([x, y]) => placed.reduce((sum, p) =>
        sum + Math.max(0, Math.min(x + width, p[0] + p[2]) - Math.max(x, p[0])) * Math.max(0, Math.min(y + height, p[1] + p[3]) - Math.max(y, p[1])), 0);
      let free = spots[0], least = Infinity;
      for (const spot of spots) {
        const c = covered(spot);
        if (c < least) { least = c; free = spot; }
        if (c === 0) break;
      }
      placed.push([free[0], free[1], width, height]);
      l.style.transform = 'translate(' + Math.round(free[0]) + 'px,' + Math.round(free[1]) + 'px)';
    }
    hideLabels(used);
    drawOwnship(ctx, c, color);
  }
  function hideLabels(from) { for (let i = from; i < labelPool.length; i++) labelPool[i].textContent = ''; }
  function drawOwnship(ctx, c, color) {
    ctx.fillStyle = color('--own');
    ctx.save(); ctx.translate(c, c);
    if (!state.trackUp && state.traffic && state.traffic.ownship && state.traffic.ownship.trackDeg) ctx.rotate(state.traffic.ownship.trackDeg * Math.PI / 180);
    ctx.beginPath(); ctx.moveTo(0, -14); ctx.lineTo(3, -4); ctx.lineTo(13, 2); ctx.lineTo(3, 2); ctx.lineTo(2, 10); ctx.lineTo(6, 13); ctx.lineTo(-6, 13); ctx.lineTo(-2, 10); ctx.lineTo(-3, 2); ctx.lineTo(-13, 2); ctx.lineTo(-3, -4); ctx.closePath(); ctx.fill();
    ctx.restore();
  }
  canvas.addEventListener('click', (ev) => {
    const doc = state.traffic; if (!doc || !doc.ownship) return;
    const r = canvas.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top;
    const size = r.width, c = size / 2, scale = (size / 2 - 14) / state.range;
    const rot = state.trackUp && doc.ownship.trackDeg ? doc.ownship.trackDeg * Math.PI / 180 : 0;
    const coslat = Math.cos(doc.ownship.lat * Math.PI / 180);
    let best = null, bestD = 30 * 30;
    for (const t of doc.targets) {
      if (t.lat === undefined) continue;
      const e = (t.lon - doc.ownship.lon) * 60 * coslat, n = (t.lat - doc.ownship.lat) * 60;
      const px = c + (e * Math.cos(rot) - n * Math.sin(rot)) * scale, py = c - (e * Math.sin(rot) + n * Math.cos(rot)) * scale;
      const d = (px - x) * (px - x) + (py - y) * (py - y);
      if (d < bestD) { bestD = d; best = t; }
    }
    state.selected = best ? best.address : null;
    renderTrafficList(doc); draw();
  });
  for (const b of document.querySelectorAll('[data-range]')) {
    b.addEventListener('click', () => {
      state.range = Number(b.dataset.range);
      for (const o of document.querySelectorAll('[data-range]')) o.classList.toggle('on', o === b);
      localStorage.setItem('gw-range', String(state.range)); draw();
    });
  }
  $('orient').addEventListener('click', () => {
    state.trackUp = !state.trackUp; $('orient').textContent = state.trackUp ? 'Track up' : 'North up';
    localStorage.setItem('gw-orient', state.trackUp ? 'track' : 'north');
    if (state.traffic) renderTrafficList(state.traffic); draw();
  });
  let pinch = null;
  canvas.addEventListener('touchmove', (ev) => {
    if (ev.touches.length !== 2) return;
    const d = Math.hypot(ev.touches[0].clientX - ev.touches[1].clientX, ev.touches[0].clientY - ev.touches[1].clientY);
    if (pinch === null) { pinch = d; return; }
    const ranges = [2, 5, 10, 20], i = ranges.indexOf(state.range);
    if (d > pinch * 1.4 && i > 0) { document.querySelector('[data-range="' + ranges[i - 1] + '"]').click(); pinch = d; }
    if (d < pinch / 1.4 && i < ranges.length - 1) { document.querySelector('[data-range="' + ranges[i + 1] + '"]').click(); pinch = d; }
    ev.preventDefault();
  }, { passive: false });
  canvas.addEventListener('touchend', () => { pinch = null; });
  window.addEventListener('resize', draw);

  // ---- radar (issue 42): FIS-B composites as the gateway draws them (/weather/…) ----
  const radar = { on: localStorage.getItem('gw-radar') !== 'off', index: [], pictures: {}, loops: {}, frame: null, looping: false,
    range: Number(localStorage.getItem('gw-radar-range') || 50),
    layer: new URLSearchParams(location.search).get('layer') || localStorage.getItem('gw-radar-layer') || 'nexrad',
    advisories: null, airports: [], airportsAt: null };
  // The forecast radar (issue 55): the current run of /weather/forecast/, the hour the slider
  // shows on the Radar view (null: the hour valid now), and whether the scope shows it too.
  const forecast = { doc: null, hour: null,
    on: (new URLSearchParams(location.search).get('forecast') || localStorage.getItem('gw-forecast')) === 'on' };
  function forecastLabel() { return forecast.doc && forecast.doc.current ? forecast.doc.current.label : 'HRRR'; }
  // The index of the hour valid now: the last whose valid time has come, else the first.
  function forecastNow() {
    const hours = forecast.doc && forecast.doc.current ? forecast.doc.current.hours : [];
    let i = 0;
    hours.forEach((h, k) => { if (Date.parse(h.valid) / 1000 <= now()) i = k; });
    return i;
  }
  function forecastPicture(i) {
    const cur = forecast.doc && forecast.doc.current, h = cur && cur.hours[i];
    return h ? radar.pictures['forecast:' + cur.model + '/' + cur.run + '/' + h.hour] || null : null;
  }
  function forecastHourIndex() { return forecast.hour === null ? forecastNow() : forecast.hour; }
  async function loadForecast() {
    forecast.doc = await getJSON('/weather/forecast/').catch(() => forecast.doc);
    const cur = forecast.doc && forecast.doc.current;
    $('forecast-option').textContent = 'Forecast (' + forecastLabel() + ')';
    const slider = $('forecast-hour');
    slider.max = String(cur ? Math.max(0, cur.hours.length - 1) : 0);
    if (forecast.hour !== null && cur && forecast.hour >= cur.hours.length) forecast.hour = null;
    slider.value = String(forecastHourIndex());
    if (!cur) return;
    const wanted = new Set([forecastHourIndex(), forecastNow()]);
    for (const i of wanted) {
      const h = cur.hours[i];
      if (!h) continue;
      await fetchPicture({ kind: 'forecast', time: cur.run, blocks: h.hour }, 'forecast:' + cur.model + '/' + cur.run + '/' + h.hour, h.png, h.json);
    }
  }
  // "valid 20:00Z (+2 h), HRRR run 05 18:00Z, 2 h 40 min old"
  function forecastWords(i) {
    const cur = forecast.doc && forecast.doc.current, h = cur && cur.hours[i];
    if (!h) return '';
    return 'valid ' + utc(h.valid) + ' (+' + h.hour + ' h), ' + cur.label + ' run ' + utc(cur.runTime) + ', ' + ageText(cur.runTime) + ' old';
  }
  function ageText(iso) {
    const m = Math.max(0, Math.round((now() - Date.parse(iso) / 1000) / 60));
    return m < 60 ? m + ' min' : Math.floor(m / 60) + ' h ' + (m % 60) + ' min';
  }
  // The kind shown for a layer: regional NEXRAD before CONUS; icing and turbulence at the chosen altitude.
  function layerKind(layer) {
    const have = (k) => radar.index.some((p) => p.kind === k);
    if (layer === 'nexrad') return have('nexrad-regional') ? 'nexrad-regional' : have('nexrad-conus') ? 'nexrad-conus' : null;
    if (layer === 'icing' || layer === 'turbulence') { const k = layer + '-' + $('radar-alt').value; return have(k) ? k : null; }
    return have(layer) ? layer : null;
  }
  function scopePicture() { const k = layerKind('nexrad'); return k ? radar.pictures[k] : null; }
  // Loads a picture (PNG and its JSON) once per change; the browser revalidates by ETag.
  function fetchPicture(p, key, png, json) {
    const have = radar.pictures[key];
    if (have && have.stamp === p.time + '/' + p.blocks) return Promise.resolve(have);
    return getJSON(json).then((meta) => new Promise((resolve) => {
      const img = new Image();
      img.onload = () => { radar.pictures[key] = { kind: p.kind, img, meta, stamp: p.time + '/' + p.blocks }; resolve(radar.pictures[key]); };
      img.onerror = () => resolve(null);
      img.src = url(png);
    }));
  }
  async function loadRadar() {
    const doc = await getJSON('/weather/');
    radar.index = doc.pictures;
    if (forecast.on || (state.panel === 'radar' && radar.layer === 'forecast')) await loadForecast();
    const alts = (layer) => radar.index.filter((p) => p.kind.indexOf(layer + '-') === 0).map((p) => p.kind.slice(layer.length + 1));
    if (radar.layer === 'icing' || radar.layer === 'turbulence') {
      const sel = $('radar-alt'), want = sel.value, options = alts(radar.layer);
      if (sel.options.length !== options.length || [...sel.options].some((o, i) => o.value !== options[i])) {
        clear(sel); for (const a of options) { const o = el('option', '', String(Number(a))); o.value = a; sel.appendChild(o); }
        if (options.indexOf(want) >= 0) sel.value = want;
      }
    }
    const wanted = new Set([layerKind('nexrad'), state.panel === 'radar' ? layerKind(radar.layer) : null].filter(Boolean));
    for (const p of radar.index) if (wanted.has(p.kind)) await fetchPicture(p, p.kind, p.png, p.json);
    if (state.panel === 'radar') {
      radar.advisories = await getJSON('/weather/advisories.geojson').catch(() => radar.advisories);
      // The airports around the view's centre: ownship's, else the picture's.
      const centre = radarCentre();
      if (centre && (!radar.airportsAt || Math.abs(radar.airportsAt[0] - centre.lat) + Math.abs(radar.airportsAt[1] - centre.lon) > 0.2)) {
        const a = await getJSON('/api/airports?lat=' + centre.lat + '&lon=' + centre.lon + '&radius=200').catch(() => null);
        if (a) { radar.airports = a.airports; radar.airportsAt = [centre.lat, centre.lon]; }
      }
      const k = layerKind(radar.layer);
      if (radar.looping && k) {
        const loop = await getJSON('/weather/' + k + '/loop');
        radar.loops[k] = [];
        for (const f of loop.frames) {
          const pic = await fetchPicture({ kind: k, time: f.time, blocks: f.blocks }, k + '@' + f.time, f.png, f.json);
          if (pic) radar.loops[k].push(pic);
        }
      }
    }
    renderRadarLegend(); draw(); drawRadarMap();
  }
  // Draws `pic` so that its pixels land where the scope's `project` puts their latitude and
  // longitude (an affine map: the picture's grid is linear in both, the scope locally flat).
  function drawPicture(ctx, pic, own, rot, c, scale, dpr, alpha) {
    if (!pic || !own) return;
    const m = pic.meta, b = m.bounds, w = pic.img.naturalWidth, h = pic.img.naturalHeight;
    if (!w || !h) return;
    const coslat = Math.cos(own.lat * Math.PI / 180);
    const a = (b.east - b.west) / w * 60 * coslat, bb = -(b.north - b.south) / h * 60;
    const E0 = (b.west - own.lon) * 60 * coslat, N0 = (b.north - own.lat) * 60;
    const cr = Math.cos(rot), sr = Math.sin(rot);
    ctx.save();
    ctx.globalAlpha = alpha; ctx.imageSmoothingEnabled = false;
    ctx.setTransform(dpr * scale * cr * a, dpr * -scale * sr * a, dpr * -scale * sr * bb, dpr * -scale * cr * bb,
      dpr * (c + scale * (cr * E0 - sr * N0)), dpr * (c - scale * (sr * E0 + cr * N0)));
    ctx.drawImage(pic.img, 0, 0);
    ctx.restore();
  }
  // A picture's legend: its title (the radar's kind, time and age unless given), then its levels.
  function legendInto(node, pic, title) {
    clear(node);
    if (!pic) return;
    node.appendChild(el('span', '', title || (pic.kind === 'nexrad-conus' ? 'CONUS NEXRAD' : pic.kind === 'nexrad-regional' ? 'NEXRAD' : pic.kind) + ' ' + utc(pic.meta.time) + ' (' + ageText(pic.meta.time) + ' old): '));
    for (const l of pic.meta.levels) {
      if (l.transparent) continue;
      const k = el('span', 'key', l.label + ' '); k.style.setProperty('--c', l.color); node.appendChild(k);
    }
  }
  function renderRadarLegend() {
    const pic = radar.on ? scopePicture() : null;
    $('radar-legend').hidden = !pic;
    legendInto($('radar-legend'), pic);
  }
  $('radar-toggle').addEventListener('click', () => {
    radar.on = !radar.on; localStorage.setItem('gw-radar', radar.on ? 'on' : 'off');
    $('radar-toggle').textContent = radar.on ? 'Radar on' : 'Radar off'; $('radar-toggle').setAttribute('aria-pressed', String(radar.on));
    $('radar-toggle').classList.toggle('on', radar.on); renderRadarLegend(); draw();
  });
  $('radar-toggle').textContent = radar.on ? 'Radar on' : 'Radar off'; $('radar-toggle').classList.toggle('on', radar.on);
  for (const b of document.querySelectorAll('[data-rrange]')) {
    b.classList.toggle('on', Number(b.dataset.rrange) === radar.range);
    b.addEventListener('click', () => {
      radar.range = Number(b.dataset.rrange); localStorage.setItem('gw-radar-range', String(radar.range));
      for (const o of document.querySelectorAll('[data-rrange]')) o.classList.toggle('on', o === b);
      drawRadarMap();
    });
  }
  $('radar-layer').value = radar.layer;
  $('radar-layer').addEventListener('change', () => {
    radar.layer = $('radar-layer').value; localStorage.setItem('gw-radar-layer', radar.layer);
    $('radar-alt-box').hidden = !(radar.layer === 'icing' || radar.layer === 'turbulence'); clear($('radar-alt'));
    loadRadar().catch(() => {});
  });
  $('radar-alt-box').hidden = !(radar.layer === 'icing' || radar.layer === 'turbulence');
  $('forecast-box').hidden = radar.layer !== 'forecast';
  $('radar-layer').addEventListener('change', () => { $('forecast-box').hidden = radar.layer !== 'forecast'; });
  $('radar-alt').addEventListener('change', () => loadRadar().catch(() => {}));
  $('forecast-hour').addEventListener('input', () => {
    forecast.hour = Number($('forecast-hour').value);
    loadForecast().then(drawRadarMap).catch(() => {});
    drawRadarMap();
  });
  $('forecast-toggle').addEventListener('click', () => {
    forecast.on = !forecast.on; localStorage.setItem('gw-forecast', forecast.on ? 'on' : 'off');
    $('forecast-toggle').textContent = forecast.on ? 'Forecast on' : 'Forecast off'; $('forecast-toggle').setAttribute('aria-pressed', String(forecast.on));
    $('forecast-toggle').classList.toggle('on', forecast.on);
    if (forecast.on) loadForecast().then(draw).catch(() => {}); else draw();
  });
  $('forecast-toggle').textContent = forecast.on ? 'Forecast on' : 'Forecast off'; $('forecast-toggle').classList.toggle('on', forecast.on);
  $('forecast-toggle').setAttribute('aria-pressed', String(forecast.on));
  if (forecast.on) loadForecast().then(draw).catch(() => {});
  $('radar-loop').addEventListener('click', () => {
    radar.looping = !radar.looping; $('radar-loop').classList.toggle('on', radar.looping); $('radar-loop').setAttribute('aria-pressed', String(radar.looping));
    radar.frame = null; loadRadar().catch(() => {});
  });
  setInterval(() => {
    if (!radar.looping || state.panel !== 'radar') return;
    if (radar.layer === 'forecast') {
      const cur = forecast.doc && forecast.doc.current;
      if (!cur || !cur.hours.length) return;
      forecast.hour = (forecastHourIndex() + 1) % cur.hours.length;
      loadForecast().then(drawRadarMap).catch(() => {});
      return;
    }
    const frames = radar.loops[layerKind(radar.layer)] || [];
    radar.frame = frames.length ? ((radar.frame === null ? -1 : radar.frame) + 1) % (frames.length + 2) : null;
    drawRadarMap();
  }, 700);
  // The Radar view: north up around ownship (else the picture's centre), the layer, airspace
  // outlines, the advisories, the airports, ownship and the traffic on top.
  const rlabels = [];
  function rlabel(i) { while (rlabels.length <= i) { const d = el('div', 'rlbl'); $('radar-labels').appendChild(d); rlabels.push(d); } return rlabels[i]; }
  // The radar view's centre: ownship, else the shown picture's centre (nil with neither).
  function radarPicture() {
    if (radar.layer === 'forecast') return forecastPicture(forecastHourIndex()) || radar.pictures[layerKind('nexrad')] || null;
    const k = layerKind(radar.layer);
    let pic = k ? radar.pictures[k] : null;
    const frames = radar.loops[k] || [];
    if (radar.looping && radar.frame !== null && radar.frame < frames.length) pic = frames[radar.frame];
    return pic || radar.pictures[layerKind('nexrad')] || null;
  }
  function radarCentre() {
    const own = state.traffic && state.traffic.ownship;
    if (own) return { lat: own.lat, lon: own.lon };
    const pic = radarPicture();
    return pic ? { lat: (pic.meta.bounds.north + pic.meta.bounds.south) / 2, lon: (pic.meta.bounds.east + pic.meta.bounds.west) / 2 } : null;
  }
  function drawRadarMap() {
    if (state.panel !== 'radar') return;
    const cv = $('radar-map'), box = cv.getBoundingClientRect(), size = Math.round(box.width) || 800, dpr = window.devicePixelRatio || 1;
    if (cv.width !== Math.round(size * dpr)) { cv.width = Math.round(size * dpr); cv.height = Math.round(size * dpr); }
    const ctx = cv.getContext('2d'); ctx.setTransform(dpr, 0, 0, dpr, 0, 0); ctx.clearRect(0, 0, size, size);
    const css = getComputedStyle(document.documentElement), color = (n) => css.getPropertyValue(n).trim();
    const isForecast = radar.layer === 'forecast';
    const k = isForecast ? null : layerKind(radar.layer);
    let pic = isForecast ? forecastPicture(forecastHourIndex()) : k ? radar.pictures[k] : null;
    const frames = isForecast ? [] : radar.loops[k] || [];
    if (radar.looping && radar.frame !== null && radar.frame < frames.length) pic = frames[radar.frame];
    const doc = state.traffic, own = doc && doc.ownship;
    const centre = own || (pic ? { lat: (pic.meta.bounds.north + pic.meta.bounds.south) / 2, lon: (pic.meta.bounds.east + pic.meta.bounds.west) / 2 } : null);
    let used = 0;
    const status = [];
    if (!centre) { $('radar-status').textContent = 'No ownship fix and no weather picture yet.'; for (const l of rlabels) l.textContent = ''; return; }
    const c = size / 2, scale = (size / 2 - 10) / radar.range, coslat = Math.cos(centre.lat * Math.PI / 180);
    const project = (lat, lon) => [c + (lon - centre.lon) * 60 * coslat * scale, c - (lat - centre.lat) * 60 * scale];
    drawPicture(ctx, pic, centre, 0, c, scale, dpr, 0.75);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    // Range rings.
    ctx.strokeStyle = color('--ring'); ctx.lineWidth = 1;
    for (const f of [0.5, 1]) { ctx.beginPath(); ctx.arc(c, c, radar.range * f * scale, 0, Math.PI * 2); ctx.stroke(); }
    // Airspace outlines (the traffic picture's areas).
    for (const a of (doc && doc.airspace) || []) {
      ctx.strokeStyle = color(a.kind === 'tfr' || a.kind === 'prohibited' || a.kind === 'restricted' ? '--tfr' : '--area'); ctx.lineWidth = 2;
      ctx.beginPath(); a.outline.forEach((p, i) => { const q = project(p[0], p[1]); if (i) ctx.lineTo(q[0], q[1]); else ctx.moveTo(q[0], q[1]); }); ctx.closePath(); ctx.stroke();
    }
    // Advisories: AIRMET, SIGMET, G-AIRMET, CWA, SUA outlines, dashed.
    const advisories = (radar.advisories && radar.advisories.features) || [];
    ctx.setLineDash([6, 4]); ctx.strokeStyle = color('--caut'); ctx.lineWidth = 2;
    for (const f of advisories) {
      const g = f.geometry, pts = g.type === 'Polygon' ? g.coordinates[0] : g.type === 'LineString' ? g.coordinates : [g.coordinates];
      ctx.beginPath(); pts.forEach((p, i) => { const q = project(p[1], p[0]); if (i) ctx.lineTo(q[0], q[1]); else ctx.moveTo(q[0], q[1]); });
      if (g.type === 'Polygon') ctx.closePath(); ctx.stroke();
      // Labelled at the mean of its vertices, kept inside the view.
      const m = pts.reduce((acc, p) => [acc[0] + p[1] / pts.length, acc[1] + p[0] / pts.length], [0, 0]);
      const mq = project(m[0], m[1]), q = [Math.min(size - 60, Math.max(4, mq[0])), Math.min(size - 20, Math.max(4, mq[1]))];
      { const l = rlabel(used++); l.className = 'rlbl adv'; l.textContent = (f.properties.subtype || f.properties.kind).toUpperCase(); l.style.transform = 'translate(' + Math.round(q[0] + 4) + 'px,' + Math.round(q[1] - 14) + 'px)'; }
    }
    ctx.setLineDash([]);
    // Airports: a small circle and the identifier.
    ctx.strokeStyle = color('--muted'); ctx.lineWidth = 1.5;
    for (const a of radar.airports) {
      const q = project(a.lat, a.lon);
      if (q[0] < 0 || q[0] > size || q[1] < 0 || q[1] > size) continue;
      ctx.beginPath(); ctx.arc(q[0], q[1], 3.5, 0, Math.PI * 2); ctx.stroke();
      // Named when it has an ICAO identifier (a public airport), or everything at 25 NM.
      const named = radar.range <= 25 || /^[KPC][A-Z0-9]{3}$/.test(a.ident);
      if (named && radar.range <= 100 && used < 120) { const l = rlabel(used++); l.className = 'rlbl apt'; l.textContent = a.ident; l.style.transform = 'translate(' + Math.round(q[0] + 5) + 'px,' + Math.round(q[1] - 7) + 'px)'; }
    }
    // Traffic and ownship on top of everything.
    for (const t of (doc && doc.targets) || []) {
      if (t.lat === undefined) continue;
      const q = project(t.lat, t.lon);
      ctx.fillStyle = color(t.alert ? { warning: '--warn', caution: '--caut', advisory: '--adv' }[t.alert] : '--tgt');
      ctx.beginPath(); ctx.arc(q[0], q[1], t.alert ? 6 : 4, 0, Math.PI * 2); ctx.fill();
    }
    if (own) {
      ctx.fillStyle = color('--own'); ctx.save(); ctx.translate(c, c); ctx.rotate((own.trackDeg || 0) * Math.PI / 180);
      ctx.beginPath(); ctx.moveTo(0, -12); ctx.lineTo(8, 9); ctx.lineTo(0, 4); ctx.lineTo(-8, 9); ctx.closePath(); ctx.fill(); ctx.restore();
    }
    // A forecast says what it is on the picture itself, not only beside it.
    if (isForecast && pic) {
      const words = 'Model forecast, not observed radar \u00b7 ' + forecastWords(forecastHourIndex());
      ctx.font = '600 14px system-ui, sans-serif';
      const w = ctx.measureText(words).width;
      ctx.fillStyle = color('--bg') || '#fff'; ctx.globalAlpha = 0.85; ctx.fillRect(6, 6, w + 16, 26); ctx.globalAlpha = 1;
      ctx.fillStyle = color('--fg') || '#000'; ctx.fillText(words, 14, 24);
    }
    for (let i = used; i < rlabels.length; i++) rlabels[i].textContent = '';
    if (isForecast) status.push(pic ? forecastLabel() + ' forecast ' + forecastWords(forecastHourIndex()) + ': model forecast, not observed radar'
      : forecast.doc && forecast.doc.current ? 'The forecast picture is loading' : 'No complete forecast run kept (gatewayd weather forecast fetch, or [forecast] in the configuration)');
    else if (pic) status.push((radar.looping && frames.length ? 'Loop frame ' + (Math.min(radar.frame === null ? frames.length : radar.frame + 1, frames.length)) + ' of ' + frames.length + ': ' : '') + pic.kind + ' ' + utc(pic.meta.time) + ', ' + ageText(pic.meta.time) + ' old, over FIS-B');
    else status.push(radar.index.length ? 'No ' + $('radar-layer').selectedOptions[0].textContent + ' picture received yet' : 'No gridded FIS-B products received yet');
    status.push(advisories.length + (advisories.length === 1 ? ' advisory' : ' advisories'),
      radar.airports.length ? 'the ' + radar.airports.length + ' airports within 200 NM of the ' + (own ? 'aircraft' : 'centre') : 'no airport of the table within 200 NM of the ' + (own ? 'aircraft' : 'centre'));
    if (!own) status.push('no ownship fix: centred on the picture');
    $('radar-status').textContent = status.join(' \u00b7 ');
    legendInto($('radar-map-legend'), pic, isForecast ? forecastLabel() + ' composite reflectivity, model forecast, not observed radar: ' : null);
    $('forecast-when').textContent = isForecast ? forecastWords(forecastHourIndex()).split(',')[0] : '';
  }
  window.addEventListener('resize', drawRadarMap);

  // ---- alerts ----
  function alertKey(a) { return a.id; }
  // A traffic alert in its current numbers (the traffic table's, refreshed every second),
  // not the ones it was raised or last updated with; the alert's own text without a fix.
  function alertText(a) {
    const doc = state.traffic;
    const t = a.kind === 'traffic' && doc ? doc.targets.find((x) => x.address === a.subject) : null;
    if (!t || t.rangeNM === undefined || t.rangeNM === null) return a.message;
    const dz = t.relativeAltitudeFt, h = dz === undefined || dz === null ? null : Math.round(dz / 100) * 100;
    const height = h === null ? 'altitude unknown' : h === 0 ? 'same altitude' : Math.abs(h) + ' ft ' + (h > 0 ? 'above' : 'below');
    const track = doc.ownship ? doc.ownship.trackDeg : null;
    const where = track === null || track === undefined ? 'bearing ' + pad3(t.bearingDeg) + '\u00b0' : clockPos(t.bearingDeg, track);
    return 'Traffic ' + (t.callsign ? t.callsign + ' (' + t.address + ')' : t.address) + ' ' + where + ', ' + t.rangeNM.toFixed(1) + ' NM, ' + height;
  }
  function renderBanner() {
    const active = [...state.alerts.values()].sort((a, b) => (levelRank[b.level] - levelRank[a.level]) || (a.time < b.time ? 1 : -1));
    const banner = $('banner'), text = $('banner-text');
    $('alert-count').textContent = active.length ? String(active.length) : '';
    // Read as words, not "Alerts4": the badge is a separate box beside the label.
    $('alerts-tab').setAttribute('aria-label', active.length ? 'Alerts, ' + active.length + ' active' : 'Alerts');
    if (!active.length) { banner.className = 'banner quiet'; text.textContent = 'No active alerts'; }
    else {
      const top = active[0];
      banner.className = 'banner ' + top.level;
      text.textContent = top.level.toUpperCase() + ' \u2014 ' + alertText(top) + (active.length > 1 ? '  (+' + (active.length - 1) + ' more)' : '');
    }
    renderActive(active);
  }
  function renderActive(active) {
    const box = $('alerts-active'); clear(box);
    if (!active.length) { box.appendChild(el('p', 'muted', 'None')); return; }
    for (const a of active) {
      const card = el('div', 'alert ' + a.level);
      card.appendChild(el('span', 'chip ' + a.level, a.level.toUpperCase()));
      card.appendChild(el('span', 'msg', alertText(a)));
      const nums = [];
      if (a.kind === 'traffic') {
        if (a.timeToCPASec !== undefined && a.timeToCPASec !== null) nums.push('CPA in ' + Math.round(a.timeToCPASec) + ' s');
        if (a.cpaMissNM !== undefined && a.cpaMissNM !== null) nums.push('miss ' + a.cpaMissNM.toFixed(2) + ' NM');
      } else {
        if (a.name) nums.push(a.name);
        nums.push((a.floorFt === null || a.floorFt === undefined ? 'SFC' : a.floorFt + ' ft') + '\u2013' + (a.ceilingFt === null || a.ceilingFt === undefined ? 'UNL' : a.ceilingFt + ' ft'));
      }
      nums.push('since ' + hhmmss(a.time));
      card.appendChild(el('span', 'muted', nums.join(' \u00b7 ')));
      if (a.kind === 'airspace') {
        const b = el('button', '', 'Acknowledge');
        b.type = 'button';
        if (!state.canAck) { b.disabled = true; b.title = 'needs [feeds] ack_token on the gateway'; }
        b.addEventListener('click', () => acknowledge(a, b));
        card.appendChild(b);
      }
      box.appendChild(card);
    }
  }
  async function acknowledge(a, button) {
    const ackToken = localStorage.getItem('gw-ack-token') || '';
    if (!ackToken) { $('ack-settings').open = true; $('ack-token').focus(); return; }
    button.disabled = true; button.textContent = 'Sending\u2026';
    try {
      const r = await fetch(url('/api/alerts/ack?id=' + encodeURIComponent(a.id)), { method: 'POST', headers: { Authorization: 'Bearer ' + ackToken } });
      button.textContent = r.ok ? 'Acknowledged' : (r.status === 401 ? 'Wrong token' : r.status === 429 ? 'Too many, wait' : 'Refused (' + r.status + ')');
    } catch (e) { button.textContent = 'No connection'; }
    setTimeout(() => { button.disabled = false; button.textContent = 'Acknowledge'; }, 5000);
  }
  function renderHistory() {
    const body = $('alerts-history'); clear(body);
    for (const h of state.history.slice(0, 200)) {
      const tr = el('tr', h.event === 'cleared' ? '' : h.level);
      if (state.focusAlert && h.eventId === state.focusAlert) {
        tr.setAttribute('aria-current', 'true');
        setTimeout(() => tr.scrollIntoView({ block: 'center' }), 0);
      }
      tr.appendChild(el('td', '', hhmmss(h.time)));
      tr.appendChild(el('td', '', h.level));
      tr.appendChild(el('td', '', h.event));
      tr.appendChild(el('td', '', h.message));
      body.appendChild(tr);
    }
    if (!state.history.length) { const tr = el('tr'); tr.appendChild(el('td', 'muted', 'No alert in the last hour')); body.appendChild(tr); }
  }
  async function loadAlerts() {
    const doc = await getJSON('/api/alerts');
    syncClock(doc);
    state.canAck = doc.acknowledge;
    state.alerts = new Map(doc.active.map((a) => [alertKey(a), a]));
    state.history = doc.history;
    for (const id of [...speech.spoken.keys()]) if (!state.alerts.has(id)) speech.spoken.delete(id);
    for (const a of state.alerts.values()) speakAlert(a);
    renderBanner(); renderHistory();
  }
  // ---- speak alerts ----
  // Off by default (a tap, or ?speak=on in a bookmark, turns it on). Speaks the gateway's own
  // callout text (the alert's `callout`: the words its headset voice says) as the voice paces
  // them: cautions and warnings when raised or escalated, a warning again every 15 s, a
  // warning cutting the queue. On the ground the gateway raises none.
  const speech = { on: false, spoken: new Map() };
  function airspaceStage(a) { return a.kind !== 'airspace' ? 0 : a.distanceNM === 0 ? 2 : (a.timeToEntrySec > 0 ? 1 : 0); }
  function setSpeak(on) {
    speech.on = on && !!window.speechSynthesis;
    const b = $('speak');
    b.textContent = 'Speak alerts: ' + (speech.on ? 'on' : 'off');
    b.classList.toggle('on', speech.on); b.setAttribute('aria-pressed', String(speech.on));
    if (!window.speechSynthesis) { b.disabled = true; b.title = 'this browser cannot speak'; }
    localStorage.setItem('gw-speak', speech.on ? 'on' : 'off');
    if (!speech.on && window.speechSynthesis) window.speechSynthesis.cancel();
    speech.spoken.clear();
    if (speech.on) for (const a of state.alerts.values()) speakAlert(a);
  }
  function speakAlert(a) {
    if (!speech.on) return;
    if (a.event === 'cleared' || !a.callout || levelRank[a.level] < levelRank.caution) { if (a.event === 'cleared') speech.spoken.delete(a.id); return; }
    const rank = levelRank[a.level] * 4 + airspaceStage(a), at = Date.now(), prev = speech.spoken.get(a.id);
    const due = !prev || rank > prev.rank || (a.level === 'warning' && at - prev.at >= 15000);
    if (!due) { if (rank < prev.rank) prev.rank = rank; return; }
    speech.spoken.set(a.id, { rank: rank, at: at });
    $('speak').dataset.spoken = a.callout;
    try {
      if (a.level === 'warning') window.speechSynthesis.cancel();
      const u = new SpeechSynthesisUtterance(a.callout);
      u.lang = 'en-US';
      window.speechSynthesis.speak(u);
    } catch (e) { /* no voice on this device: the banner still shows it */ }
  }
  $('speak').addEventListener('click', () => setSpeak(!speech.on));
  setInterval(() => { if (speech.on) for (const a of state.alerts.values()) if (a.level === 'warning') speakAlert(a); }, 1000);

  // Live alert changes over Server-Sent Events; without EventSource (or under automation,
  // whose virtual clock waits for an endless stream) /api/alerts is read once a second.
  function stream() {
    if (!window.EventSource || navigator.webdriver) { periods.alerts = 1000; state.polling = true; return; }
    const es = new EventSource(url('/alerts'));
    es.onmessage = (m) => {
      let a; try { a = JSON.parse(m.data); } catch (e) { return; }
      if (a.event === 'cleared') state.alerts.delete(alertKey(a)); else state.alerts.set(alertKey(a), a);
      speakAlert(a);
      if (state.history.length === 0 || state.history[0].time !== a.time || state.history[0].id !== a.id) state.history.unshift(a);
      renderBanner();
      if (state.panel === 'alerts') renderHistory();
    };
    es.onerror = () => linkDown();
  }
  $('banner').addEventListener('click', () => { location.hash = '#alerts'; });
  $('ack-token').value = localStorage.getItem('gw-ack-token') || '';
  $('ack-token-save').addEventListener('click', () => { localStorage.setItem('gw-ack-token', $('ack-token').value); $('ack-settings').open = false; });

  // ---- NOTAMs ----
  function notamQuery() {
    const q = ['radius=' + $('notam-radius').value];
    if ($('notam-near').value === 'airport' && $('notam-airport').value.trim()) q.push('airport=' + encodeURIComponent($('notam-airport').value.trim().toUpperCase()));
    if ($('notam-severity').value) q.push('severity=' + $('notam-severity').value);
    if ($('notam-kind').value) q.push('kind=' + $('notam-kind').value);
    return '/api/notams?' + q.join('&');
  }
  async function loadNotams() {
    const doc = await getJSON(notamQuery());
    syncClock(doc);
    const sum = $('notam-summary'); clear(sum);
    sum.appendChild(document.createTextNode(doc.notams.length + ' NOTAM' + (doc.notams.length === 1 ? '' : 's') + (doc.center ? ' within ' + doc.radiusNM + ' NM of ' + doc.center.name : '') + ' \u00b7 '));
    const sources = Object.keys(doc.refreshed);
    sum.appendChild(document.createTextNode(sources.length ? 'refreshed ' + sources.map((s) => s + ' ' + utc(doc.refreshed[s])).join(', ') + ' ' : 'never refreshed from a NOTAM service '));
    if (doc.stale) sum.appendChild(el('span', 'chip stale', 'STALE: older than 24 h'));
    const list = $('notam-list'); clear(list);
    if (!doc.notams.length) list.appendChild(el('p', 'muted', 'No stored NOTAM here. On the ground, with a network: gatewayd notams fetch --location KSLE'));
    state.notamChanges = doc.changes;
    renderUnread();
    for (const n of doc.notams) list.appendChild(notamCard(n));
    renderNotamChanges(doc);
    await focusNotam(doc.notams);
  }
  function notamCard(n) {
      const card = el('article', 'notam ' + n.severity);
      const h = el('h3');
      h.appendChild(el('span', 'chip ' + n.severity, n.severity));
      if (n.kind) h.appendChild(el('span', 'chip', n.kind.toUpperCase()));
      if (n.state !== 'active') h.appendChild(el('span', 'chip ' + n.state, n.state));
      if (n.change && Date.parse(n.change.time) / 1000 > state.lastNotamView) h.appendChild(el('span', 'chip ' + n.change.kind, n.change.kind.toUpperCase()));
      h.appendChild(document.createTextNode((n.location ? n.location + ' ' : '') + (n.number || n.key)));
      card.appendChild(h);
      const valid = (n.start ? 'from ' + utc(n.start) + ' (' + local(n.start) + ')' : '') + (n.permanent ? ' \u00b7 permanent' : n.end ? ' to ' + utc(n.end) + ' (' + local(n.end) + ')' + (n.endEstimated ? ' EST' : '') : '');
      card.appendChild(el('div', 'meta', [valid, n.limits, n.distanceNM !== undefined && n.distanceNM !== null ? n.distanceNM + ' NM' : '', 'source: ' + n.heardOn + (n.source !== 'fisb' ? ' (' + n.source + ')' : '')].filter(Boolean).join(' \u00b7 ')));
      const two = el('div', 'twocol');
      const raw = el('div'); raw.appendChild(el('div', 'muted', 'As issued')); raw.appendChild(el('pre', 'raw', n.text));
      const tr = el('div'); tr.appendChild(el('div', 'muted', 'Plain English')); tr.appendChild(el('div', 'translation', n.translation));
      two.appendChild(raw); two.appendChild(tr); card.appendChild(two);
      return card;
  }
  function notamMatches(n, target) {
    return n.number === target || n.key === target || (n.location && n.location + ' ' + n.number === target) || 'FDC ' + n.number === target;
  }
  // The NOTAM a notification's link names: marked, scrolled to, its plain English shown; looked
  // up wherever it is when the list's filter left it out.
  async function focusNotam(shown) {
    const target = state.focusNotam, note = $('notam-focus');
    note.hidden = !target;
    if (!target) return;
    let card = null;
    const cards = $('notam-list').querySelectorAll('article.notam');
    shown.forEach((n, i) => { if (!card && notamMatches(n, target)) card = cards[i]; });
    if (!card) {
      const doc = await getJSON('/api/notams?number=' + encodeURIComponent(target.replace(/^(FDC|[A-Z0-9]{3,4}) (?=\d)/, '')));
      const n = doc.notams.find((x) => notamMatches(x, target)) || doc.notams[0];
      if (n) { card = notamCard(n); $('notam-list').insertBefore(card, $('notam-list').firstChild); }
    }
    for (const c of cards) c.removeAttribute('aria-current');
    note.textContent = card ? 'Opened from a notification: ' + target : 'NOTAM ' + target + ' is no longer stored here (cancelled or expired).';
    if (!card) return;
    card.setAttribute('aria-current', 'true');
    card.scrollIntoView({ block: 'center' });
  }
  // The NOTAMs tab's badge: the changes this device has not seen (kept per device, as the chips).
  function renderUnread() {
    const unread = (state.notamChanges || []).filter((c) => Date.parse(c.time) / 1000 > state.lastNotamView).length;
    const badge = $('notam-unread');
    badge.textContent = String(unread);
    badge.hidden = unread === 0;
    $('notams-tab').setAttribute('aria-label', 'NOTAMs' + (unread ? ', ' + unread + ' unread change' + (unread === 1 ? '' : 's') : ''));
  }
  $('notam-mark-read').addEventListener('click', () => {
    state.lastNotamView = now(); localStorage.setItem('gw-notams-seen', String(state.lastNotamView));
    renderUnread();
    for (const chip of $('notam-list').querySelectorAll('.chip.new, .chip.modified, .chip.cancelled')) chip.remove();
  });
  function renderNotamChanges(doc) {
    const ch = $('notam-changes'); clear(ch);
    if (!doc.changes.length) ch.appendChild(el('li', 'muted', 'No change recorded'));
    for (const c of doc.changes.slice(0, 50)) {
      const li = el('li');
      li.appendChild(el('span', 'chip ' + c.kind, c.kind.toUpperCase()));
      li.appendChild(document.createTextNode(utc(c.time) + ' ' + (c.location || '') + ' ' + (c.number || '') + ' \u2014 ' + c.summary));
      ch.appendChild(li);
    }
  }
  $('notam-form').addEventListener('submit', (ev) => { ev.preventDefault(); loadNotams().catch(linkDown); });

  // ---- weather ----
  async function loadWeather() {
    // The server centres on ownship, the last landing or the home; failing those, the picture.
    let bounds = radar.pictures[layerKind('nexrad')] ? radar.pictures[layerKind('nexrad')].meta.bounds : null;
    if (!bounds && !(state.traffic && state.traffic.ownship)) {
      const index = await getJSON('/weather/').catch(() => null);
      const p = index && index.pictures.find((x) => x.kind.indexOf('nexrad') === 0);
      const meta = p ? await getJSON(p.json).catch(() => null) : null;
      if (meta && meta.bounds) bounds = meta.bounds;
    }
    const hint = bounds ? '?centre=' + ((bounds.north + bounds.south) / 2).toFixed(3) + ',' + ((bounds.east + bounds.west) / 2).toFixed(3) : '';
    const doc = await getJSON('/api/weather' + hint);
    syncClock(doc);
    state.weatherDoc = doc;
    renderWeather();
  }
  function renderWeather() {
    const doc = state.weatherDoc;
    if (!doc) return;
    const filter = ($('weather-filter').value || '').trim().toUpperCase();
    const shown = filter ? doc.stations.filter((s) => String(s.id).toUpperCase().indexOf(filter) >= 0) : doc.stations;
    const from = doc.near ? (doc.near.from === 'ownship' ? 'nearest the aircraft first' : 'nearest ' + doc.near.from + ' first, METARs first') : 'no position known: by name';
    $('weather-summary').textContent = doc.stations.length + ' station' + (doc.stations.length === 1 ? '' : 's') + (filter ? ' (' + shown.length + ' shown)' : '') + ' (FIS-B and fetched before the flight), ' + from + ', decoded (raw text under each) \u00b7 ' + hhmmss(doc.time);
    const list = $('weather-list'); clear(list);
    if (!doc.stations.length) list.appendChild(el('p', 'muted', 'No FIS-B weather held (the receiver hears a ground station within about 150 NM in flight).'));
    else if (!shown.length) list.appendChild(el('p', 'muted', 'No station matches \u201c' + filter + '\u201d.'));
    for (const s of shown) {
      const card = el('article', 'card station');
      const h = el('h3');
      if (s.category) h.appendChild(el('span', 'chip ' + s.category, s.category));
      h.appendChild(document.createTextNode(s.id + (s.distanceNM !== undefined && s.distanceNM !== null ? '  ' : '')));
      if (s.distanceNM !== undefined && s.distanceNM !== null) h.appendChild(el('span', 'muted', s.distanceNM + ' NM'));
      if (s.alongTrack) h.appendChild(el('span', 'chip src', 'ahead'));
      card.appendChild(h);
      for (const p of s.products) card.appendChild(product(p));
      list.appendChild(card);
    }
    const adv = $('advisory-list'); clear(adv);
    if (!doc.advisories.length) adv.appendChild(el('p', 'muted', 'No AIRMET, SIGMET or SUA held'));
    for (const p of doc.advisories) { const card = el('article', 'card station'); card.appendChild(product(p)); adv.appendChild(card); }
  }
  function product(p) {
    const d = el('div', 'product');
    const head = el('div', 'head');
    head.appendChild(el('strong', '', p.kind + (p.subtype ? ' ' + p.subtype : '')));
    head.appendChild(document.createTextNode(' \u00b7 ' + utc(p.time) + ' \u00b7 ' + p.ageMin + ' min old '));
    if (p.old) head.appendChild(el('span', 'chip old', 'OLD'));
    d.appendChild(head);
    if (p.source) head.appendChild(el('span', 'chip src', p.source));
    const dec = p.decoded;
    let body = null;
    if (dec && (p.kind === 'METAR' || p.kind === 'SPECI')) body = metarView(dec);
    else if (dec && p.kind === 'TAF') body = tafView(dec);
    else if (dec && p.kind === 'PIREP') body = pirepView(dec);
    else if (dec && p.kind === 'WINDS' && dec.levels.length) body = windsView(dec);
    if (body) {
      d.appendChild(body);
      // The raw text one click away.
      const raw = el('details', 'raw'); raw.appendChild(el('summary', '', 'Raw text')); raw.appendChild(el('pre', '', p.text)); d.appendChild(raw);
    } else d.appendChild(el('pre', '', p.text));
    return d;
  }
  // ---- decoded weather (issue 42) ----
  // Degrees as written in weather (three digits, 360 for north).
  function deg3(n) { return String(Math.round(n)).padStart(3, '0'); }
  function windText(w) {
    if (w.calm) return 'calm';
    if (w.windKt === undefined || w.windKt === null) return '';
    const dir = w.windDirDeg === undefined || w.windDirDeg === null ? 'variable' : deg3(w.windDirDeg) + '\u00b0';
    return dir + ' ' + w.windKt + ' kt' + (w.gustKt ? ' gusting ' + w.gustKt : '') + (w.windVariesFrom !== undefined ? ' (varying ' + deg3(w.windVariesFrom) + '\u2013' + deg3(w.windVariesTo) + '\u00b0)' : '');
  }
  function visText(d) {
    if (d.visibilitySM === undefined || d.visibilitySM === null) return '';
    const v = d.visibilitySM;
    return (d.visibilityLessThan ? 'less than ' : '') + (v >= 10 ? Math.round(v) : v) + (d.visibilityPlus ? '+' : '') + ' SM';
  }
  function skyText(d) {
    if (d.clearSky) return { CLR: 'clear', SKC: 'sky clear', NSC: 'no significant cloud', NCD: 'no cloud detected', CAVOK: 'CAVOK' }[d.clearSky] || d.clearSky;
    const names = { FEW: 'few', SCT: 'scattered', BKN: 'broken', OVC: 'overcast', VV: 'vertical visibility' };
    return (d.sky || []).map((l) => (names[l.cover] || l.cover) + (l.baseFt !== undefined && l.baseFt !== null ? ' ' + l.baseFt.toLocaleString('en-US') : '') + (l.topFt ? '\u2013' + l.topFt.toLocaleString('en-US') : '') + (l.cb ? ' CB' : l.tcu ? ' TCU' : '')).join(', ') + ((d.sky || []).length ? ' ft' : '');
  }
  function kvList(rows) {
    const dl = el('dl', 'decoded');
    for (const [k, v] of rows) { if (v === '' || v === undefined || v === null) continue; dl.appendChild(el('dt', '', k)); dl.appendChild(el('dd', '', v)); }
    return dl;
  }
  function metarView(m) {
    const wrap = el('div');
    wrap.appendChild(kvList([
      ['Category', m.category],
      ['Wind', windText(m)], ['Visibility', visText(m)], ['Weather', (m.weather || []).join(', ')], ['Sky', skyText(m)],
      ['Ceiling', m.ceilingFt !== undefined && m.ceilingFt !== null ? m.ceilingFt.toLocaleString('en-US') + ' ft' : ''],
      ['Temp / dew', m.temperatureC !== undefined && m.temperatureC !== null ? m.temperatureC + ' / ' + (m.dewpointC !== undefined && m.dewpointC !== null ? m.dewpointC : '\u2014') + ' \u00b0C' : ''],
      ['Altimeter', m.altimeterInHg ? m.altimeterInHg.toFixed(2) + ' inHg' + (m.altimeterHPa ? ' (' + m.altimeterHPa + ' hPa)' : '') : '']
    ]));
    return wrap;
  }
  // A TAF as a timeline: the prevailing periods (base, FM, BECMG) in one bar coloured by flight
  // category, TEMPO and PROB periods in a thinner bar under it, then each period in words.
  function tafView(t) {
    const wrap = el('div', 'taf');
    const from = Date.parse(t.validFrom), to = Date.parse(t.validTo);
    if (from && to && to > from) {
      const bars = el('div', 'taf-bars');
      for (const lane of ['main', 'temp']) {
        const bar = el('div', 'taf-bar ' + lane);
        for (const p of t.periods) {
          const isTemp = p.kind.indexOf('TEMPO') >= 0 || p.kind.indexOf('PROB') >= 0;
          if ((lane === 'temp') !== isTemp || !p.start) continue;
          const a = Math.max(from, Date.parse(p.start)), b = Math.min(to, Date.parse(p.end || t.validTo));
          if (!(b > a)) continue;
          const seg = el('span', 'seg ' + (p.category || 'unknown'));
          seg.style.left = ((a - from) / (to - from) * 100).toFixed(2) + '%';
          seg.style.width = ((b - a) / (to - from) * 100).toFixed(2) + '%';
          seg.title = p.kind + ' ' + utc(p.start) + '\u2013' + utc(p.end || t.validTo) + ': ' + (p.category || '') + ' ' + p.summary;
          bar.appendChild(seg);
        }
        bars.appendChild(bar);
      }
      const ticks = el('div', 'taf-ticks');
      for (let h = 0; h <= (to - from) / 3600000; h += 6) {
        const tk = el('span', '', pad(new Date(from + h * 3600000).getUTCHours()) + 'Z');
        tk.style.left = (h * 3600000 / (to - from) * 100).toFixed(2) + '%'; ticks.appendChild(tk);
      }
      bars.appendChild(ticks);
      wrap.appendChild(bars);
    }
    const ul = el('ul', 'plain taf-periods');
    for (const p of t.periods) {
      const li = el('li');
      if (p.category) li.appendChild(el('span', 'chip ' + p.category, p.category));
      li.appendChild(el('strong', '', (p.kind === 'base' ? 'From ' : p.kind + ' ') + (p.start ? utc(p.start) : '') + (p.end ? '\u2013' + utc(p.end) : '') + ': '));
      li.appendChild(document.createTextNode(p.summary));
      ul.appendChild(li);
    }
    wrap.appendChild(ul);
    return wrap;
  }
  function pirepView(r) {
    const wrap = el('div');
    if (r.urgent) wrap.appendChild(el('span', 'chip warning', 'URGENT'));
    wrap.appendChild(kvList([
      ['Where', r.location], ['When', r.timeUTC], ['Altitude', r.altitudeFt ? r.altitudeFt.toLocaleString('en-US') + ' ft' : r.altitudeNote],
      ['Aircraft', r.aircraft], ['Sky', skyText(r)], ['Weather', (r.weather || []).join(', ')], ['Turbulence', r.turbulence], ['Icing', r.icing],
      ['Temperature', r.temperatureC !== undefined && r.temperatureC !== null ? r.temperatureC + ' \u00b0C' : ''], ['Wind', windText(r)], ['Remarks', r.remarks]
    ]));
    return wrap;
  }
  function windsView(w) {
    const table = el('table', 'winds');
    const hr = el('tr');
    for (const h of ['Altitude', 'Wind', 'Speed', 'Temp']) hr.appendChild(el('th', h === 'Altitude' ? '' : 'num', h));
    table.appendChild(hr);
    for (const l of w.levels) {
      const tr = el('tr');
      tr.appendChild(el('th', '', l.altitudeFt.toLocaleString('en-US') + ' ft'));
      tr.appendChild(el('td', 'num', l.lightAndVariable ? 'light & var.' : deg3(l.directionDeg) + '\u00b0'));
      tr.appendChild(el('td', 'num', l.lightAndVariable ? '' : l.speedKt + ' kt'));
      tr.appendChild(el('td', 'num', l.temperatureC !== undefined && l.temperatureC !== null ? l.temperatureC + ' \u00b0C' : ''));
      table.appendChild(tr);
    }
    const wrap = el('div', 'winds-wrap');
    wrap.appendChild(el('div', 'muted', (w.station || '') + (w.valid ? ' valid ' + utc(w.valid) : '')));
    wrap.appendChild(table);
    return wrap;
  }

  // ---- flights (the logbook) ----
  function css(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }
  function dur(s) { s = Math.max(0, Math.round(s)); return s >= 3600 ? Math.floor(s / 3600) + ':' + pad(Math.floor(s / 60) % 60) + ':' + pad(s % 60) : Math.floor(s / 60) + ':' + pad(s % 60); }
  async function loadFlights() {
    const list = await getJSON('/api/flights');
    const table = $('flight-list');
    clear(table);
    $('flights-summary').textContent = list.length ? list.length + ' flight' + (list.length === 1 ? '' : 's') + ' kept \u00b7 choose one' : 'No flights kept yet: run keeps them as you fly; gatewayd flights import REC/ builds them from recordings.';
    if (!list.length) { $('flight-detail').hidden = true; return; }
    const head = el('tr');
    for (const h of ['#', 'Date', 'Route', 'Takeoff', 'Landing', 'Time', 'NM', 'Max ft', 'Alerts', 'Closest']) head.appendChild(el('th', '', h));
    table.appendChild(head);
    for (const f of list) {
      const tr = el('tr', 'pick' + (state.flight === f.id ? ' on' : ''));
      const from = f.started_in_air ? '(air)' : (f.departure || '?'), to = f.ended_in_air ? '(air)' : (f.arrival || '?');
      const start = f.takeoff || f.off_block, end = f.landing || f.on_block;
      for (const v of [f.id, start.slice(0, 10), from + ' \u2192 ' + to, f.takeoff ? hhmmss(f.takeoff) : '\u2014', f.landing ? hhmmss(f.landing) : '\u2014',
        dur((Date.parse(end) - Date.parse(start)) / 1000), f.distance_nm.toFixed(1), f.max_altitude_ft === null ? '\u2014' : f.max_altitude_ft,
        f.alerts, f.closest_nm === null ? '\u2014' : f.closest_nm.toFixed(2) + ' NM']) tr.appendChild(el('td', '', v));
      tr.addEventListener('click', () => { state.flight = f.id; loadFlights().catch(() => {}); });
      table.appendChild(tr);
    }
    if (state.flight === undefined || state.flight === null || !list.some((f) => f.id === state.flight)) { state.flight = list[list.length - 1].id; table.lastChild.classList.add('on'); }
    if (state.shownFlight !== state.flight) await loadFlight(state.flight);
  }
  async function loadFlight(id) {
    const f = await getJSON('/api/flights/' + id);
    state.shownFlight = id; state.flightDoc = f;
    $('flight-detail').hidden = false;
    $('flight-title').textContent = 'Flight ' + f.id + ': ' + f.title;
    const dl = $('flight-downloads');
    clear(dl);
    for (const fmt of f.exports) {
      const a = el('a', '', fmt.toUpperCase());
      a.href = url('/api/flights/' + f.id + '/export/' + fmt); a.setAttribute('download', '');
      dl.appendChild(a);
    }
    $('flight-debrief').textContent = f.debrief.join('\n');
    drawFlight();
  }
  function drawFlight() {
    const f = state.flightDoc;
    if (!f || state.panel !== 'flights') return;
    // The map: an equirectangular picture around the track (no tiles), north up.
    const c = $('flight-map'), ctx = c.getContext('2d');
    ctx.clearRect(0, 0, c.width, c.height);
    const pts = f.track.slice();
    for (const e of f.encounters) for (const p of e.track) pts.push(p);
    if (!pts.length) return;
    let s = 90, n = -90, w = 180, e = -180;
    for (const p of pts) { s = Math.min(s, p[1]); n = Math.max(n, p[1]); w = Math.min(w, p[2]); e = Math.max(e, p[2]); }
    const k = Math.cos((s + n) / 2 * Math.PI / 180);
    const spanX = Math.max((e - w) * k, 0.01), spanY = Math.max(n - s, 0.01);
    const scale = Math.min((c.width - 40) / spanX, (c.height - 40) / spanY);
    const cx = (w + e) / 2, cy = (s + n) / 2;
    const X = (lon) => c.width / 2 + (lon - cx) * k * scale, Y = (lat) => c.height / 2 - (lat - cy) * scale;
    for (const a of f.areas) {
      if (!a.outline.length) continue;
      ctx.beginPath();
      a.outline.forEach((p, i) => i ? ctx.lineTo(X(p[1]), Y(p[0])) : ctx.moveTo(X(p[1]), Y(p[0])));
      ctx.closePath();
      ctx.globalAlpha = 0.15; ctx.fillStyle = css(a.kind === 'tfr' ? '--tfr' : '--area'); ctx.fill();
      ctx.globalAlpha = 1; ctx.strokeStyle = ctx.fillStyle; ctx.lineWidth = 2; ctx.stroke();
    }
    // A 1 NM scale bar.
    ctx.strokeStyle = css('--ring'); ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(20, c.height - 16); ctx.lineTo(20 + scale / 60, c.height - 16); ctx.stroke();
    for (const en of f.encounters) {
      ctx.strokeStyle = css('--caut'); ctx.lineWidth = 2; ctx.setLineDash([6, 4]);
      ctx.beginPath(); en.track.forEach((p, i) => i ? ctx.lineTo(X(p[2]), Y(p[1])) : ctx.moveTo(X(p[2]), Y(p[1]))); ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.strokeStyle = css('--accent'); ctx.lineWidth = 3;
    ctx.beginPath(); f.track.forEach((p, i) => i ? ctx.lineTo(X(p[2]), Y(p[1])) : ctx.moveTo(X(p[2]), Y(p[1]))); ctx.stroke();
    if (f.track.length) {
      const a = f.track[0], b = f.track[f.track.length - 1];
      ctx.fillStyle = css('--vfr'); ctx.fillRect(X(a[2]) - 5, Y(a[1]) - 5, 10, 10);
      ctx.fillStyle = css('--fg'); ctx.fillRect(X(b[2]) - 5, Y(b[1]) - 5, 10, 10);
    }
    for (const en of f.encounters) diamond(ctx, X(en.lon), Y(en.lat), css('--caut'));
    for (const al of f.alerts) if (al.lat !== null) dot(ctx, X(al.lon), Y(al.lat), css('--warn'));
    // The profile: altitude over time, traffic at its closest and alerts on it.
    const pc = $('flight-profile'), px = pc.getContext('2d');
    px.clearRect(0, 0, pc.width, pc.height);
    const alts = f.track.filter((p) => p[3] !== null);
    if (!alts.length) return;
    const t0 = f.track[0][0], t1 = f.track[f.track.length - 1][0];
    let lo = Infinity, hi = -Infinity;
    for (const p of alts) { lo = Math.min(lo, p[3]); hi = Math.max(hi, p[3]); }
    for (const en of f.encounters) if (en.altitudeFt !== null) { lo = Math.min(lo, en.altitudeFt); hi = Math.max(hi, en.altitudeFt); }
    lo = Math.floor(lo / 500) * 500; hi = Math.ceil((hi + 1) / 500) * 500;
    const PX = (t) => 50 + (t - t0) / Math.max(1, t1 - t0) * (pc.width - 70), PY = (a) => pc.height - 30 - (a - lo) / Math.max(1, hi - lo) * (pc.height - 50);
    px.strokeStyle = css('--line'); px.lineWidth = 1; px.fillStyle = css('--muted'); px.font = '14px sans-serif';
    for (let a = lo; a <= hi; a += Math.max(500, Math.ceil((hi - lo) / 5 / 500) * 500)) {
      px.beginPath(); px.moveTo(50, PY(a)); px.lineTo(pc.width - 20, PY(a)); px.stroke();
      px.fillText(String(a), 4, PY(a) + 5);
    }
    px.strokeStyle = css('--accent'); px.lineWidth = 3;
    px.beginPath(); alts.forEach((p, i) => i ? px.lineTo(PX(p[0]), PY(p[3])) : px.moveTo(PX(p[0]), PY(p[3]))); px.stroke();
    for (const en of f.encounters) {
      if (en.altitudeFt === null) continue;
      px.strokeStyle = css('--caut'); px.lineWidth = 1; px.setLineDash([4, 4]);
      px.beginPath(); px.moveTo(PX(en.time), pc.height - 30); px.lineTo(PX(en.time), 20); px.stroke(); px.setLineDash([]);
      diamond(px, PX(en.time), PY(en.altitudeFt), css('--caut'));
    }
    for (const al of f.alerts) if (al.altitudeFt !== null) dot(px, PX(al.time), PY(al.altitudeFt), css('--warn'));
  }
  function dot(ctx, x, y, color) { ctx.fillStyle = color; ctx.beginPath(); ctx.arc(x, y, 7, 0, 2 * Math.PI); ctx.fill(); }
  function diamond(ctx, x, y, color) {
    ctx.fillStyle = color; ctx.beginPath(); ctx.moveTo(x, y - 8); ctx.lineTo(x + 8, y); ctx.lineTo(x, y + 8); ctx.lineTo(x - 8, y); ctx.closePath(); ctx.fill();
  }

  // ---- status ----
  function kv(table, rows) {
    clear(table);
    for (const [k, v] of rows) { const tr = el('tr'); tr.appendChild(el('td', '', k)); tr.appendChild(el('td', '', v)); table.appendChild(tr); }
  }
  async function loadStatus() {
    const doc = await getJSON('/api/status');
    syncClock(doc);
    const r = doc.receiver;
    kv($('status-receiver'), [
      ['Health', r.healthy ? 'OK' : r.problem], ['Last heartbeat', r.lastHeartbeat ? hhmmss(r.lastHeartbeat) + ' (' + r.heartbeatAgeSec + ' s ago)' : 'none'],
      ['GPS', (r.gpsValid ? 'valid' : 'no fix') + ', position from ' + r.positionSource], ['Device', r.device || 'unknown'],
      ['Messages/s', String(r.messagesPerSec)], ['Uplinks/s', String(r.uplinksPerSec)], ['Datagrams', String(r.datagrams)],
      ['Messages', String(r.messages)], ['Rejected', String(r.rejected)], ['Targets', String(r.targets)], ['Version', doc.version]
    ]);
    kv($('status-types'), Object.keys(r.messagesByType).map((k) => [k, String(r.messagesByType[k])]).concat(Object.keys(r.rejectedByReason).map((k) => ['rejected: ' + k, String(r.rejectedByReason[k])])));
    const f = doc.feeds;
    kv($('status-feeds'), [['SSE clients', String(f.sseClients)], ['SSE dropped (slow)', String(f.sseDropped)], ['SSE refused (full)', String(f.sseRefused)],
      ['NMEA dropped', String(f.nmeaDropped)], ['GDL90 forwarded', String(f.forwarded)], ['Forward failures', String(f.forwardFailures)]]);
    const db = doc.database;
    const refreshes = db ? Object.keys(db.notamRefreshes).map((s) => [s + ' refreshed', utc(db.notamRefreshes[s]) + ' (' + local(db.notamRefreshes[s]) + ')']) : [];
    kv($('status-db'), db ? [['File', db.path], ['NOTAMs stored', db.notams === null || db.notams === undefined ? 'unreadable: ' + db.error : String(db.notams)],
      ['NOTAMs stale', db.notamsStale ? 'yes (no refresh for 24 h)' : 'no'], ['NOTAMs from files', String(doc.fileNotams)]].concat(refreshes)
      : [['Database', 'off (--no-database)'], ['NOTAMs from files', String(doc.fileNotams)]]);
  }

  // ---- theme, clock, token, start ----
  function setTheme(t) {
    document.documentElement.dataset.theme = t; $('theme').textContent = t === 'night' ? 'Day' : 'Night';
    localStorage.setItem('gw-theme', t); draw(); drawFlight();
  }
  $('theme').addEventListener('click', () => setTheme(document.documentElement.dataset.theme === 'night' ? 'day' : 'night'));
  $('weather-filter').addEventListener('input', renderWeather);
  $('token-save').addEventListener('click', () => { token = $('token-input').value; localStorage.setItem('gw-token', token); $('need-token').hidden = true; schedule(); stream(); });
  setInterval(() => { $('clock').textContent = hhmmss(new Date(now() * 1000).toISOString()); }, 1000);
  const savedRange = Number(localStorage.getItem('gw-range') || 10);
  if ([2, 5, 10, 20].indexOf(savedRange) >= 0) { state.range = savedRange; for (const o of document.querySelectorAll('[data-range]')) o.classList.toggle('on', Number(o.dataset.range) === savedRange); }
  if (localStorage.getItem('gw-orient') === 'north') { state.trackUp = false; $('orient').textContent = 'North up'; }
  const savedTheme = params.get('theme') || localStorage.getItem('gw-theme');
  setTheme(savedTheme || (window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'night' : 'day'));
  setSpeak((params.get('speak') || localStorage.getItem('gw-speak')) === 'on');
  window.addEventListener('hashchange', showPanel);
  for (const name of ['alerts', 'notams', 'radar', 'weather', 'status']) loaders[name]().catch(() => {});
  stream();
  showPanel();
})();
