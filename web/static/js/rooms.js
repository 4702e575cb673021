// rooms.js: Play with friends. /rooms is the lobby (quick match, new
// room, join by code, open rooms); /rooms/CODE is a room: its lobby with
// ready checks, the race or co-op board, and the results. Everything goes
// over one WebSocket to /ws/rooms (the protocol is in rooms/protocol.go);
// the server decides every move, this page only shows what it says.
import { $, say, sentence } from './api.js';
import { Board, makePad, keyValue, parseCells, arrows } from './grid.js';
import { Zoom } from './zoom.js';
import { clock, Pencil, StagedHint, conflicts as clashes, showLeft, clearMarks, DigitFirst, MessageLine, quietKey, showMistakes, undoKeys } from './playkit.js';
import { onSettings } from './settings.js';

const NAME = 'sudokuar.name'; // shared with the play page

let ws = null;
let seq = 0;
let retry = 0;        // reconnect attempts in a row
let wanted = null;    // the room code this page should be in
let leaving = false;  // the player left on purpose: no rejoin
let st = null;        // the latest state
let board = null;     // the Board widget
let zoom = null;      // its magnifier on big boards
let cells = [];       // the board's values as the server last said
let marks = [];       // my pencil marks
let wrong = new Set();
let conflicts = new Set();
const pencil = new Pencil();
const hint = new StagedHint($('room-msg'), () => redraw());
const digitFirst = new DigitFirst($('pad'));
new MessageLine($('room-msg-wrap'), $('room-msg'), $('room-msg-more'));
let clockBase = 0;    // performance.now() when st.elapsedMs was true
let solution = null;  // once the game is over
let listTimer = 0;
let moved = null;     // {code, token}: the next join of that room carries the token of a "moved"
let reopen = false;   // the socket is being closed to reconnect at once (a "moved" to this origin)
let away = false;     // the socket dropped while in a room: the next state says we are back

// The page is /rooms/CODE, or PREFIX/rooms/CODE when a load balancer
// routes PREFIX (e.g. /n/a) to one node: its socket then goes there too.
const path = location.pathname.match(/^(.*?)\/rooms(?:\/([^/]*))?\/?$/) || ['', '', ''];
const codeIn = path[2];
let wsPrefix = path[1]; // '' : the origin's own /ws/rooms
// A "moved" to another node opens /rooms/CODE there with the one-time
// token that keeps the player's seat in the address's fragment (never
// sent to a server, and taken out of the address at once).
const tokenIn = new URLSearchParams(location.hash.slice(1)).get('token');
if (codeIn && tokenIn) {
  moved = { code: codeIn.toUpperCase(), token: tokenIn };
  history.replaceState(null, '', location.pathname);
}
$('name').value = localStorage.getItem(NAME) || '';
if (codeIn) {
  wanted = codeIn.toUpperCase();
  showRoom();
} else {
  showLobby();
}
connect();
setInterval(tick, 250);

// ---- the connection ----

