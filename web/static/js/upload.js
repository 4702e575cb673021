// upload.js: the Upload page: the photo goes through the same pipeline as
// `sudokuar scan`; the page draws the answer onto it and lets the reader
// fix what was misread before solving or playing.
import { api, $, say } from './api.js';
import { Editor } from './editor.js';
import { drawGrid, parseGrid, solutionDigits } from './warp.js';
import { cellsText } from './grid.js';

const MAX_BYTES = 20 << 20;
const MAX_SIDE = 2000; // the browser scales phone photos down before sending

let photo = null;  // the ImageBitmap shown
let scan = null;   // the server's answer
// paper is a started page's ink (null for a page without any): entries
// (numbers per cell, 0 none), the cells of notes and to check, and while
// checking the wrong entries. Nothing says which entries are wrong until
// the player asks.
let paper = null;
const ed = new Editor({
  onSolved: (r) => { if (r.solution) paint(r.puzzle, r.solution); },
  onVerdict: onVerdict,
  decorate: decorate,
});

// onVerdict repaints the photo when the grid's verdict comes back: the
// grid as read keeps the solution the scan drew; an edited one shows its
// conflicts, and Solve draws its solution.
function onVerdict() {
  const asRead = scan && ed.text() === scan.given;
  if (paper) {
    // A started page: its solution is drawn only when asked (Solve).
    if (paper.checking && !asRead) setChecking(false);
    paint(ed.text(), null);
    $('continue').disabled = !(ed.analysis && ed.analysis.status === 'solved') || (asRead && scan.progress === 'solved');
    return;
  }
  paint(ed.text(), asRead && scan.status === 'solved' ? scan.solution : null);
  if (!asRead && scan && scan.status === 'solved') {
    say($('scan-msg'), 'You changed the grid: Solve draws its solution on the photo.');
  }
}

const messages = {
  'no grid': 'No Sudoku grid found in this photo. Take it straight on, with the whole grid in view and some margin around it.',
  'move closer': 'The grid is too small in this photo: come closer, or crop the photo around the puzzle.',
  'too blurry': 'The photo is too blurry to read the digits. Hold still, let the camera focus, and try again.',
  'too dark': 'The photo is too dark to read. More light, please.',
  'unreadable': 'The grid was found but its digits could not be read.',
  'no solution': 'The grid was read, but as read it has no solution: check the digits marked red, fix them below, then solve.',
  'several solutions': 'The grid was read, but it has several solutions as read: a given was probably missed. Compare with the photo and add it below.',
  'solved': 'Solved. The missing digits are drawn on the photo in blue.',
};

$('photo').addEventListener('change', async () => {
  const file = $('photo').files[0];
  if (!file) return;
  $('editor').hidden = true;
  if (file.size > MAX_BYTES) {
    say($('scan-msg'), `This file is ${(file.size / (1 << 20)).toFixed(1)} MB: at most 20 MB, please send a smaller photo.`, 'error');
    return;
  }
  say($('scan-msg'), 'Reading the photo…');
  let body = file;
  try {
    photo = await createImageBitmap(file);
    body = await scaled(photo);
  } catch (e) {
    photo = null; // not an image this browser can open: let the server say what it is
  }
  const form = new FormData();
  form.append('photo', body, file.name.replace(/\.[^.]*$/, '') + (body === file ? '' : '.jpg'));
  try {
    scan = await api('/api/scan', form);
  } catch (e) {
    say($('scan-msg'), e.message, 'error');
    return;
  }
  show();
});

// scaled returns the photo as a JPEG no larger than MAX_SIDE, drawn with
// the browser's own EXIF rotation, so that what the server reads and what
// the page shows are the same pixels.
async function scaled(bmp) {
  const k = Math.min(1, MAX_SIDE / Math.max(bmp.width, bmp.height));
  const w = Math.round(bmp.width * k), h = Math.round(bmp.height * k);
  const cv = new OffscreenCanvas(w, h);
  cv.getContext('2d').drawImage(bmp, 0, 0, w, h);
  photo = await createImageBitmap(cv);
  return cv.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
}

