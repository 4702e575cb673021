// play.js: the Play page. /play shows the chooser (size, level, how
// mistakes are shown); /play/ID plays game ID. The server holds the game:
// every action is a request that answers with the new view, so a reload
// or a restart loses nothing.
import { api, $, say, sentence } from './api.js';
import { Board, makePad, keyValue, parseCells, arrows } from './grid.js';
import { Zoom } from './zoom.js';
import { clock, Pencil, StagedHint, conflicts, showLeft, clearMarks, DigitFirst, MessageLine, celebrate, quietKey, showMistakes, undoKeys } from './playkit.js';
import { onSettings } from './settings.js';

const CURRENT = 'sudokuar.currentGame';
const NAME = 'sudokuar.name';
const MISTAKES = 'sudokuar.mistakeMode';
const nameForm = $('submit-form'); // moved into the finish screen when a name is asked

let view = null;       // the server's latest View
let board = null;
const pencil = new Pencil();
const hint = new StagedHint($('msg'), () => redraw());
const digitFirst = new DigitFirst($('pad'));
let zoom = null;
let checked = null;    // cells a check or submit found wrong
let clockBase = 0;     // performance.now() when view.elapsedMs was true
let playedHere = false; // a move was made on this page (the finish may celebrate)

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
  const mode = localStorage.getItem(MISTAKES) || '';
  for (const r of document.querySelectorAll('input[name=mistakes]')) {
    r.checked = r.value === mode;
    r.addEventListener('change', () => localStorage.setItem(MISTAKES, r.value));
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
      const mistakes = (document.querySelector('input[name=mistakes]:checked') || {}).value || '';
      for (const x of document.querySelectorAll('.level')) x.disabled = true;
      say($('chooser-msg'), `Making a ${size}×${size} ${b.dataset.level} puzzle${['expert', 'extreme'].includes(b.dataset.level) ? ' (this can take a few seconds)' : ''}…`);
      const body = { size, level: b.dataset.level };
      if (mistakes === 'shown') body.showMistakes = true;
      else if (mistakes) body.mistakeLimit = Number(mistakes);
      try {
        const v = await api('/api/games', body);
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
  document.body.classList.add('in-game');
  board = new Board($('board'), () => digitFirst.tap(write, redraw, open));
  zoom = new Zoom(board, $('zoom'));
  new MessageLine($('msg-wrap'), $('msg'), $('msg-more'));
  $('name').value = localStorage.getItem(NAME) || '';
  try {
    show(await api('/api/games/' + gid));
  } catch (e) {
    if (e.status === 404 && localStorage.getItem(CURRENT) === gid) localStorage.removeItem(CURRENT);
    $('game').hidden = false;
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
  const wasOn = view && view.status === 'playing';
  view = v;
  clockBase = performance.now();
  if (first) {
    board.setShape(v.box[0], v.box[1]);
    zoom.offer(v.size);
    hint.resume(v.hintStage);
    makePad($('pad'), v.size, (x) => digitFirst.key(x, write, redraw));
    digitFirst.show();
    describe(v);
    // A keyboard player types at once: the first empty cell is selected.
    const start = parseCells(v.puzzle || '').findIndex((x) => x === 0);
    if (v.status === 'playing' && !v.watching && start >= 0) board.select(start);
    // The game appears whole, once it is known: nothing on it moves.
    $('game').hidden = false;
  }
  // A game opened paused gets its selection once resumed.
  if (!first && !v.paused && board.sel < 0 && v.status === 'playing' && !v.watching) {
    const start = parseCells(v.cells || '').findIndex((x) => x === 0);
    if (start >= 0) board.select(start);
  }
  $('progress').textContent = `${v.filled}/${v.total}`;
  $('hints').textContent = `${v.hints}/${v.maxHints}`;
  const over = v.status !== 'playing';
  const paused = v.paused && !over;
  $('paused').hidden = !paused;
  // A paused board is covered, for the eye and for screen readers alike;
  // its pad and tools wait, pressed by nobody.
  $('board').classList.toggle('covered', paused);
  if (paused) $('board').setAttribute('aria-hidden', 'true'); else $('board').removeAttribute('aria-hidden');
  $('board').tabIndex = paused ? -1 : 0;
  $('pause').textContent = v.paused ? 'Resume' : 'Pause';
  // What may be pressed now, worked out afresh from the view each time.
  const off = over || paused || !!v.watching;
  for (const b of document.querySelectorAll('.tools button, #pad button')) b.disabled = off;
  $('undo').disabled = off || !v.canUndo;
  $('redo').disabled = off || !v.canRedo;
  $('pause').disabled = over || !!v.watching;
  showFairPlay(v);
  nameForm.hidden = !v.needName;
  $('pause').hidden = over;
  // Once over, the pad, the tools and the message line go: the result
  // takes their place, on the first screen.
  $('pad').hidden = $('tools').hidden = $('msg-wrap').hidden = over;
  hint.hintsLeft(v.maxHints - v.hints);
  if (over) {
    board.select(-1);
    hint.clear();
    showDone(v);
    if (wasOn && v.status === 'solved' && playedHere) celebrate(board);
  }
  tick();
  redraw();
}

// describe writes what game this is above the board: its size, level or
// origin, and its rating, said in words.
function describe(v) {
  const what = $('what');
  what.replaceChildren();
  const level = v.own ? 'Your puzzle' : v.level ? v.level.charAt(0).toUpperCase() + v.level.slice(1) : '';
  what.append(`${v.daily ? 'Daily · ' : ''}${v.size}×${v.size} · ${level}`);
  if (v.rating) {
    const r = Object.assign(document.createElement('abbr'), {
      textContent: ` · rating ${v.rating.toFixed(1)}`,
      title: 'How hard the hardest step is, on the Sudoku Explainer scale: from 1.0 (a digit with one place left) to 11 and more (long chains)',
    });
    what.append(r);
  }
  // The daily puzzle offers nothing that tells right from wrong today.
  for (const x of ['errors', 'check']) $(x).hidden = !!v.daily;
}

function redraw() {
  if (!view || !view.cells) return; // a paused game's board is hidden
  const values = parseCells(view.cells);
  const given = parseCells(view.puzzle).map((x) => x > 0);
  const solvedCells = new Set();
  if (view.solution && view.status !== 'solved') {
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
    hint: h.cells, targets: h.targets, elim: h.elim, solved: solvedCells, focus: digitFirst.chosen,
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

// open says whether the selected cell takes a digit now.
function open() {
  return view && view.status === 'playing' && !view.paused && !view.watching && !parseCells(view.puzzle)[board.sel];
}

async function write(v) {
  const i = board.sel;
  if (i < 0 || !view || view.status !== 'playing' || view.paused) return;
  if (parseCells(view.puzzle)[i]) { say($('msg'), 'That cell is a given.'); return; }
  checked = null;
  hint.clear();
  playedHere = true;
  if (pencil.on && v > 0) {
    if (parseCells(view.cells)[i]) { say($('msg'), 'Erase the digit before pencilling.'); return; }
    await act('mark', { cell: i, value: v });
  } else {
    const r = await act('move', moveBody(i, v));
    if (r && r.status === 'playing') say($('msg'), '');
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
// mistakes while they are shown (or after a check), or once the game is
// over; otherwise whether the game is ranked.
function showFairPlay(v) {
  showMistakes(v, flagText[flagOf(v)] || '');
  $('errors').setAttribute('aria-pressed', String(v.showErrors));
  $('errors').title = v.mistakeLimit ? `Mistakes are shown: this game ends at ${v.mistakeLimit}` : v.showErrors ? 'Stop colouring wrong digits (E)' : 'Colour wrong digits as they are typed (E); the game is then unranked';
  if (v.watching) {
    for (const b of document.querySelectorAll('.tools button, #pad button, #pause')) b.disabled = true;
    say($('msg'), 'You are watching this game: it belongs to another browser. Start your own from Play.', '');
  }
}

// flagOf is why a game on is unranked (its finish flag to come).
function flagOf(v) {
  if (v.own) return 'own';
  if (v.assisted) return 'assists';
  return v.replay ? 'replay' : '';
}

// assist asks before the first assist of a ranked game.
function assist(what) {
  if (view.assisted || view.own || view.replay) return true;
  return confirm(`${what} makes this game unranked: it stays in your history but not on the leaderboard. Go on?`);
}

const flagText = {
  own: 'puzzles you bring are not ranked',
  assists: 'an assist was used (Mistakes, Check or Candidates)',
  replay: 'only your first game of the daily puzzle is ranked',
  'too fast': 'it was finished faster than the puzzle can plausibly be solved',
};

function showDone(v) {
  const d = $('done');
  d.hidden = false;
  d.classList.toggle('revealed', v.status === 'revealed');
  d.classList.toggle('lost', v.status === 'lost');
  d.replaceChildren();
  const p = (text, cls) => { const e = document.createElement('p'); e.textContent = text; if (cls) e.className = cls; d.append(e); return e; };
  const m = v.mistakes || 0;
  const nm = `${m} mistake${m === 1 ? '' : 's'}`;
  if (v.status === 'solved') {
    p(`Solved in ${clock(v.elapsedMs)}`, 'big-result');
    p(`${v.hints} hint${v.hints === 1 ? '' : 's'}, ${nm}.`).className = 'ok';
    const who = v.result ? v.result.name : '';
    if (v.needName) {
      p('Type a name to save your result.');
      $('name').focus({ preventScroll: true });
    } else if (v.flag) {
      p(`Not ranked: ${flagText[v.flag] || v.flag}.${who ? ` Saved to your history as ${who}.` : ''}`);
    } else if (v.rank) {
      p(`#${v.rank} on the ${v.daily ? `daily puzzle's (${v.daily})` : `${v.size}×${v.size} ${v.level}`} leaderboard${who ? ` as ${who}` : ''}.`);
    } else if (who) {
      p(`Saved to the leaderboard as ${who}.`);
    }
  } else if (v.status === 'lost') {
    p(`Game over: ${nm}, the limit of this game.`, 'big-result');
    p(v.solution ? 'The solution is shown in green.' : 'The daily puzzle\'s solution shows tomorrow, once the day is over.');
  } else {
    p(v.solution ? 'The solution is shown in green. This game is not scored.' : 'You gave up today\'s puzzle: its solution shows tomorrow, once the day is over.');
  }
  const links = document.createElement('p');
  links.className = 'links';
  const again = Object.assign(document.createElement('a'), { className: 'button primary', href: '/play', textContent: 'New game' });
  const lb = Object.assign(document.createElement('a'), { className: 'button', textContent: 'Leaderboard',
    href: v.daily ? `/leaderboard?daily=${v.daily}` : `/leaderboard?size=${v.size}&level=${encodeURIComponent(v.level || 'easy')}` });
  const st = Object.assign(document.createElement('a'), { className: 'button', href: '/stats', textContent: 'Statistics' });
  links.append(again, lb, st);
  if (v.needName) d.append(nameForm); // the name goes with the result
  else d.after(nameForm);
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
    if (e.target === el || quietKey(e)) return;
    onKey(e);
  });
  $('pencil').onclick = () => pencil.toggle();
  $('undo').onclick = () => { checked = null; hint.clear(); act('undo'); };
  $('redo').onclick = () => { checked = null; hint.clear(); act('redo'); };
  $('pause').onclick = () => act(view.paused ? 'resume' : 'pause');
  $('resume-btn').onclick = () => act('resume');
  $('errors').onclick = () => {
    if (view.mistakeLimit) { say($('msg'), `This game shows its mistakes to the end: it is lost at ${view.mistakeLimit}.`); return; }
    if (view.showErrors || assist('Showing mistakes')) act('errors', { on: !view.showErrors });
  };
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
  $('candidates').onclick = async () => {
    if (!assist('Filling in the candidates')) return;
    hint.clear();
    const v = await act('candidates');
    if (v) say($('msg'), 'Every empty cell now holds, pencilled, the digits it can still take.');
  };
  $('solution').onclick = async () => {
    const q = view.daily ? 'Give up today\'s puzzle? The game ends; its solution shows tomorrow.' : 'Show the solution? The game ends and is not scored.';
    if (!confirm(q)) return;
    await act('solution');
  };
  nameForm.onsubmit = async (e) => {
    e.preventDefault();
    const name = $('name').value.trim();
    if (!name) { say($('msg'), 'Type a name for the leaderboard first.', 'error'); $('name').focus(); return; }
    localStorage.setItem(NAME, name);
    const v = await act('name', { name });
    if (v) say($('msg'), '');
  };
  // Settings apply at once: the hint's words, digit first.
  onSettings(() => { hint.say(); digitFirst.show(); redraw(); });
  // Leaving the page pauses the clock; coming back shows the Resume cover.
  addEventListener('pagehide', leave);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') leave(); else refresh(); });
}

async function refresh() {
  try { show(await api('/api/games/' + view.id)); } catch (e) { /* keep the view */ }
}

function onKey(e) {
  if (!view || view.status !== 'playing') return;
  if (undoKeys(e) || e.altKey) return;
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
  if (k === 'c' && !$('candidates').hidden) { $('candidates').click(); return; }
  if (k === 'z' && !$('zoom').hidden) { zoom.set(!zoom.on); return; }
  if (k === 'u') { $('undo').click(); return; }
  if (k === 'e' && !$('errors').hidden) { $('errors').click(); }
}