function connect() {
  ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${wsPrefix}/ws/rooms`);
  ws.onopen = () => {
    retry = 0;
    if (wanted) {
      // Back after a drop (the node may have died: another takes the
      // room over) or sent here by "moved": join again; the state that
      // answers replaces the board, so it holds every move the server
      // acknowledged and nothing it did not.
      const m = { t: 'join', code: wanted, name: myName() };
      if (moved && moved.code === wanted) m.token = moved.token;
      moved = null;
      send(m);
    } else send({ t: 'list' });
  };
  ws.onmessage = (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch { return; }
    (handlers[m.t] || (() => {}))(m);
  };
  ws.onclose = (e) => {
    ws = null;
    pending = []; // a new connection starts with a new budget and a fresh sync
    if (reopen) { reopen = false; connect(); return; }
    if (e.code === 1008 || e.code === 1009) {
      tell(`The server closed the connection: ${e.reason || 'protocol error'}. Reload the page to come back.`, 'error');
      return;
    }
    // Soon at first (another node takes a room over within a second or
    // two), then backing off up to 5 s, spread so that a room's players
    // do not all come back in the same instant.
    const wait = Math.min(5000, 250 * 2 ** retry++) * (0.75 + Math.random() / 2);
    if (wanted && st) away = true;
    wsPrefix = ''; // a node that dropped may be dead: the balancer picks a live one, which says "moved" if need be
    tell(e.code === 1001 ? 'The server is restarting: reconnecting…' : 'Connection lost: reconnecting…');
    setTimeout(connect, wait);
  };
}

// The server takes `rate` messages a second in bursts of up to `burst`
// (its welcome says how many) and drops what goes over. The page keeps
// inside that budget, with a margin, by holding back what would go over
// and sending it as the budget refills: fast typing never loses a move.
const budget = { rate: 18, burst: 36, tokens: 36, at: performance.now() };
let pending = [];
let drainTimer = 0;

function drain() {
  drainTimer = 0;
  if (!ws || ws.readyState !== WebSocket.OPEN) { pending = []; return; }
  const now = performance.now();
  budget.tokens = Math.min(budget.burst, budget.tokens + (now - budget.at) / 1000 * budget.rate);
  budget.at = now;
  while (pending.length && budget.tokens >= 1) {
    budget.tokens -= 1;
    ws.send(pending.shift());
  }
  if (pending.length) drainTimer = setTimeout(drain, Math.ceil(1000 / budget.rate));
}

function send(m) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    tell('Not connected yet: try again in a moment.', 'error');
    return 0;
  }
  m.seq = ++seq;
  pending.push(JSON.stringify(m));
  if (!drainTimer) drain();
  return m.seq;
}

function myName() {
  const n = $('name').value.trim() || localStorage.getItem(NAME) || '';
  if (n) localStorage.setItem(NAME, n);
  return n || undefined;
}

// tell writes a message where the player is looking.
function tell(text, kind) {
  say(wanted ? $('room-msg') : $('lobby-msg'), sentence(text), kind);
}

const handlers = {
  welcome(m) {
    // 90% of the server's budget, so clocks that differ a little never
    // push a message over it.
    if (m.rate > 0) budget.rate = m.rate * 0.9;
    if (m.burst > 0) budget.burst = Math.max(1, Math.floor(m.burst * 0.9));
    budget.tokens = Math.min(budget.tokens, budget.burst);
  },
  rooms(m) { showPublic(m.rooms); },
  queued(m) {
    $('queue').textContent = `Looking for players… ${m.waiting} waiting for ${m.mode === 'coop' ? 'co-op' : 'a race'} at ${m.size}×${m.size} ${m.level}.`;
  },
  state(m) {
    if (away && m.code === wanted) { away = false; tell('Back in the room.', 'ok'); }
    wanted = m.code;
    if (location.pathname !== '/rooms/' + m.code) history.pushState(null, '', '/rooms/' + m.code);
    if ($('room').hidden) showRoom();
    showState(m);
  },
  ack(m) { applyMove(m); },
  move(m) { applyMove(m); },
  progress(m) {
    const s = st && st.seats.find((x) => x.seat === m.seat);
    if (!s) return;
    Object.assign(s, { filled: m.filled, hints: m.hints }); // mistakes are told at the end
    drawSeats();
  },
  hint(m) {
    const me = mySeat();
    if (me) me.hints = m.used;
    hint.show(m.step, m.stage || 1, st.box[0], st.box[1]);
    drawMine();
  },
  finish(m) {
    if (m.seat < 0) { tell(`Solved together in ${clock(m.ms)}!`, 'ok'); return; }
    const s = st && st.seats.find((x) => x.seat === m.seat);
    const who = s ? (m.seat === st.you ? 'You' : s.name) : 'Someone';
    const place = ['', 'first', 'second', 'third', 'fourth'][m.place] || `#${m.place}`;
    tell(`${who} finished ${place} in ${clock(m.ms)}.`, m.seat === st.you ? 'ok' : '');
  },
  over(m) { solution = parseCells(m.solution); },
  vote(m) {
    const s = st && st.seats.find((x) => x.seat === m.seat);
    if (s) tell(`A vote to remove ${s.name}: ${m.votes} of ${m.need} needed.`);
  },
  error(m) {
    // Coming back to a room whose node has just died: no node may take
    // it over until that one has missed its heartbeats (3 s). Ask again;
    // a join refused for going over the joins' budget (a node allows one
    // a second, after a burst) is asked again once the wait it names is
    // over, or the page would stay away for good.
    const again = away && wanted && (m.code === 'busy' || (m.code === 'no-room' && /try again/.test(m.msg)));
    const later = away && wanted && m.code === 'rate';
    if (again || later) {
      const code = wanted;
      const secs = later ? Math.max(1, Number((/wait (\d+) s/.exec(m.msg) || [])[1]) || 1) : 0;
      setTimeout(() => { if (away && wanted === code && ws && ws.readyState === WebSocket.OPEN) send({ t: 'join', code, name: myName() }); }, secs * 1000 + 300 + Math.random() * 300);
      return;
    }
    tell(m.code === 'rate' ? 'Slow down: too many messages.' : m.msg, 'error');
    if (m.code === 'no-room' || m.code === 'banned' || m.code === 'full') {
      if (st == null) { wanted = null; history.replaceState(null, '', '/rooms'); showLobby(); say($('lobby-msg'), m.msg, 'error'); }
    }
  },
  left() { backToLobby('You left the room.'); },
  kicked(m) { backToLobby(m.msg); },
  replaced(m) { backToLobby(m.msg + '. This window is no longer in the room.'); },
  closed(m) { tell(m.msg, 'error'); },
  // The room is on another node: on this origin (a load balancer in
  // front) reconnect at once; on another, open the room there.
  moved(m) {
    let u;
    try { u = new URL(m.url); } catch { return; }
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !/^[A-Z2-9]{6}$/.test(m.code)) return;
    wanted = m.code;
    if (u.origin === location.origin) {
      moved = { code: m.code, token: m.token };
      wsPrefix = u.pathname.replace(/\/+$/, '');
      reopen = true;
      if (ws) ws.close();
      return;
    }
    location.assign(`${u.origin}/rooms/${m.code}#token=${encodeURIComponent(m.token || '')}`);
  },
};

