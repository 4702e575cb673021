// play.js: the Play page. /play shows the chooser (size, level); /play/ID
// plays game ID. The server holds the game: every action is a request
// that answers with the new view, so a reload or a restart loses nothing.
import { api, $, say, sentence } from './api.js';
import { Board, makePad, keyValue, parseCells, arrows } from './grid.js';
import { Zoom } from './zoom.js';
import { clock, Pencil, StagedHint, conflicts, showLeft, clearMarks, wireClearMarks } from './playkit.js';

const CURRENT = 'sudokuar.currentGame';
const NAME = 'sudokuar.name';

let view = null;       // the server's latest View
let board = null;
const pencil = new Pencil();
const hint = new StagedHint($('msg'), () => redraw());
let zoom = null;
let checked = null;    // cells a check or submit found wrong
let clockBase = 0;     // performance.now() when view.elapsedMs was true

const id = location.pathname.split('/')[2] || '';
if (id) startGame(id); else showChooser();

// ---- chooser ----

function showChooser() {
  $('chooser').hidden = false;
  const cur = localStorage.getItem(CURRENT);
  if (cur) {
    $('resume').hidden = false;
    $('resume-link').href = '/play/' + cur;
  }
  // Small grids cannot be hard: offer the levels the size reaches.
  const order = [...document.querySelectorAll('.level')].map((b) => b.dataset.level);
  const limit = () => {
    const max = document.querySelector('input[name=size]:checked').dataset.max;
    for (const b of document.querySelectorAll('.level')) b.disabled = order.indexOf(b.dataset.level) > order.indexOf(max);
  };
  for (const r of document.querySelectorAll('input[name=size]')) r.addEventListener('change', limit);
  limit();
  for (const b of document.querySelectorAll('.level')) {
    b.addEventListener('click', async () => {
      const size = document.querySelector('input[name=size]:checked').value;
      for (const x of document.querySelectorAll('.level')) x.disabled = true;
      say($('chooser-msg'), `Making a ${size}×${size} ${b.dataset.level} puzzle${['expert', 'extreme'].includes(b.dataset.level) ? ' (this can take a few seconds)' : ''}…`);
      try {
        const v = await api('/api/games', { size, level: b.dataset.level });
        localStorage.setItem(CURRENT, v.id);
        location.assign('/play/' + v.id);
      } catch (e) {
        say($('chooser-msg'), e.message, 'error');
        limit();
      }
    });
  }
}

// ---- the game ----

async function startGame(gid) {
  $('game').hidden = false;
  document.body.classList.add('in-game');
  wireClearMarks();
  board = new Board($('board'), () => redraw());
  zoom = new Zoom(board, $('zoom'));
  $('name').value = localStorage.getItem(NAME) || '';
  try {
    show(await api('/api/games/' + gid));
  } catch (e) {
    if (e.status === 404 && localStorage.getItem(CURRENT) === gid) localStorage.removeItem(CURRENT);
    $('game').replaceChildren(Object.assign(document.createElement('p'), { className: 'message error', textContent: sentence(e.message) }));
    const a = Object.assign(document.createElement('a'), { href: '/play', className: 'button primary', textContent: 'New game' });
    $('game').append(a);
    return;
  }
  if (view.status === 'playing' && !view.watching) localStorage.setItem(CURRENT, gid);
  wire();
  setInterval(tick, 250);
}

// act runs one action on the server and shows its answer. Actions queue
// up in order, so fast typing never loses a digit.
let queue = Promise.resolve();
function act(action, body) {
  const run = async () => {
    try {
      const v = await api(`/api/games/${view.id}/${action}`, body || {});
      show(v);
      return v;
    } catch (e) {
      say($('msg'), sentence(e.message), 'error');
      return null;
    }
  };
  const p = queue.then(run);
  queue = p.catch(() => null);
  return p;
}

function show(v) {
  const first = !view;
  view = v;
  clockBase = performance.now();
  if (first) {
    board.setShape(v.box[0], v.box[1]);
    zoom.offer(v.size);
    hint.resume(v.hintStage);
    $('board').append($('paused')); // the cover sits over the cells
    makePad($('pad'), v.size, (x) => write(x));
    $('what').textContent = `${v.size}×${v.size} · ${v.own ? 'your puzzle' : v.level}${v.rating ? ' · ' + v.rating.toFixed(1) : ''}`;
  }
  $('progress').textContent = `${v.filled}/${v.total}`;
  $('hints').textContent = `${v.hints}/${v.maxHints}`;
  $('undo').disabled = !v.canUndo;
  $('redo').disabled = !v.canRedo;
  const over = v.status !== 'playing';
  $('paused').hidden = !v.paused || over;
  $('board').classList.toggle('covered', v.paused && !over);
  $('pause').textContent = v.paused ? 'Resume' : 'Pause';
  for (const b of document.querySelectorAll('.tools button, #pad button, #pause')) b.disabled = b.disabled || over;
  showFairPlay(v);
  $('submit-form').hidden = !v.needName;
  $('pause').hidden = over;
  if (over) { board.select(-1); hint.clear(); showDone(v); }
  tick();
  redraw();
}

