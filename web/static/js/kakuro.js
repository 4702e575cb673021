// kakuro.js: the Kakuro page. /kakuro shows the chooser (play area,
// level) and the fastest times; /kakuro/ID plays game ID. The server
// holds the game and its solution: every digit typed is a move (one cell
// per request, in order), check/hint/name/solution are requests answering
// with the new view; the last right digit ends the game.
import { api, $, say } from './api.js';

const CURRENT = 'sudokuar.kakuroGame';
const NAME = 'sudokuar.name';

let view = null;      // the server's latest KakuroView
let entries = [];     // the player's digits by white-cell number
let whiteAt = [];     // board index -> white-cell number, -1 for blocks
let cellEls = [];     // white-cell number -> element
let runs = [];        // {sum, cells: [white-cell numbers]}
let sel = 0;          // selected white cell
let showErrors = true;
let wrong = new Set(); // cells the server found wrong (check, submit, hint)
let hinted = -1;
let clockBase = 0;
let queue = Promise.resolve(); // moves go to the server one at a time, in order

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
      for (const t of row) {
        const td = document.createElement('td');
        td.textContent = String(t);
        tr.append(td);
      }
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
  $('game').hidden = false;
  $('name').value = localStorage.getItem(NAME) || '';
  try {
    setView(await api('/api/kakuro/games/' + gid));
  } catch (e) {
    say($('msg'), e.message, 'error');
    if (e.status === 404) localStorage.removeItem(CURRENT);
    return;
  }
  build();
  bind();
  redraw();
  setInterval(tick, 250);
}

function setView(v) {
  view = v;
  entries = v.solution && v.status !== 'playing' ? v.solution.slice() : v.entries.slice();
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
      d.addEventListener('click', () => { sel = k; redraw(); el.focus(); });
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
  pad.style.setProperty('--cols', 10);
  for (let v = 1; v <= 9; v++) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = v;
    b.addEventListener('click', () => write(v));
    pad.append(b);
  }
  const er = document.createElement('button');
  er.type = 'button';
  er.className = 'erase';
  er.textContent = '⌫';
  er.setAttribute('aria-label', 'Erase');
  er.addEventListener('click', () => write(0));
  pad.append(er);
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
  // solution; Errors on/off is about digits that differ from the solution.
  const bad = playing ? broken() : new Set();
  cellEls.forEach((d, k) => {
    d.textContent = entries[k] ? String(entries[k]) : '';
    d.classList.toggle('sel', playing && k === sel);
    d.setAttribute('aria-selected', String(playing && k === sel));
    if (!d.id) d.id = `kk-c${k}`;
    d.setAttribute('aria-label', entries[k] ? `${entries[k]}` : 'empty');
    d.classList.toggle('conflict', bad.has(k));
    d.classList.toggle('wrong', showErrors && playing && wrong.has(k) && entries[k] !== 0);
    d.classList.toggle('hint-target', k === hinted);
    d.classList.toggle('solved', view.status === 'solved');
    d.classList.toggle('revealed', view.status === 'revealed');
  });
  if (cellEls[sel]) $('kboard').setAttribute('aria-activedescendant', cellEls[sel].id);
  const filled = entries.filter((d) => d).length;
  $('progress').textContent = `${filled}/${entries.length}`;
  $('hints').textContent = `${view.hints}/${view.maxHints}`;
  $('mistakes').textContent = view.mistakes === undefined ? '–' : String(view.mistakes);
  $('what').textContent = `${view.size} ${view.level}`;
  $('errors').textContent = showErrors ? 'Errors on' : 'Errors off';
  $('errors').setAttribute('aria-pressed', String(showErrors));
  for (const b of document.querySelectorAll('.tools button, #pad button')) b.disabled = !playing || !!view.watching;
  $('submit-form').hidden = !view.needName;
  tick();
  showDone();
}