function backToLobby(text) {
  wanted = null;
  st = null;
  history.pushState(null, '', '/rooms');
  showLobby();
  say($('lobby-msg'), text);
  send({ t: 'list' });
}

addEventListener('popstate', () => {
  const code = location.pathname.split('/')[2];
  if (!code && wanted) { send({ t: 'leave' }); backToLobby('You left the room.'); }
});

// ---- the lobby ----

function showLobby() {
  $('lobby').hidden = false;
  $('room').hidden = true;
  document.title = 'Play with friends · sudokuar';
  clearInterval(listTimer);
  listTimer = setInterval(() => { if (!wanted) send({ t: 'list' }); }, 4000);
}

// choice reads a form's mode, size and level (prefix q or c).
function choice(p) {
  const v = (name) => document.querySelector(`[name=${p}${name}]:checked`);
  return {
    mode: v('mode').value,
    size: Number(v('size').value),
    level: document.querySelector(`[name=${p}level]`).value,
  };
}

// Small boards cannot be hard: offer the levels each size reaches.
for (const p of ['q', 'c']) {
  const sel = document.querySelector(`[name=${p}level]`);
  const order = [...sel.options].map((o) => o.value);
  const limit = () => {
    const max = document.querySelector(`[name=${p}size]:checked`).dataset.max;
    for (const o of sel.options) o.disabled = order.indexOf(o.value) > order.indexOf(max);
    if (sel.selectedOptions[0].disabled) sel.value = max;
  };
  for (const r of document.querySelectorAll(`[name=${p}size]`)) r.addEventListener('change', limit);
  limit();
}

function needName() {
  if (myName()) return false;
  say($('lobby-msg'), 'Type your name first: the other players see it.', 'error');
  $('name').focus();
  return true;
}