function redraw() {
  if (!view || !view.cells) return; // a paused game's board is hidden
  const values = parseCells(view.cells);
  const given = parseCells(view.puzzle).map((x) => x > 0);
  const solvedCells = new Set();
  if (view.solution && view.status === 'revealed') {
    const sol = parseCells(view.solution);
    sol.forEach((x, i) => { if (!given[i] && values[i] !== x) { values[i] = x; solvedCells.add(i); } });
  }
  const wrong = new Set(view.wrong);
  if (checked) for (const i of checked) wrong.add(i);
  // Rule breaks always show: they are rules, not answers.
  const clash = view.status === 'playing' ? conflicts(values, view.box[0], view.box[1]) : new Set();
  for (const i of view.conflicts || []) clash.add(i);
  const h = hint.view();
  board.draw({
    values, given, marks: view.marks, wrong, conflicts: clash,
    hint: h.cells, targets: h.targets, elim: h.elim, solved: solvedCells,
  });
  showLeft($('pad'), values, view.size);
  zoom.update();
  if (view.status === 'playing' && !view.watching) $('hint').disabled = view.hints >= view.maxHints && hint.next() === 1;
}

function tick() {
  if (!view) return;
  if (view.status !== 'playing') { $('timer').textContent = clock(view.elapsedMs); return; }
  let ms = view.elapsedMs;
  if (!view.paused && view.status === 'playing') ms += performance.now() - clockBase;
  $('timer').textContent = clock(ms);
}

async function write(v) {
  const i = board.sel;
  if (i < 0 || !view || view.status !== 'playing' || view.paused) return;
  if (parseCells(view.puzzle)[i]) { say($('msg'), 'That cell is a given.'); return; }
  checked = null;
  hint.clear();
  if (pencil.on && v > 0) {
    if (parseCells(view.cells)[i]) { say($('msg'), 'Erase the digit before pencilling.'); return; }
    await act('mark', { cell: i, value: v });
  } else {
    const r = await act('move', moveBody(i, v));
    if (r) say($('msg'), '');
  }
  if (view.filled === view.total && view.status === 'playing') {
    say($('msg'), 'Every cell is filled, but the grid is not the solution yet.', 'error');
  }
}

// ---- fair play: assists, the finish screen, the remembered name ----

// moveBody is a move's request; it carries the remembered name, so the
// move that finishes the game records it at once, and asks that a placed
// digit leave its peers' pencil marks when the player wants that.
function moveBody(cell, value) {
  const name = localStorage.getItem(NAME);
  const body = name ? { cell, value, name } : { cell, value };
  if (value > 0 && clearMarks()) body.clear = true;
  return body;
}

// showFairPlay shows the counters and assists the server allows: the
// mistakes only once an assist is used or the game is over.
function showFairPlay(v) {
  $('mistakes').textContent = v.mistakes === undefined ? '–' : v.mistakes;
  $('mistakes').title = v.mistakes === undefined ? 'Shown at the end (or with Show mistakes, which makes the game unranked)' : '';
  $('errors').setAttribute('aria-pressed', String(v.showErrors));
  $('errors').textContent = v.showErrors ? 'Mistakes shown' : 'Show mistakes';
  if (v.watching) {
    for (const b of document.querySelectorAll('.tools button, #pad button, #pause')) b.disabled = true;
    say($('msg'), 'You are watching this game: it belongs to another browser. Start your own from Play.', '');
  }
}

// assist asks before the first assist of a ranked game.
function assist(what) {
  if (view.assisted || view.own) return true;
  return confirm(`${what} makes this game unranked: it stays in your history but not on the leaderboard. Go on?`);
}

const flagText = {
  own: 'puzzles you bring are not ranked',
  assists: 'mistakes were shown (Show mistakes or Check)',
  'too fast': 'it was finished faster than the puzzle can plausibly be solved',
};

