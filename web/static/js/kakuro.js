// kakuro.js: the Kakuro page. /kakuro shows the chooser (play area,
// level) and the fastest times; /kakuro/ID plays game ID. The server
// holds the game and its solution: every digit or pencil mark typed is a
// move (one cell per request, in order), undo, redo, candidates, check,
// hint, name and solution are requests answering with the new view; the
// last right digit ends the game. The board is played by the same rules
// as Sudoku's (package game on the server), so pencil marks, undo and
// redo work the same way.
import { api, $, say, sentence } from './api.js';
import { clock, Pencil, DigitFirst, MessageLine, clearMarks, showMistakes, quietKey, undoKeys } from './playkit.js';
import { onSettings } from './settings.js';

const CURRENT = 'sudokuar.kakuroGame';
const NAME = 'sudokuar.name';

let view = null;      // the server's latest KakuroView
let entries = [];     // the player's digits by white-cell number
let marks = [];       // their pencil marks (bit d = d)
let whiteAt = [];     // board index -> white-cell number, -1 for blocks
let cellEls = [];     // white-cell number -> element
let runs = [];        // {sum, cells: [white-cell numbers]}
let sel = 0;          // selected white cell
let wrong = new Set(); // cells the server found wrong (check, hint)
let hinted = -1;
let clockBase = 0;
let pending = 0;      // actions sent, not yet answered
let queue = Promise.resolve(); // they go to the server one at a time, in order
const pencil = new Pencil();
const digitFirst = new DigitFirst($('pad'));

const id = location.pathname.split('/')[2] || '';
if (id) startGame(id); else showChooser();

// ---- chooser ----

function chosenSize() { return document.querySelector('input[name=size]:checked').value; }

function showChooser() {
  const cur = localStorage.getItem(CURRENT);
  if (cur) {
    $('resume').hidden = false;
    $('resume-link').href = '/kakuro/' + cur;
  }
  const levels = [...document.querySelectorAll('.level')];
  // best lists the fastest games of the chosen size, by level.
  const best = async () => {
    const body = $('best').querySelector('tbody');
    const size = chosenSize();
    const rows = [];
    for (const b of levels) {
      try {
        const list = await api(`/api/kakuro/leaderboard?size=${size}&level=${b.dataset.level}&limit=5`);
        list.forEach((r, i) => rows.push([b.dataset.level, i + 1, r.name, r.time, r.hints]));
      } catch (e) { /* that level's rows stay out */ }
    }
    if (size !== chosenSize()) return; // the choice changed while asking
    body.replaceChildren();
    for (const row of rows) {
      const tr = document.createElement('tr');
      row.forEach((t, k) => {
        const td = document.createElement('td');
        td.textContent = String(t);
        if (k === 2) td.className = 'name';
        if (k === 4) td.className = 'opt';
        tr.append(td);
      });
      body.append(tr);
    }
    if (!rows.length) {
      const tr = document.createElement('tr');
      const td = document.createElement('td');
      td.colSpan = 5;
      td.textContent = `No ${size}×${size} game finished yet.`;
      tr.append(td);
      body.append(tr);
    }
  };
  for (const r of document.querySelectorAll('input[name=size]')) r.addEventListener('change', best);
  best();
  for (const b of levels) {
    b.addEventListener('click', async () => {
      const size = chosenSize();
      for (const x of levels) x.disabled = true;
      say($('chooser-msg'), `Making a ${size}×${size} ${b.dataset.level} Kakuro…`);
      try {
        const v = await api('/api/kakuro/games', { size, level: b.dataset.level });
        localStorage.setItem(CURRENT, v.id);
        location.assign('/kakuro/' + v.id);
      } catch (e) {
        say($('chooser-msg'), e.message, 'error');
        for (const x of levels) x.disabled = false;
      }
    });
  }
}

// ---- the game ----

async function startGame(gid) {
  $('chooser').hidden = true;
  document.body.classList.add('in-game');
  new MessageLine($('msg-wrap'), $('msg'), $('msg-more'));
  $('name').value = localStorage.getItem(NAME) || '';
  try {
    setView(await api('/api/kakuro/games/' + gid));
  } catch (e) {
    $('game').hidden = false;
    say($('msg'), e.message, 'error');
    if (e.status === 404) localStorage.removeItem(CURRENT);
    return;
  }
  build();
  bind();
  const first = entries.indexOf(0);
  if (first >= 0) sel = first;
  redraw();
  $('game').hidden = false; // whole, once known: nothing on it moves
  $('kboard').focus({ preventScroll: true });
  setInterval(tick, 250);
}