$('quick-form').onsubmit = (e) => {
  e.preventDefault();
  if (needName()) return;
  if (send({ t: 'quick', name: myName(), ...choice('q') })) {
    $('queue').textContent = 'Looking for players…';
    $('cancel').hidden = false;
  }
};
$('cancel').onclick = () => {
  send({ t: 'cancel' });
  $('queue').textContent = '';
  $('cancel').hidden = true;
};
$('create-form').onsubmit = (e) => {
  e.preventDefault();
  if (needName()) return;
  send({ t: 'create', name: myName(), public: $('public').checked, ...choice('c') });
};
$('join-form').onsubmit = (e) => {
  e.preventDefault();
  const code = $('code').value.trim().toUpperCase();
  if (!/^[A-Z2-9]{6}$/.test(code)) { say($('lobby-msg'), 'A room code is 6 letters and digits.', 'error'); return; }
  if (needName()) return;
  wanted = code;
  send({ t: 'join', code, name: myName() });
};

function showPublic(list) {
  const ul = $('public-rooms');
  ul.replaceChildren();
  if (!list.length) {
    ul.append(Object.assign(document.createElement('li'), { className: 'empty', textContent: 'No public room is waiting for players right now.' }));
    return;
  }
  for (const r of list) {
    const li = document.createElement('li');
    const what = document.createElement('span');
    what.textContent = `${r.mode === 'coop' ? 'Co-op' : 'Race'} · ${r.size}×${r.size} ${r.level} · ${r.players}/${r.max} players`;
    const b = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Join' });
    b.onclick = () => { if (needName()) return; wanted = r.code; send({ t: 'join', code: r.code, name: myName() }); };
    li.append(what, b);
    ul.append(li);
  }
}

// ---- the room ----

function showRoom() {
  $('lobby').hidden = true;
  $('room').hidden = false;
  clearInterval(listTimer);
  $('room-code').textContent = wanted;
  $('link').value = `${location.origin}/rooms/${wanted}`;
}

function mySeat() { return st && st.you >= 0 ? st.seats.find((s) => s.seat === st.you) : null; }

function showState(m) {
  const first = !st || st.code !== m.code || st.game !== m.game || st.size !== m.size;
  const wasPhase = st && st.phase;
  const prev = st;
  st = m;
  clockBase = performance.now();
  document.title = `Room ${m.code} · sudokuar`;
  $('room-what').textContent = `${m.mode === 'coop' ? 'Co-op' : 'Race'} · ${m.size}×${m.size} ${m.level.charAt(0).toUpperCase()}${m.level.slice(1)}`;
  $('room-code').textContent = m.code;
  $('link').value = `${location.origin}/rooms/${m.code}`;
  if (m.phase !== 'over') solution = null;
  else if (m.solution) solution = parseCells(m.solution);
  if (m.board) {
    cells = parseCells(m.board.cells);
    marks = m.board.marks.slice();
    wrong = new Set(m.board.wrong);
    conflicts = new Set(m.board.conflicts);
  }
  if (first || !board || wasPhase !== m.phase) hint.clear();
  if (st && wasPhase === 'playing') sayWhoLeft(prev, m);
  if (m.phase === 'playing' && wasPhase !== 'playing') { say($('room-msg'), m.game > 0 && wasPhase ? 'Go!' : '', 'ok'); }

  const lobby = m.phase === 'lobby' || m.phase === 'countdown';
  document.body.classList.toggle('in-game', m.phase === 'playing');
  $('waiting').hidden = !lobby;
  $('play').hidden = lobby;
  $('results').hidden = m.phase !== 'over';
  if (lobby) drawWaiting();
  else drawGame(first);
  if (m.phase === 'over') drawResults();
  drawSeats();
}