function show() {
  paper = null;
  $('paper').hidden = true;
  const ok = scan.status === 'solved';
  say($('scan-msg'), messages[scan.status] || `${scan.status}${scan.error ? ': ' + scan.error : ''}`, ok ? 'ok' : (scan.found ? '' : 'error'));
  say($('msg'), '');
  if (!scan.found || !scan.given) {
    // Nothing to edit; still show the photo with the outline if any.
    $('editor').hidden = !photo;
    $('side').hidden = true;
    paint('', null);
    return;
  }
  $('editor').hidden = false;
  $('side').hidden = false;
  paper = readPaper(scan);
  $('paper').hidden = !paper;
  if (paper) showPaper();
  ed.load(scan.box[0], scan.box[1], parseGrid(scan.given));
  paint(scan.given, ok && !paper ? scan.solution : null);
}

// readPaper is the ink of a started page in a scan, or null when the page
// holds only printed digits.
function readPaper(r) {
  const entries = parseGrid(r.entries || '');
  const notes = new Set(r.notes || []);
  if (!entries.some((v) => v) && notes.size === 0) return null;
  return {
    entries, notes,
    unsure: new Map((r.entry_check || []).map((c) => [c.cell, c.name])),
    mistakes: new Set(), differ: new Set(), checking: false,
  };
}

// showPaper says what the page holds, without a word on right or wrong.
function showPaper() {
  const given = parseGrid(scan.given).filter((v) => v).length;
  const hand = paper.entries.filter((v) => v).length;
  const left = paper.entries.length - given - hand;
  const parts = [`${given} printed digits`, `${hand} handwritten ${hand === 1 ? 'entry' : 'entries'}`];
  if (paper.notes.size) parts.push(`pencil notes in ${paper.notes.size} ${paper.notes.size === 1 ? 'cell' : 'cells'}`);
  $('paper-read').textContent = `A started page: ${parts.join(', ')}; ${left} ${left === 1 ? 'cell' : 'cells'} to go.`;
  say($('scan-msg'), scan.status === 'solved'
    ? 'The printed digits were read and have one solution. Check my entries when you want to know how you are doing, or Continue here to play on.'
    : (messages[scan.status] || scan.status) + ' (only the printed digits count as givens).', scan.status === 'solved' ? 'ok' : '');
  // A page full and right says so at once: there is nothing left to play.
  $('paper-solved').hidden = scan.progress !== 'solved';
  $('check-entries').setAttribute('aria-pressed', 'false');
  $('check-entries').textContent = 'Check my entries';
  $('continue').disabled = true; // until the givens' verdict
  say($('paper-msg'), '');
}

// decorate adds the page's ink to the editor's board: the entries in the
// cells left empty by the givens, the notes, and while checking the
// wrong entries and those to check on the page.
function decorate(view) {
  if (!paper) return;
  view.pen = new Set();
  view.notes = new Set();
  paper.entries.forEach((v, i) => {
    if (!v || ed.values[i]) return;
    view.values[i] = v;
    view.solved.delete(i);
    view.pen.add(i);
  });
  for (const i of paper.notes) if (!ed.values[i] && !view.pen.has(i)) view.notes.add(i);
  for (const i of scan.clashes || []) if (view.pen.has(i)) view.conflicts.add(i);
  if (paper.checking) {
    for (const i of paper.mistakes) if (view.pen.has(i)) view.wrong.add(i);
    view.unsure = new Set([...paper.unsure.keys(), ...paper.differ].filter((i) => !ed.values[i]));
  }
}

$('check-entries').addEventListener('click', () => setChecking(!paper.checking));
$('continue').addEventListener('click', continueHere);

// setChecking shows (on) or hides the wrong entries. Only the scan's
// verdict names an entry wrong: it weighs how surely each digit was read
// against the solution. Givens edited, or not solved surely by the scan,
// are solved again here, and an entry that differs from that solution is
// only "check rXcY": a digit read surely can still be misread.
async function setChecking(on) {
  if (!paper) return;
  paper.checking = on;
  $('check-entries').setAttribute('aria-pressed', String(on));
  $('check-entries').textContent = on ? 'Hide the check' : 'Check my entries';
  if (!on) {
    say($('paper-msg'), '');
    ed.redraw();
    paint(ed.text(), null);
    return;
  }
  const asRead = ed.text() === scan.given;
  let solution = null;
  paper.differ = new Set();
  if (asRead && scan.status === 'solved') {
    paper.mistakes = new Set(scan.mistakes || []);
  } else {
    try {
      const r = await api('/api/solve', { puzzle: ed.text(), box: ed.box(), solver: 'dlx', rate: false });
      solution = r.solution ? parseGrid(r.solution) : null;
    } catch (e) {
      solution = null;
    }
    if (!solution) {
      paper.checking = false;
      $('check-entries').setAttribute('aria-pressed', 'false');
      $('check-entries').textContent = 'Check my entries';
      say($('paper-msg'), 'The printed digits as read have no single solution, so the entries cannot be checked: fix the givens first.', 'error');
      return;
    }
    paper.mistakes = new Set();
    paper.entries.forEach((v, i) => { if (v && !ed.values[i] && !paper.unsure.has(i) && v !== solution[i]) paper.differ.add(i); });
  }
  ed.redraw();
  paint(ed.text(), null);
  say($('paper-msg'), checkWords(asRead), paper.mistakes.size ? 'error' : 'ok');
}