function setView(v) {
  view = v;
  if (pending === 0 || v.status !== 'playing') {
    entries = v.solution && v.status !== 'playing' ? v.solution.slice() : v.entries.slice();
    marks = (v.marks || []).slice();
  }
  clockBase = performance.now();
  if (v.status !== 'playing' && localStorage.getItem(CURRENT) === v.id) localStorage.removeItem(CURRENT);
}

// build draws the board once: blocks, clue cells with their two sums, and
// white cells; and lists the runs for error colouring.
function build() {
  const el = $('kboard');
  el.style.setProperty('--rows', view.rows);
  el.style.setProperty('--cols', view.cols);
  el.replaceChildren();
  whiteAt = [];
  cellEls = [];
  let n = 0;
  let row = null;
  view.cells.forEach((c, i) => {
    if (i % view.cols === 0) {
      // ARIA rows, laid out by the board's grid (display: contents).
      row = document.createElement('div');
      row.className = 'row';
      row.setAttribute('role', 'row');
      el.append(row);
    }
    const d = document.createElement('div');
    if (c.w) {
      d.className = 'kk-cell white';
      d.setAttribute('role', 'gridcell');
      const k = n++;
      d.dataset.cell = k;
      d.id = `kk-c${k}`;
      d.addEventListener('pointerdown', (e) => { e.preventDefault(); sel = k; el.focus({ preventScroll: true }); digitFirst.tap(write, redraw, () => true); });
      cellEls.push(d);
      whiteAt.push(k);
    } else {
      d.className = 'kk-cell block';
      d.setAttribute('role', 'gridcell');
      whiteAt.push(-1);
      if (c.d || c.a) {
        d.classList.add('clue');
        // The sums are drawn by CSS from data-a and data-d; the cell's
        // label says them in words.
        if (c.a) d.dataset.a = c.a;
        if (c.d) d.dataset.d = c.d;
        d.setAttribute('aria-label', [c.a ? `across ${c.a}` : '', c.d ? `down ${c.d}` : ''].filter(Boolean).join(', '));
      } else {
        d.setAttribute('aria-label', 'block');
      }
    }
    row.append(d);
  });
  runs = [];
  view.cells.forEach((c, i) => {
    if (c.w) return;
    const r = Math.floor(i / view.cols), col = i % view.cols;
    for (const [sum, dr, dc] of [[c.a, 0, 1], [c.d, 1, 0]]) {
      const cells = [];
      for (let rr = r + dr, cc = col + dc; rr < view.rows && cc < view.cols && view.cells[rr * view.cols + cc].w; rr += dr, cc += dc) {
        cells.push(whiteAt[rr * view.cols + cc]);
      }
      if (cells.length && sum) runs.push({ sum, cells });
    }
  });
  const pad = $('pad');
  pad.replaceChildren();
  pad.style.setProperty('--cols', 5);
  for (let v = 1; v <= 10; v++) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.v = v % 10;
    b.textContent = v === 10 ? '⌫' : v;
    b.setAttribute('aria-label', v === 10 ? 'Erase' : `write ${v}`);
    if (v === 10) b.className = 'erase';
    b.addEventListener('click', () => digitFirst.key(v % 10, write, redraw));
    pad.append(b);
  }
  digitFirst.show();
}

// broken returns the cells of runs that break a rule as typed: a digit
// twice, a sum passed, or a full run with another sum.
function broken() {
  const out = new Set();
  for (const run of runs) {
    let sum = 0, full = true;
    const seen = new Map();
    for (const c of run.cells) {
      const d = entries[c];
      if (!d) { full = false; continue; }
      sum += d;
      if (seen.has(d)) { out.add(c); out.add(seen.get(d)); }
      seen.set(d, c);
    }
    if (sum > run.sum || (full && sum !== run.sum)) for (const c of run.cells) if (entries[c]) out.add(c);
  }
  return out;
}