function drawWaiting() {
  const me = mySeat();
  const seated = st.seats.filter((s) => !s.out);
  const notReady = seated.filter((s) => !s.ready || !s.online);
  let text;
  if (st.you < 0) text = seated.length < 4 ? 'You are watching. Take a seat to play.' : 'You are watching: every seat is taken.';
  else if (seated.length < 2 && !st.quick) text = 'Waiting for another player: send them the link below.';
  else if (notReady.length) {
    const others = notReady.filter((s) => s.seat !== st.you).map((s) => s.name);
    const names = others.length > 1 ? `${others.slice(0, -1).join(', ')} and ${others[others.length - 1]}` : others[0];
    const meToo = notReady.some((s) => s.seat === st.you);
    text = !others.length ? 'Waiting for you: press “I\'m ready”.'
      : meToo ? `Waiting for you and ${names} to be ready.` : `Waiting for ${names} to be ready.`;
  }
  else text = 'Everyone is ready.';
  $('wait-text').textContent = text;
  $('countdown').hidden = st.phase !== 'countdown';
  $('ready').hidden = !me;
  $('sit').hidden = !!me || seated.length >= 4;
  if (me) {
    $('ready').setAttribute('aria-pressed', String(me.ready));
    $('ready').textContent = me.ready ? 'Ready ✓ (click to wait)' : "I'm ready";
  }
  tick();
}

function drawGame(first) {
  const watchingRace = st.mode === 'race' && st.you < 0;
  $('watching').hidden = !watchingRace;
  $('board-wrap').hidden = watchingRace;
  $('pad').hidden = watchingRace || st.you < 0 || st.phase !== 'playing';
  $('tools').hidden = $('keys').hidden = st.you < 0 || st.phase !== 'playing';
  $('undo').hidden = $('redo').hidden = st.mode === 'coop';
  $('keys').textContent = 'Keys: arrows move, 1–9 (A–G on 16×16) write, 0 or Backspace erase, P pencil, H hint' + (st.mode === 'coop' ? '.' : ', U/Ctrl+Z undo.');
  if (!st.board) return;
  if (!board) { board = new Board($('board'), () => digitFirst.tap(write, redraw, open)); zoom = new Zoom(board, $('zoom')); }
  board.setShape(st.box[0], st.box[1]);
  zoom.offer(st.size);
  if (st.phase !== 'playing') board.sel = -1;
  if (first) { makePad($('pad'), st.size, (v) => digitFirst.key(v, write, redraw)); digitFirst.show(); }
  // A keyboard player types at once: the first empty cell is selected.
  if (first && st.phase === 'playing' && st.you >= 0 && board.sel < 0) {
    const start = cells.findIndex((x) => x === 0);
    if (start >= 0) board.sel = start;
  }
  drawMine();
  redraw();
  if (first && st.you >= 0) $('board').focus({ preventScroll: true });
}

// drawMine updates the counters above the board and the tools.
function drawMine() {
  if (!st || !st.board) return;
  const me = mySeat();
  $('filled').textContent = `${st.board.filled}/${st.board.total}`;
  $('hints').textContent = `${me ? me.hints : 0}/${st.maxHints}`;
  showMistakes({ mistakes: me ? me.mistakes : undefined }, ''); // told at the end
  hint.hintsLeft(me ? st.maxHints - me.hints : 0);
  const over = st.phase !== 'playing' || !me || me.place > 0 || !!me.out;
  for (const b of document.querySelectorAll('#tools button, #pad button')) b.disabled = over;
  if (!over) {
    $('undo').disabled = !st.board.canUndo;
    $('redo').disabled = !st.board.canRedo;
    $('hint').disabled = me.hints >= st.maxHints && hint.next() === 1;
  }
}

function redraw() {
  if (!board || !st || !st.board) return;
  const given = parseCells(st.puzzle).map((x) => x > 0);
  const values = cells.slice();
  const solved = new Set();
  if (solution) {
    solution.forEach((x, i) => { if (!given[i] && values[i] !== x) { values[i] = x; solved.add(i); } });
  }
  // Rule breaks always show: they are rules, not answers.
  const clash = solution ? new Set() : clashes(values, st.box[0], st.box[1]);
  if (!solution) for (const i of conflicts) clash.add(i);
  const h = hint.view();
  board.draw({
    values, given, marks, wrong: solution ? new Set() : wrong, conflicts: clash,
    hint: h.cells, targets: h.targets, elim: h.elim, solved, focus: digitFirst.chosen,
  });
  showLeft($('pad'), values, st.size);
  zoom.update();
  if (st.phase === 'playing' && $('hint') && mySeat() && !mySeat().place) $('hint').disabled = mySeat().hints >= st.maxHints && hint.next() === 1;
}

