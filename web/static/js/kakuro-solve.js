// kakuro-solve.js: the "Solve a Kakuro" page. The typed board goes to the
// server's fast solver; the answer is drawn, or its error (naming the line
// and cell) is shown under the form.
import { api, $, say } from './api.js';

$('solve-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const board = $('kboard');
  board.hidden = true;
  say($('msg'), 'Solving…');
  try {
    const a = await api('/api/kakuro/solve', { puzzle: $('text').value });
    draw(board, a.solution);
    board.hidden = false;
    const took = a.ms < 1 ? `${Math.max(1, Math.round(a.ms * 1000))} µs` : `${a.ms.toFixed(1)} ms`;
    say($('msg'), `Solved in ${took}: exactly one solution${a.level ? `, level ${a.level}` : ''}.`, 'ok');
  } catch (err) {
    say($('msg'), err.message, 'error');
  }
});

// draw renders a board in the text format (the server's answer).
function draw(el, text) {
  const lines = text.trim().split('\n');
  const [rows, cols] = lines[0].trim().split(/\s+/).map(Number);
  el.style.setProperty('--rows', rows);
  el.style.setProperty('--cols', cols);
  el.replaceChildren();
  for (const line of lines.slice(1, rows + 1)) {
    for (const tok of line.trim().split(/\s+/)) {
      const d = document.createElement('div');
      if (/^[1-9.]$/.test(tok)) {
        d.className = 'kk-cell white solved';
        d.textContent = tok === '.' ? '' : tok;
      } else {
        d.className = 'kk-cell block';
        const m = tok.match(/^(\d*)\\(\d*)$/);
        if (m && (+m[1] || +m[2])) {
          d.classList.add('clue');
          if (+m[2]) { const s = document.createElement('span'); s.className = 'across'; s.textContent = m[2]; d.append(s); }
          if (+m[1]) { const s = document.createElement('span'); s.className = 'down'; s.textContent = m[1]; d.append(s); }
        }
      }
      el.append(d);
    }
  }
}
