// camera.js: the Camera page. Frames from the camera go to the server as
// JPEGs over a WebSocket (at most 1280 px, ~15 a second, never more than
// two waiting); the server's live session answers each with the grid's
// corners, the digits read and the solution; every video frame is drawn
// on a canvas with the solution in perspective, following the corners.
import { $ } from './api.js';
import { drawGrid, parseGrid, solutionDigits, validCorners } from './warp.js';

const MAX_SIDE = 1280;
const SEND_EVERY_MS = 66;   // ~15 frames a second
const MAX_IN_FLIGHT = 2;
const STALE_MS = 500;       // an answer to a frame captured longer ago is not drawn (the page may have changed since)
const EXTRAPOLATE_MS = 120; // how far ahead the corners may be carried

const video = $('video');
const view = $('view');
const ctx = view.getContext('2d');
let ws = null;
let stream = null;
let seq = 0;
const sent = new Map();  // seq -> {t: capture time, s: send time} (performance.now())
let last = null;         // the newest answer, with .t (its capture time)
let prev = null;         // the located answer before it
let auto = true;
let step = null;         // {cells, targets, sentence, until}
let toMeasure = [];      // answers received, waiting to be drawn
let running = false;
let checking = false;    // the player asked for the entries of a pen page to be checked

// Figures for people (the HUD) and for the browser test.
// rtt: capture -> answer drawn; rttSent: sent -> answer drawn (ms).
const stats = { sent: 0, answered: 0, dropped: 0, pen: 0, leaks: 0, rtt: [], rttSent: [], server: [], encode: [], drawn: '', status: '' };
window.sudokuarCamera = stats;

function status(text) { $('status').textContent = text; stats.status = text; }

async function start() {
  $('start').hidden = true;
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    status('The camera needs a secure page: open this site on localhost, or start the server with --tls-cert and --tls-key and use https://.');
    $('start').hidden = false;
    return;
  }
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
    });
  } catch (e) {
    const why = { NotAllowedError: 'Camera permission was refused: allow it in the browser, then press Start.',
      NotFoundError: 'No camera was found on this device.', NotReadableError: 'The camera is busy in another app.' }[e.name];
    status(why || `The camera could not start: ${e.message}`);
    $('start').hidden = false;
    return;
  }
  video.srcObject = stream;
  await video.play().catch(() => {});
  connect();
  if (!running) { running = true; requestAnimationFrame(paint); sendLoop(); }
}