function applyMove(m) {
  if (!st || !st.board) return;
  for (const c of m.changes) { cells[c.cell] = c.value; marks[c.cell] = c.marks || 0; }
  wrong = new Set(m.wrong);
  conflicts = new Set(m.conflicts);
  st.board.filled = m.filled;
  st.board.v = m.v;
  if (m.t === 'ack' || m.seat === st.you) {
    st.board.canUndo = !!m.canUndo;
    st.board.canRedo = !!m.canRedo;
  }
  for (const s of st.seats) if (st.mode === 'coop' || s.seat === m.seat) s.filled = m.filled;
  // The player's own moves close a hint as they are sent; a partner's
  // move on a hinted cell closes it too.
  if (m.seat !== st.you && hint.advice && m.changes.some((c) => hint.view().targets.has(c.cell))) hint.clear();
  drawMine();
  drawSeats();
  redraw();
}

// open says whether the selected cell takes a digit now.
function open() {
  return st && st.phase === 'playing' && st.you >= 0 && !parseCells(st.puzzle)[board.sel];
}

function write(v) {
  const i = board && board.sel;
  if (i == null || i < 0 || !st || st.phase !== 'playing') return;
  if (parseCells(st.puzzle)[i]) { say($('room-msg'), 'That cell is a given.'); return; }
  hint.clear();
  if (pencil.on && v > 0) {
    if (cells[i]) { say($('room-msg'), 'Erase the digit before pencilling.'); return; }
    send({ t: 'mark', cell: i, value: v });
  } else {
    send(v > 0 && clearMarks() && st.mode === 'race' ? { t: 'move', cell: i, value: v, clear: true } : { t: 'move', cell: i, value: v });
  }
}

// sayWhoLeft tells the player, in the message line, about another player
// who left, gave up, dropped out or lost the connection since the last
// state.
function sayWhoLeft(prev, m) {
  for (const s of m.seats) {
    if (s.seat === m.you) continue;
    const p = prev.seats.find((x) => x.seat === s.seat);
    if (!p) continue;
    if (s.out && !p.out) {
      const why = { 'gave up': 'gave up', dropped: 'dropped out: they did not come back in time', left: 'left the game',
        'voted out': 'was voted out of the room' }[s.out] || `is out of the game (${s.out})`;
      tell(`${s.name} ${why}.${m.mode === 'race' ? ' You play on.' : ''}`);
    } else if (!s.out && p.online && !s.online) {
      tell(`${s.name} lost the connection: their seat waits for them.`);
    }
  }
}

// drawStrip draws the other players' progress above the board (race: a
// bar each; co-op: their counts), so a phone shows it without scrolling.
function drawStrip() {
  const el = $('strip');
  if (!el) return;
  const others = st.seats.filter((s) => s.seat !== st.you);
  el.hidden = st.phase !== 'playing' || !others.length;
  if (el.hidden) return;
  const total = st.size * st.size;
  const givens = st.puzzle ? parseCells(st.puzzle).filter((x) => x > 0).length : 0;
  el.replaceChildren();
  for (const s of others) {
    const li = document.createElement('li');
    li.className = 'strip-seat' + (s.out ? ' out' : '') + (s.online ? '' : ' away');
    const name = Object.assign(document.createElement('span'), { className: 'name', textContent: s.name });
    const pct = Math.round(100 * Math.max(0, s.filled - givens) / Math.max(1, total - givens));
    const bar = document.createElement('span');
    bar.className = 'bar-track';
    bar.setAttribute('role', 'progressbar');
    bar.setAttribute('aria-label', `${s.name}'s progress`);
    bar.setAttribute('aria-valuenow', String(s.filled));
    bar.setAttribute('aria-valuemin', '0');
    bar.setAttribute('aria-valuemax', String(total));
    const fill = document.createElement('span');
    fill.className = 'bar-fill';
    fill.style.width = `${st.mode === 'race' ? pct : 0}%`;
    bar.append(fill);
    const info = Object.assign(document.createElement('span'), { className: 'strip-info',
      textContent: s.out ? s.out : s.place ? (st.mode === 'race' ? ['', '1st', '2nd', '3rd', '4th'][s.place] : 'done')
        : st.mode === 'race' ? `${pct}%` : !s.online ? 'away' : `${s.hints} hint${s.hints === 1 ? '' : 's'}` });
    li.append(name, bar, info);
    el.append(li);
  }
}

