// enter.js: the Enter page: type or paste a puzzle, see at once what it
// is, then play it or solve it.
import { api, $, say, sentence } from './api.js';
import { Editor, shapeFor } from './editor.js';

const ed = new Editor({});
const size = () => Number(document.querySelector('input[name=size]:checked').value);
ed.load(...shapeFor(size()));

for (const r of document.querySelectorAll('input[name=size]')) {
  r.addEventListener('change', () => { ed.load(...shapeFor(size())); $('paste').value = ''; });
}
$('clear').onclick = () => { ed.load(...shapeFor(size())); $('paste').value = ''; say($('msg'), ''); };

// A pasted puzzle is read by the server (the same parser as the API), so
// every format it knows works here.
let pasteTimer = 0;
$('paste').addEventListener('input', () => {
  clearTimeout(pasteTimer);
  if ($('paste').value.trim()) ed.checking(); // at once: the old verdict is stale
  pasteTimer = setTimeout(async () => {
    const text = $('paste').value;
    if (!text.trim()) return;
    try {
      const a = await api('/api/analyze', { puzzle: text });
      const radio = document.querySelector(`input[name=size][value="${a.size}"]`);
      if (radio) radio.checked = true;
      const values = Array.from(a.puzzle, (c) => (c <= '9' ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 55));
      ed.load(a.box[0], a.box[1], values, a); // judged already: no second request
      say($('msg'), '');
    } catch (e) {
      // Nothing was read: the verdict says so, beside the parser's reason.
      $('verdict').textContent = 'Not read: the paste is not a puzzle (see below)';
      $('verdict').className = 'verdict bad';
      say($('msg'), sentence(e.message), 'error');
    }
  }, 200);
});
$('board').focus({ preventScroll: true });