function tick() {
  if (!view) return;
  if (view.watching) say($('msg'), 'You are watching this game: it belongs to another browser.');
  let ms = view.elapsedMs;
  if (view.status === 'playing') ms += performance.now() - clockBase;
  const s = Math.floor(ms / 1000);
  $('timer').textContent = s >= 3600
    ? `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
    : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function showDone() {
  const box = $('done');
  if (view.status === 'playing') { box.hidden = true; return; }
  box.hidden = false;
  box.classList.toggle('revealed', view.status === 'revealed');
  box.replaceChildren();
  const p = (text) => { const e = document.createElement('p'); e.textContent = text; box.append(e); };
  if (view.status === 'solved') {
    const m = view.mistakes || 0;
    p(`Solved in ${$('timer').textContent} with ${view.hints} hint${view.hints === 1 ? '' : 's'} and ${m} mistake${m === 1 ? '' : 's'}.`);
    kakuroFinishNote(view, p);
  } else {
    p('The solution is shown; this game is not ranked.');
  }
}

function write(v) {
  if (view.status !== 'playing' || view.watching || !cellEls.length) return;
  const cell = sel;
  entries[cell] = v;
  wrong.delete(cell);
  hinted = -1;
  say($('msg'), '');
  redraw();
  const name = localStorage.getItem(NAME);
  run('move', name ? { cell, value: v, name } : { cell, value: v });
}

// act sends one action after the ones before it and shows the answer;
// digits typed meanwhile stay on the page until their own answer.
function act(action, extra) {
  const p = queue.then(async () => {
    const v = await api(`/api/kakuro/games/${view.id}/${action}`, extra || {});
    const typed = entries.slice();
    setView(v);
    if (v.status === 'playing' && action === 'move') entries = typed; // later moves are on their way
    return v;
  });
  queue = p.catch(() => null);
  return p;
}

const kakuroFlagText = {
  assists: 'Check was used',
  'too fast': 'it was finished faster than the puzzle can plausibly be solved',
};

// kakuroFinishNote says where a solved game stands: ranked, why not, or
// waiting for a name.
function kakuroFinishNote(v, p) {
  const who = v.result ? v.result.name : '';
  if (v.needName) p('Type a name to save your result.');
  else if (v.flag) p(`Not ranked: ${kakuroFlagText[v.flag] || v.flag}.${who ? ` Saved to your history as ${who}.` : ''}`);
  else if (v.rank) p(`#${v.rank} on the ${v.size} ${v.level} leaderboard${who ? ` as ${who}` : ''}.`);
  else if (who) p(`Saved to the leaderboard as ${who}.`);
}

async function run(action, extra) {
  try {
    const v = await act(action, extra);
    // The server leaves "wrong" out when nothing is wrong: an answer to
    // check, hint or submit replaces the red cells, never adds to them.
    if (['check', 'hint', 'submit'].includes(action)) wrong = new Set(v.wrong || []);
    if (v.hint) { hinted = v.hint.cell; sel = v.hint.cell; wrong.delete(v.hint.cell); }
    const bad = (v.wrong || []).length;
    if (action === 'check') {
      say($('msg'), bad ? `${bad} digit${bad === 1 ? ' is' : 's are'} wrong (in red).` : 'No wrong digit so far.', bad ? 'error' : 'ok');
    } else if (action === 'hint') {
      say($('msg'), `Hint: ${v.hint.digit} goes in the highlighted cell.`);
    } else if (action === 'move' && v.status === 'playing' && entries.every((d) => d)) {
      say($('msg'), 'Every cell is filled, but the board is not the solution yet.', 'error');
    } else if (action !== 'move') {
      say($('msg'), '');
    }
    redraw();
  } catch (e) {
    say($('msg'), e.message, 'error');
  }
}

function bind() {
  const el = $('kboard');
  el.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    if (k >= '1' && k <= '9') write(Number(k));
    else if (k === '0' || k === 'Backspace' || k === 'Delete') write(0);
    else if (k === 'h' || k === 'H') run('hint');
    else if (k === 'e' || k === 'E') { showErrors = !showErrors; redraw(); }
    else if (k.startsWith('Arrow')) move(k);
    else return;
    e.preventDefault();
  });
  $('errors').onclick = () => { showErrors = !showErrors; redraw(); };
  $('check').onclick = () => {
    if (view.assisted || confirm('Checking makes this game unranked: it stays in your history but not on the leaderboard. Go on?')) run('check');
  };
  $('hint').onclick = () => run('hint');
  $('solution').onclick = () => { if (confirm('Show the solution? The game will not be ranked.')) run('solution'); };
  $('submit-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const name = $('name').value.trim();
    if (!name) { say($('msg'), 'Type a name for the leaderboard first.', 'error'); $('name').focus(); return; }
    localStorage.setItem(NAME, name);
    run('name', { name });
  });
  el.focus();
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