function drawSeats() {
  if (!st) return;
  drawStrip();
  const ol = $('seats');
  ol.replaceChildren();
  const total = st.size * st.size;
  const givens = st.puzzle ? parseCells(st.puzzle).filter((x) => x > 0).length : 0;
  for (const s of st.seats) {
    const li = document.createElement('li');
    li.className = 'seat' + (s.seat === st.you ? ' you' : '') + (s.online ? '' : ' away') + (s.out ? ' out' : '');
    const top = document.createElement('div');
    top.className = 'seat-top';
    const name = Object.assign(document.createElement('span'), { className: 'name', textContent: s.name });
    top.append(name);
    if (s.seat === st.you) top.append(badge('you', 'you'));
    if (s.place) top.append(badge(s.place === 1 ? (st.mode === 'coop' ? 'solved' : '1st') : ['', '', '2nd', '3rd', '4th'][s.place], 'place p' + s.place));
    if (s.out) top.append(badge(s.out, 'outb'));
    else if (!s.online) top.append(badge(`away ${Math.ceil((s.awayMs || 0) / 1000)}s`, 'awayb'));
    else if ((st.phase === 'lobby' || st.phase === 'countdown')) top.append(badge(s.ready ? 'ready' : 'not ready', s.ready ? 'ready' : 'wait'));
    li.append(top);
    if (st.phase !== 'lobby' && st.phase !== 'countdown') {
      if (st.mode === 'race') {
        const bar = document.createElement('div');
        bar.className = 'bar-track';
        const fill = document.createElement('div');
        fill.className = 'bar-fill';
        fill.style.width = `${Math.round(100 * Math.max(0, s.filled - givens) / Math.max(1, total - givens))}%`;
        bar.append(fill);
        bar.setAttribute('role', 'progressbar');
        bar.setAttribute('aria-label', `${s.name}'s progress`);
        bar.setAttribute('aria-valuenow', String(s.filled));
        bar.setAttribute('aria-valuemax', String(total));
        li.append(bar);
      }
      const info = document.createElement('div');
      info.className = 'seat-info';
      const mistakes = s.mistakes === undefined ? '' : `${s.mistakes} mistake${s.mistakes === 1 ? '' : 's'} · `;
      info.textContent = `${st.mode === 'race' ? `${s.filled}/${total} · ` : ''}${mistakes}${s.hints}/${st.maxHints} hints${s.place ? ' · ' + clock(s.ms) : ''}`;
      li.append(info);
    }
    if (s.seat !== st.you && st.you >= 0 && !s.out && st.phase !== 'over') {
      const k = Object.assign(document.createElement('button'), { type: 'button', className: 'small kick', textContent: s.votes ? `Remove (${s.votes})` : 'Remove' });
      k.title = 'Vote to remove this player from the room';
      k.onclick = () => { if (confirm(`Vote to remove ${s.name} from the room?`)) send({ t: 'kick', seat: s.seat }); };
      li.append(k);
    }
    ol.append(li);
  }
  for (let i = st.seats.length; i < 4 && (st.phase === 'lobby' || st.phase === 'countdown'); i++) {
    ol.append(Object.assign(document.createElement('li'), { className: 'seat free', textContent: 'Free seat' }));
  }
  $('watchers').textContent = st.watchers ? `${st.watchers} watching` : '';
}