// checkWords says what the check found, naming the cells.
function checkWords(asRead) {
  const n = scan.box[0] * scan.box[1];
  const name = (i) => `r${Math.floor(i / n) + 1}c${(i % n) + 1}`;
  const wrong = [...paper.mistakes].sort((a, b) => a - b).map(name);
  const unsure = [...paper.unsure.entries()].filter(([i]) => !ed.values[i]).map(([, nm]) => nm);
  const out = [];
  if (asRead && scan.progress) out.push(scan.progress.charAt(0).toUpperCase() + scan.progress.slice(1) + '.');
  const differ = [...paper.differ].filter((i) => !ed.values[i]).sort((a, b) => a - b).map(name);
  if (differ.length) out.push(`Not the solution of these givens: check ${differ.join(', ')} on the page.`);
  else out.push(wrong.length ? `Wrong (marked red): ${wrong.join(', ')}.` : 'No entry found wrong.');
  if (unsure.length) out.push(`Not read surely: check ${unsure.join(', ')} on the page.`);
  return out.join(' ');
}

// continueHere starts a game of the printed digits whose board holds the
// entries as the player's moves, and opens it.
async function continueHere() {
  $('continue').disabled = true;
  const entries = paper.entries.map((v, i) => (ed.values[i] ? 0 : v));
  try {
    const v = await api('/api/games', { given: ed.text(), entries: cellsText(entries), box: ed.box() });
    localStorage.setItem('sudokuar.currentGame', v.id);
    location.assign('/play/' + v.id);
  } catch (e) {
    say($('paper-msg'), e.message, 'error');
    $('continue').disabled = false;
  }
}

// paint draws the photo and, over it, the grid outline, conflicts and the
// solution of the puzzle `given`.
function paint(given, solution) {
  if (!photo) return;
  const cv = $('photo-canvas');
  cv.width = photo.width;
  cv.height = photo.height;
  const ctx = cv.getContext('2d');
  ctx.drawImage(photo, 0, 0);
  if (!scan || !scan.found) return;
  const n = scan.box[0] * scan.box[1];
  const fill = new Map();
  if (ed.analysis && given === ed.text()) for (const i of ed.analysis.conflicts) fill.set(i, 'rgba(230,30,30,0.35)');
  else if (scan.conflicts) for (const i of scan.conflicts) fill.set(i, 'rgba(230,30,30,0.35)');
  if (paper) {
    paper.entries.forEach((v, i) => { if (v && !ed.values[i]) fill.set(i, 'rgba(36,86,184,0.25)'); });
    for (const i of paper.notes) if (!ed.values[i] && !fill.has(i)) fill.set(i, 'rgba(140,80,200,0.25)');
    if (paper.checking) {
      for (const i of paper.unsure.keys()) if (!ed.values[i]) fill.set(i, 'rgba(240,150,20,0.45)');
      for (const i of paper.mistakes) fill.set(i, 'rgba(230,30,30,0.5)');
    }
  }
  const digits = solution ? solutionDigits(given, solution) : null;
  // Never a solution digit over the player's ink.
  if (digits && paper) paper.entries.forEach((v, i) => { if (v) digits.delete(i); });
  const scale = 1;
  drawGrid(ctx, scan.corners, n, { outline: solution ? '#28c83c' : '#f0be1e', fill, digits, scale, colour: '#1e50dc' });
  cv.dataset.drawn = digits ? String(digits.size) : '0';
  cv.dataset.wrong = paper && paper.checking ? String(paper.mistakes.size) : '0'; // red marks drawn
}