function redraw() {
  const playing = view.status === 'playing';
  // A run that breaks a rule is always red: that is the rules, not the
  // solution; wrong digits show only when Check found them.
  const bad = playing ? broken() : new Set();
  const focus = digitFirst.chosen;
  cellEls.forEach((d, k) => {
    const m = playing && !entries[k] ? marks[k] || 0 : 0;
    const key = entries[k] ? 'v' + entries[k] : 'm' + m + (focus > 0 && (m & (1 << focus)) ? 'f' + focus : '');
    if (d.dataset.k !== key) {
      d.dataset.k = key;
      if (entries[k]) {
        d.textContent = String(entries[k]);
      } else if (m) {
        const box = document.createElement('div');
        box.className = 'marks';
        box.setAttribute('aria-hidden', 'true');
        for (let x = 1; x <= 9; x++) {
          const s = document.createElement('span');
          if (m & (1 << x)) s.textContent = x;
          if (x === focus && (m & (1 << x))) s.className = 'chosen';
          box.append(s);
        }
        d.replaceChildren(box);
      } else {
        d.textContent = '';
      }
    }
    const list = [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((x) => m & (1 << x)).join(' ');
    d.setAttribute('aria-label', entries[k] ? `${entries[k]}` : list ? `empty, marks ${list}` : 'empty');
    d.classList.toggle('sel', playing && k === sel);
    d.setAttribute('aria-selected', String(playing && k === sel));
    d.classList.toggle('same', playing && focus > 0 && entries[k] === focus);
    d.classList.toggle('conflict', bad.has(k));
    d.classList.toggle('wrong', playing && wrong.has(k) && entries[k] !== 0);
    d.classList.toggle('hint-target', k === hinted);
    d.classList.toggle('solved', view.status === 'solved');
    d.classList.toggle('revealed', view.status === 'revealed');
  });
  if (cellEls[sel]) $('kboard').setAttribute('aria-activedescendant', cellEls[sel].id);
  const filled = entries.filter((d) => d).length;
  $('progress').textContent = `${filled}/${entries.length}`;
  $('hints').textContent = `${view.hints}/${view.maxHints}`;
  showMistakes(view, 'an assist was used (Check or Candidates)');
  $('what').textContent = `Kakuro · ${view.size.replace('x', '×')} · ${view.level.charAt(0).toUpperCase()}${view.level.slice(1)}`;
  for (const b of document.querySelectorAll('.tools button, #pad button')) b.disabled = !playing || !!view.watching;
  $('undo').disabled = $('undo').disabled || !view.canUndo;
  $('redo').disabled = $('redo').disabled || !view.canRedo;
  const out = view.hints >= view.maxHints;
  $('hint').querySelector('.hint-word').textContent = out ? 'No hints left' : 'Hint';
  $('hint').disabled = $('hint').disabled || out;
  $('pad').hidden = $('tools').hidden = !playing; // the result takes their place
  $('submit-form').hidden = !view.needName;
  tick();
  showDone();
}

function tick() {
  if (!view) return;
  if (view.watching) say($('msg'), 'You are watching this game: it belongs to another browser.');
  let ms = view.elapsedMs;
  if (view.status === 'playing') ms += performance.now() - clockBase;
  $('timer').textContent = clock(ms);
}

function showDone() {
  const box = $('done');
  if (view.status === 'playing') { box.hidden = true; return; }
  box.hidden = false;
  box.classList.toggle('revealed', view.status === 'revealed');
  box.replaceChildren();
  const p = (text, cls) => { const e = document.createElement('p'); e.textContent = text; if (cls) e.className = cls; box.append(e); };
  if (view.status === 'solved') {
    const m = view.mistakes || 0;
    p(`Solved in ${clock(view.elapsedMs)}`, 'big-result');
    p(`Solved in ${clock(view.elapsedMs)} with ${view.hints} hint${view.hints === 1 ? '' : 's'} and ${m} mistake${m === 1 ? '' : 's'}.`);
    kakuroFinishNote(view, p);
  } else {
    p('The solution is shown; this game is not ranked.');
  }
  const links = document.createElement('p');
  links.className = 'links';
  links.append(Object.assign(document.createElement('a'), { className: 'button primary', href: '/kakuro', textContent: 'New game' }),
    Object.assign(document.createElement('a'), { className: 'button', href: '/stats', textContent: 'Statistics' }));
  box.append(links);
}

function write(v) {
  if (view.status !== 'playing' || view.watching || !cellEls.length) return;
  const cell = sel;
  wrong.delete(cell);
  hinted = -1;
  if (pencil.on && v > 0) {
    if (entries[cell]) { say($('msg'), 'Erase the digit before pencilling.'); return; }
    marks[cell] = (marks[cell] || 0) ^ (1 << v);
    redraw();
    run('mark', { cell, value: v });
    return;
  }
  entries[cell] = v;
  say($('msg'), '');
  redraw();
  const name = localStorage.getItem(NAME);
  const body = name ? { cell, value: v, name } : { cell, value: v };
  if (v > 0 && clearMarks()) body.clear = true;
  run('move', body);
}

// act sends one action after the ones before it and shows the answer;
// digits typed meanwhile stay on the page until their own answer.
function act(action, extra) {
  pending++;
  const p = queue.then(async () => {
    try {
      const v = await api(`/api/kakuro/games/${view.id}/${action}`, extra || {});
      pending--;
      setView(v);
      return v;
    } catch (e) {
      pending--;
      throw e;
    }
  });
  queue = p.catch(() => null);
  return p;
}

const kakuroFlagText = {
  assists: 'an assist was used (Check or Candidates)',
  'too fast': 'it was finished faster than the puzzle can plausibly be solved',
};

// kakuroFinishNote says where a solved game stands: ranked, why not, or
// waiting for a name.
function kakuroFinishNote(v, p) {
  const who = v.result ? v.result.name : '';
  if (v.needName) p('Type a name to save your result.');
  else if (v.flag) p(`Not ranked: ${kakuroFlagText[v.flag] || v.flag}.${who ? ` Saved to your history as ${who}.` : ''}`);
  else if (v.rank) p(`#${v.rank} on the ${v.size.replace('x', '×')} ${v.level} leaderboard${who ? ` as ${who}` : ''}.`);
  else if (who) p(`Saved to the leaderboard as ${who}.`);
}

async function run(action, extra) {
  try {
    const v = await act(action, extra);
    // The server leaves "wrong" out when nothing is wrong: an answer to
    // check or hint replaces the red cells, never adds to them.
    if (['check', 'hint'].includes(action)) wrong = new Set(v.wrong || []);
    if (['undo', 'redo', 'candidates'].includes(action)) wrong.clear();
    if (v.hint) { hinted = v.hint.cell; sel = v.hint.cell; wrong.delete(v.hint.cell); }
    const bad = (v.wrong || []).length;
    if (action === 'check') {
      say($('msg'), bad ? `${bad} digit${bad === 1 ? ' is' : 's are'} wrong (in red).` : 'No wrong digit so far.', bad ? 'error' : 'ok');
    } else if (action === 'hint') {
      say($('msg'), `Hint: ${v.hint.digit} goes in the highlighted cell.`);
    } else if (action === 'candidates') {
      say($('msg'), 'Every empty cell now holds, pencilled, the digits its runs still allow.');
    } else if (action === 'move' && v.status === 'playing' && entries.every((d) => d)) {
      say($('msg'), 'Every cell is filled, but the board is not the solution yet.', 'error');
    } else if (action !== 'move' && action !== 'mark') {
      say($('msg'), '');
    }
    redraw();
  } catch (e) {
    say($('msg'), sentence(e.message), 'error');
    if (pending === 0) refresh();
  }
}

// refresh reads the game again after a refusal, so the page shows what
// the server holds.
async function refresh() {
  try { setView(await api('/api/kakuro/games/' + view.id)); redraw(); } catch (e) { /* keep the view */ }
}

// assist asks before the first assist of a ranked game.
function assist(what) {
  return view.assisted || confirm(`${what} makes this game unranked: it stays in your history but not on the leaderboard. Go on?`);
}

function bind() {
  const el = $('kboard');
  const onKey = (e) => {
    if (view.status !== 'playing' || undoKeys(e) || e.altKey) return;
    const k = e.key;
    if (k >= '1' && k <= '9') write(Number(k));
    else if (k === '0' || k === 'Backspace' || k === 'Delete') write(0);
    else if (k === 'h' || k === 'H') $('hint').click();
    else if (k === 'p' || k === 'P' || k === 'n' || k === 'N') pencil.toggle();
    else if (k === 'c' || k === 'C') $('candidates').click();
    else if (k === 'u' || k === 'U') $('undo').click();
    else if (k.startsWith('Arrow')) move(k);
    else return;
    e.preventDefault();
  };
  el.addEventListener('keydown', onKey);
  document.addEventListener('keydown', (e) => { if (e.target !== el && !quietKey(e)) onKey(e); });
  $('pencil').onclick = () => pencil.toggle();
  $('undo').onclick = () => { if (view.canUndo) { hinted = -1; run('undo'); } };
  $('redo').onclick = () => { if (view.canRedo) { hinted = -1; run('redo'); } };
  $('check').onclick = () => { if (assist('Checking')) run('check'); };
  $('candidates').onclick = () => { if (assist('Filling in the candidates')) run('candidates'); };
  $('hint').onclick = () => run('hint');
  $('solution').onclick = () => { if (confirm('Show the solution? The game will not be ranked.')) run('solution'); };
  $('submit-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const name = $('name').value.trim();
    if (!name) { say($('msg'), 'Type a name for the leaderboard first.', 'error'); $('name').focus(); return; }
    localStorage.setItem(NAME, name);
    run('name', { name });
  });
  onSettings(() => { digitFirst.show(); redraw(); });
}

// move selects the next white cell in an arrow's direction.
function move(key) {
  const [dr, dc] = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[key];
  const at = whiteAt.indexOf(sel);
  let r = Math.floor(at / view.cols) + dr, c = at % view.cols + dc;
  while (r >= 0 && c >= 0 && r < view.rows && c < view.cols) {
    const k = whiteAt[r * view.cols + c];
    if (k >= 0) { sel = k; redraw(); return; }
    r += dr; c += dc;
  }
}
