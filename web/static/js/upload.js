// upload.js: the Upload page: the photo goes through the same pipeline as
// `sudokuar scan`; the page draws the answer onto it and lets the reader
// fix what was misread before solving or playing.
import { api, $, say } from './api.js';
import { Editor } from './editor.js';
import { drawGrid, parseGrid, solutionDigits } from './warp.js';

const MAX_BYTES = 20 << 20;
const MAX_SIDE = 2000; // the browser scales phone photos down before sending

let photo = null;  // the ImageBitmap shown
let scan = null;   // the server's answer
const ed = new Editor({
  onSolved: (r) => { if (r.solution) paint(r.puzzle, r.solution); },
  onVerdict: onVerdict,
});

// onVerdict repaints the photo when the grid's verdict comes back: the
// grid as read keeps the solution the scan drew; an edited one shows its
// conflicts, and Solve draws its solution.
function onVerdict() {
  const asRead = scan && ed.text() === scan.given;
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
  ed.load(scan.box[0], scan.box[1], parseGrid(scan.given));
  paint(scan.given, ok ? scan.solution : null);
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
  const digits = solution ? solutionDigits(given, solution) : null;
  const scale = 1;
  drawGrid(ctx, scan.corners, n, { outline: solution ? '#28c83c' : '#f0be1e', fill, digits, scale, colour: '#1e50dc' });
  cv.dataset.drawn = digits ? String(digits.size) : '0';
}