function badge(text, cls) {
  return Object.assign(document.createElement('span'), { className: 'badge ' + cls, textContent: text });
}

function drawResults() {
  const me = mySeat();
  const mine = me && st.results.find((r) => r.seat === st.you);
  let title = 'Results';
  if (st.mode === 'coop') title = st.results.some((r) => r.place) ? `Solved together in ${clock(st.elapsedMs)}` : 'Not solved this time';
  else if (mine && mine.place === 1) title = 'You won!';
  else if (mine && mine.place) title = `You finished ${['', 'first', 'second', 'third', 'fourth'][mine.place]}`;
  $('result-title').textContent = title;
  const tb = $('ranking').querySelector('tbody');
  tb.replaceChildren();
  for (const r of st.results) {
    const tr = document.createElement('tr');
    if (r.seat === st.you) tr.className = 'you';
    const time = r.place ? clock(r.ms) + (r.flag ? ` (unranked: ${r.flag})` : '') : (r.out || 'not finished');
    for (const text of [r.place || '–', r.name, time, `${r.filled}/${st.size * st.size}`, r.mistakes, `${r.hints}/${st.maxHints}`]) {
      tr.append(Object.assign(document.createElement('td'), { textContent: String(text) }));
    }
    tb.append(tr);
  }
  $('again').hidden = !me;
  $('lb-link').href = `/leaderboard?size=${st.size}&level=${encodeURIComponent(st.level)}&mode=${st.mode}`;
}

function tick() {
  if (!st) return;
  if (st.phase === 'countdown') {
    const left = Math.max(0, st.startsIn - (performance.now() - clockBase));
    $('countdown').textContent = `Starting in ${Math.ceil(left / 1000)}…`;
  }
  let ms = st.elapsedMs;
  if (st.phase === 'playing') ms += performance.now() - clockBase;
  $('timer').textContent = clock(ms);
  // Away seats count down between states.
  if (st.seats.some((s) => !s.online && !s.out)) {
    for (const s of st.seats) if (!s.online && s.awayMs) s.awayMs = Math.max(0, s.awayMs - 250);
    drawSeats();
  }
}

// ---- controls ----

$('ready').onclick = () => { const me = mySeat(); send({ t: 'ready', on: !(me && me.ready) }); };
$('sit').onclick = () => send({ t: 'sit', name: myName() });
$('leave').onclick = () => { if (confirm('Leave this room?')) send({ t: 'leave' }); };
$('again').onclick = () => send({ t: 'again' });
$('copy-link').onclick = async () => {
  try { await navigator.clipboard.writeText($('link').value); tell('Link copied: send it to your friends.', 'ok'); } catch { $('link').select(); }
};
$('link').onfocus = () => $('link').select();
$('pencil').onclick = () => pencil.toggle();
$('undo').onclick = () => { hint.clear(); send({ t: 'undo' }); };
$('redo').onclick = () => { hint.clear(); send({ t: 'redo' }); };
$('hint').onclick = () => send({ t: 'hint', stage: hint.next() });
$('forfeit').onclick = () => { if (confirm('Give up this game? You keep watching.')) send({ t: 'forfeit' }); };

onSettings(() => { hint.say(); digitFirst.show(); redraw(); });

document.addEventListener('keydown', (e) => {
  if (!st || st.phase !== 'playing' || st.you < 0 || !board) return;
  if (quietKey(e) || undoKeys(e) || e.altKey) return;
  if (arrows[e.key]) { e.preventDefault(); board.move(...arrows[e.key]); return; }
  const v = keyValue(e.key, st.size);
  if (v >= 0) { e.preventDefault(); write(v); return; }
  const k = e.key.toLowerCase();
  if (k === 'p' || k === 'n') pencil.toggle();
  else if (k === 'h') $('hint').click();
  else if (k === 'z' && !$('zoom').hidden) zoom.set(!zoom.on);
  else if (k === 'u' && st.mode === 'race') $('undo').click();
});