function connect() {
  status('Connecting…');
  ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/camera`);
  ws.binaryType = 'arraybuffer';
  ws.onopen = () => {
    status('Looking for a grid…');
    if (checking) ws.send(JSON.stringify({ type: 'check', on: true })); // a new session starts unchecked
  };
  ws.onmessage = (e) => onAnswer(JSON.parse(e.data));
  ws.onclose = (e) => {
    sent.clear();
    if (running) {
      status(e.reason ? `Disconnected: ${e.reason}` : 'Disconnected from the server.');
      $('start').textContent = 'Reconnect';
      $('start').hidden = false;
    }
  };
}

function onAnswer(a) {
  if (a.type === 'frame' || a.type === 'dropped') {
    const f = sent.get(a.seq);
    sent.delete(a.seq);
    if (a.type === 'dropped') { stats.dropped++; return; }
    stats.answered++;
    stats.server.push(a.serverMs);
    a.t = f ? f.t : undefined;
    a.arrived = performance.now();
    if (last && last.located) prev = last;
    last = a;
    auto = a.auto;
    const pen = !!a.entries;
    // A page started in pen: Space fills the empty cells, C checks.
    $('auto').setAttribute('aria-pressed', String(pen ? !!a.fill : auto));
    $('auto').textContent = pen ? (a.fill ? 'Fill: on' : 'Fill empty cells') : (auto ? 'Auto-solve on' : 'Auto-solve off');
    $('check').hidden = !pen;
    $('solved').hidden = !a.solved;
    if (pen) { $('step').textContent = a.hint || ''; $('step').hidden = !a.hint; }
    if (f) toMeasure.push(f);
    stats.last = a;
    // For the browser test: a pen page's frame that tells right from
    // wrong unasked, or carries the solution, is a leak.
    if (a.entries && (((a.mistakes || []).length && !a.checking) || a.solution)) stats.leaks++;
    if (a.entries) stats.pen++;
    // Several grids in view: the button (and Tab) follows the next one.
    const several = a.grids > 1 && a.gridAt > 0;
    $('next').hidden = !several;
    if (several) $('next').textContent = `Grid ${a.gridAt} of ${a.grids}: next`;
  } else if (a.type === 'step') {
    if (a.error) { showStep({ sentence: a.error, cells: [] }, []); return; }
    showStep(a.step, a.placed || [], `Step ${a.index} of ${a.total}: `);
  }
}

// showStep shows a logical step on the paper until Space: its pattern lit,
// the digits placed by the steps before it and by it, and its sentence.
function showStep(s, placed, prefix) {
  step = {
    cells: new Set(s.cells || []),
    targets: new Set((s.placements || []).map((p) => p.cell)),
    placements: s.placements || [],
    placed,
  };
  $('step').textContent = (prefix || '') + (s.sentence || s.technique || '');
  $('step').hidden = false;
}

function clearStep() {
  step = null;
  $('step').hidden = true;
}

// sendLoop captures and sends a frame every SEND_EVERY_MS while fewer
// than MAX_IN_FLIGHT are unanswered.
async function sendLoop() {
  const cv = new OffscreenCanvas(2, 2);
  const cx = cv.getContext('2d');
  for (;;) {
    const due = performance.now() + SEND_EVERY_MS;
    if (ws && ws.readyState === WebSocket.OPEN && video.videoWidth && sent.size < MAX_IN_FLIGHT) {
      const k = Math.min(1, MAX_SIDE / Math.max(video.videoWidth, video.videoHeight));
      const w = Math.round(video.videoWidth * k), h = Math.round(video.videoHeight * k);
      if (cv.width !== w || cv.height !== h) { cv.width = w; cv.height = h; }
      const t = performance.now();
      cx.drawImage(video, 0, 0, w, h);
      const blob = await cv.convertToBlob({ type: 'image/jpeg', quality: 0.7 });
      stats.encode.push(performance.now() - t);
      const buf = new Uint8Array(4 + blob.size);
      const s = seq++ >>> 0;
      new DataView(buf.buffer).setUint32(0, s);
      buf.set(new Uint8Array(await blob.arrayBuffer()), 4);
      if (ws.readyState === WebSocket.OPEN) {
        sent.set(s, { t, s: performance.now() });
        ws.send(buf);
        stats.sent++;
      }
    }
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
  }
}

// corners returns the grid's corners for now: the newest answer's, carried
// forward along the motion between the last two answers (briefly).
function corners(now) {
  const c = last.corners;
  if (!prev || !prev.located || prev.t === undefined || last.t === undefined) return c;
  const dt = last.t - prev.t;
  if (dt <= 0 || dt > 300) return c;
  const ahead = Math.min(now - last.t, EXTRAPOLATE_MS);
  let speed = 0;
  const v = c.map((p, k) => {
    const vx = (p[0] - prev.corners[k][0]) / dt, vy = (p[1] - prev.corners[k][1]) / dt;
    speed = Math.max(speed, Math.hypot(vx, vy));
    return [vx, vy];
  });
  if (speed < 0.05) return c; // still: no jitter from noise (0.05 px/ms)
  return c.map((p, k) => [p[0] + v[k][0] * ahead, p[1] + v[k][1] * ahead]);
}

function paint() {
  requestAnimationFrame(paint);
  if (!video.videoWidth) return;
  if (view.width !== video.videoWidth || view.height !== video.videoHeight) {
    view.width = video.videoWidth;
    view.height = video.videoHeight;
  }
  ctx.drawImage(video, 0, 0);
  const now = performance.now();
  let drawn = '';
  if (last && last.located && now - (last.t === undefined ? last.arrived : last.t) < STALE_MS && validCorners(last.corners)) {
    const n = last.box[0] * last.box[1];
    const scale = view.width / last.w;
    const fill = new Map();
    for (const i of last.conflicts || []) fill.set(i, 'rgba(230,30,30,0.4)');
    let digits = null, colour = '#1e50dc';
    if (last.entries) {
      // A pen page: nothing that spoils the game unless asked; the wrong
      // entries (only sent while checking) marked red, Space's digits in
      // the cells without ink.
      for (const i of last.mistakes || []) fill.set(i, 'rgba(230,30,30,0.5)');
      if (last.fill) {
        digits = new Map();
        parseGrid(last.fill).forEach((v, i) => { if (v) digits.set(i, v); });
      }
      const h = last.penHint;
      if (h && h.wrong !== undefined) fill.set(h.wrong, 'rgba(230,30,30,0.5)');
      if (h && h.cells) {
        for (const i of h.cells) fill.set(i, 'rgba(255,210,40,0.45)');
        digits = new Map();
        for (const p of h.placements || []) { fill.set(p.cell, 'rgba(255,150,0,0.6)'); digits.set(p.cell, p.digit); }
      }
    } else if (n && last.solution && auto) {
      digits = solutionDigits(last.given, last.solution);
    } else if (n && last.given) {
      digits = new Map();
      parseGrid(last.given).forEach((v, i) => { if (v) digits.set(i, v); });
      colour = '#00a03c';
    }
    if (step && n) {
      // The step alone: its pattern lit, the digit it places drawn, and
      // the rest of the solution held back so the reasoning shows.
      for (const i of step.cells) fill.set(i, 'rgba(255,210,40,0.45)');
      for (const i of step.targets) fill.set(i, 'rgba(255,150,0,0.6)');
      digits = new Map();
      for (const p of step.placed) digits.set(p.cell, p.digit);
      for (const p of step.placements) digits.set(p.cell, p.digit);
      colour = '#1e50dc';
    }
    drawGrid(ctx, corners(now), n, { outline: last.solution || last.solved ? '#28c83c' : '#f0be1e', fill, digits, colour, scale });
    stats.marked = last.entries ? (last.mistakes || []).length : 0;
    if (digits && last.solution && auto && !step) drawn = last.solution;
  }
  stats.drawn = drawn;
  if (toMeasure.length) {
    for (const f of toMeasure) { stats.rtt.push(now - f.t); stats.rttSent.push(now - f.s); }
    toMeasure = [];
  }
  if (last) {
    status(last.status || '');
    const r = stats.rtt.slice(-30).sort((a, b) => a - b);
    if (r.length) $('perf').textContent = `${Math.round(r[r.length >> 1])} ms`;
  }
}

function key(k) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'key', key: k }));
}

// setChecking asks the server to check a pen page's entries, or to stop.
function setChecking(on) {
  checking = on;
  $('check').setAttribute('aria-pressed', String(on));
  $('check').textContent = on ? 'Checking: on' : 'Check my entries';
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'check', on }));
}

function leave() {
  running = false;
  if (ws) ws.close(1000, 'left');
  if (stream) for (const t of stream.getTracks()) t.stop();
  location.assign('/');
}

document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === ' ') { e.preventDefault(); clearStep(); key(' '); }
  else if (e.key === 'h' || e.key === 'H') key('h');
  else if (e.key === 'c' || e.key === 'C') setChecking(!checking);
  else if (e.key === 'Tab' && !$('next').hidden) { e.preventDefault(); clearStep(); key('Tab'); }
  else if (e.key === 'q' || e.key === 'Q' || e.key === 'Escape') { e.preventDefault(); leave(); }
});
$('auto').onclick = () => { clearStep(); key(' '); };
$('hint').onclick = () => key('h');
$('check').onclick = () => setChecking(!checking);
$('next').onclick = () => { clearStep(); key('Tab'); };
$('leave').onclick = (e) => { e.preventDefault(); leave(); };
$('start').onclick = () => { if (stream && ws && ws.readyState !== WebSocket.OPEN) connect(); else start(); $('start').hidden = true; };
start();