function showDone(v) {
  const d = $('done');
  d.hidden = false;
  d.classList.toggle('revealed', v.status === 'revealed');
  d.replaceChildren();
  const p = (text) => { const e = document.createElement('p'); e.textContent = text; d.append(e); return e; };
  if (v.status === 'solved') {
    const m = v.mistakes || 0;
    p(`Solved in ${clock(v.elapsedMs)} with ${v.hints} hint${v.hints === 1 ? '' : 's'} and ${m} mistake${m === 1 ? '' : 's'}.`).className = 'ok';
    const who = v.result ? v.result.name : '';
    if (v.needName) {
      p('Type a name to save your result.');
      $('name').focus();
    } else if (v.flag) {
      p(`Not ranked: ${flagText[v.flag] || v.flag}.${who ? ` Saved to your history as ${who}.` : ''}`);
    } else if (v.rank) {
      p(`#${v.rank} on the ${v.size}×${v.size} ${v.level} leaderboard${who ? ` as ${who}` : ''}.`);
    } else if (who) {
      p(`Saved to the leaderboard as ${who}.`);
    }
  } else {
    p('The solution is shown in green. This game is not scored.');
  }
  const links = document.createElement('p');
  const again = Object.assign(document.createElement('a'), { className: 'button primary', href: '/play', textContent: 'New game' });
  const lb = Object.assign(document.createElement('a'), { className: 'button', textContent: 'Leaderboard',
    href: `/leaderboard?size=${v.size}&level=${encodeURIComponent(v.level || 'easy')}` });
  links.append(again, ' ', lb);
  d.append(links);
  if (localStorage.getItem(CURRENT) === v.id) localStorage.removeItem(CURRENT);
}

// leave pauses the clock when the page goes away: a keepalive JSON
// request (actions accept application/json only).
function leave() {
  if (!view || view.status !== 'playing' || view.paused || view.watching) return;
  fetch(`/api/games/${view.id}/pause`, { method: 'POST', keepalive: true, headers: { 'Content-Type': 'application/json' }, body: '{}' })
    .catch(() => {});
}

function wire() {
  const el = $('board');
  el.focus({ preventScroll: true });
  el.addEventListener('keydown', onKey);
  document.addEventListener('keydown', (e) => {
    if (e.target === el || e.target.closest('input, textarea, select')) return;
    onKey(e);
  });
  $('pencil').onclick = () => pencil.toggle();
  $('undo').onclick = () => { checked = null; hint.clear(); act('undo'); };
  $('redo').onclick = () => { checked = null; hint.clear(); act('redo'); };
  $('pause').onclick = () => act(view.paused ? 'resume' : 'pause');
  $('resume-btn').onclick = () => act('resume');
  $('errors').onclick = () => { if (view.showErrors || assist('Showing mistakes')) act('errors', { on: !view.showErrors }); };
  $('hint').onclick = async () => {
    const stage = hint.next();
    const v = await act('hint', { stage });
    if (v && v.hint) hint.show(v.hint, stage, v.box[0], v.box[1]);
  };
  $('check').onclick = async () => {
    if (!assist('Checking')) return;
    const v = await act('check');
    if (!v) return;
    checked = v.checked || [];
    redraw();
    say($('msg'), checked.length ? `${checked.length} digit${checked.length === 1 ? ' is' : 's are'} wrong (marked red).` : 'No wrong digits so far.', checked.length ? 'error' : 'ok');
  };
  $('solution').onclick = async () => {
    if (!confirm('Show the solution? The game ends and is not scored.')) return;
    await act('solution');
  };
  $('submit-form').onsubmit = async (e) => {
    e.preventDefault();
    const name = $('name').value.trim();
    if (!name) { say($('msg'), 'Type a name for the leaderboard first.', 'error'); $('name').focus(); return; }
    localStorage.setItem(NAME, name);
    const v = await act('name', { name });
    if (v) say($('msg'), '');
  };
  // Leaving the page pauses the clock; coming back shows the Resume cover.
  addEventListener('pagehide', leave);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') leave(); else refresh(); });
}

async function refresh() {
  try { show(await api('/api/games/' + view.id)); } catch (e) { /* keep the view */ }
}

function onKey(e) {
  if (!view || view.status !== 'playing') return;
  if (e.ctrlKey || e.metaKey) {
    const k = e.key.toLowerCase();
    if (k === 'z' && !e.shiftKey) { e.preventDefault(); $('undo').click(); }
    else if (k === 'y' || (k === 'z' && e.shiftKey)) { e.preventDefault(); $('redo').click(); }
    return;
  }
  if (e.altKey) return;
  if (e.key === ' ') { e.preventDefault(); $('pause').click(); return; }
  if (view.paused) return;
  if (arrows[e.key]) { e.preventDefault(); board.move(...arrows[e.key]); return; }
  const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const v = keyValue(e.key, view.size);
  if (v >= 0) {
    // On 16×16 the letters A-G are values; P, H and U stay commands.
    e.preventDefault();
    write(v);
    return;
  }
  if (k === 'p' || k === 'n') { pencil.toggle(); return; }
  if (k === 'h') { $('hint').click(); return; }
  if (k === 'z' && !$('zoom').hidden) { zoom.set(!zoom.on); return; }
  if (k === 'u') { $('undo').click(); return; }
  if (k === 'e') { $('errors').click(); }
}

