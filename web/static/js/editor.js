// editor.js: a puzzle being typed or corrected, shared by the Enter and
// Upload pages. The server judges every change (conflicts, no, one or
// several solutions, rating); the page only shows what it says.
import { api, $, say, sentence } from './api.js';
import { Board, makePad, keyValue, cellsText, arrows } from './grid.js';

export class Editor {
  // ids: the element ids of board, pad, verdict, solve, play, solver, msg.
  // onSolved(result) is called after a solve, onVerdict(analysis) after
  // each judgement; decorate(view), if given, may add to each view drawn.
  constructor(opts) {
    this.o = opts;
    this.board = new Board($('board'), () => this.redraw());
    this.values = [];
    this.solution = null;
    this.analysis = null;
    this.timer = 0;
    this.seq = 0;
    $('board').addEventListener('keydown', (e) => this.onKey(e));
    $('solve').onclick = () => this.solve();
    $('play').onclick = () => this.play();
    this.loadSolvers();
  }

  async loadSolvers() {
    try {
      const list = await api('/api/solvers');
      $('solver').replaceChildren(...list.map((s) => Object.assign(document.createElement('option'), { value: s.name, textContent: solverNames[s.name] || s.name, title: s.summary })));
    } catch (e) {
      $('solver').replaceChildren(Object.assign(document.createElement('option'), { value: 'dlx', textContent: 'dlx' }));
    }
  }

  // load shows a grid of br×bc boxes with the given values (numbers);
  // analysis, when the server already judged these values, is shown
  // without asking again.
  load(br, bc, values, analysis) {
    this.br = br; this.bc = bc; this.n = br * bc;
    this.board.setShape(br, bc);
    this.values = values ? values.slice() : new Array(this.n * this.n).fill(0);
    this.solution = null;
    makePad($('pad'), this.n, (v) => this.set(v, false));
    if (analysis) { clearTimeout(this.timer); this.seq++; this.show(analysis); this.redraw(); return; }
    this.changed();
  }

  // checking says at once that a new verdict is on its way.
  checking() {
    $('verdict').textContent = 'Checking…';
    $('verdict').className = 'verdict';
  }

  text() { return cellsText(this.values); }
  box() { return `${this.br}x${this.bc}`; }

  set(v, advance) {
    const i = this.board.sel;
    if (i < 0) { say($('msg'), 'Pick a cell first.'); return; }
    this.values[i] = v;
    this.solution = null;
    if (advance) this.board.select((i + 1) % (this.n * this.n)); // reading order
    this.changed();
  }

  onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (arrows[e.key]) { e.preventDefault(); this.board.move(...arrows[e.key]); return; }
    if (e.key === '.' || e.key === ' ') { e.preventDefault(); this.set(0, true); return; }
    const v = keyValue(e.key, this.n);
    if (v >= 0) { e.preventDefault(); this.set(v, e.key !== 'Backspace' && e.key !== 'Delete'); }
  }

  // changed asks the server about the grid after a short pause in typing.
  changed() {
    this.redraw();
    this.checking();
    $('play').disabled = true;
    $('solve').disabled = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.judge(), 120);
  }

  async judge() {
    const seq = ++this.seq;
    const givens = this.values.filter((v) => v).length;
    const verdict = $('verdict');
    if (givens === 0) {
      this.analysis = null;
      verdict.textContent = 'Empty grid: type the givens, or paste a puzzle.';
      verdict.className = 'verdict';
      this.redraw();
      return;
    }
    try {
      const a = await api('/api/analyze', { puzzle: this.text(), box: this.box() });
      if (seq !== this.seq) return; // a newer change is on its way
      this.show(a);
    } catch (e) {
      if (seq !== this.seq) return;
      verdict.textContent = sentence(e.message);
      verdict.className = 'verdict bad';
    }
    this.redraw();
  }

  // show writes the server's verdict on the grid.
  show(a) {
    this.analysis = a;
    const verdict = $('verdict');
    let text, cls = 'bad';
    switch (a.status) {
      case 'solved':
        text = 'One solution' + (a.rating ? ` · rating ${a.rating.toFixed(1)} · ${a.level}` : ' · not rated (the engine needs more than 3 s)');
        cls = 'good';
        break;
      case 'several solutions': text = 'Several solutions: add a given.'; break;
      default: text = a.conflicts.length ? `Conflict: ${a.reason}` : 'No solution: no grid completes these givens';
    }
    verdict.textContent = `${text.replace(/\.$/, '')} · ${a.givens} givens`;
    verdict.className = 'verdict ' + cls;
    $('play').disabled = $('solve').disabled = a.status !== 'solved';
    if (this.o.onVerdict) this.o.onVerdict(a);
  }

  redraw() {
    const values = this.values.slice();
    const solved = new Set();
    if (this.solution) this.solution.forEach((v, i) => { if (!values[i]) { values[i] = v; solved.add(i); } });
    const view = {
      values, given: this.values.map((v) => v > 0), solved,
      conflicts: new Set(this.analysis ? this.analysis.conflicts : []),
      wrong: new Set(this.analysis ? this.analysis.conflicts : []),
    };
    if (this.o.decorate) this.o.decorate(view); // the Upload page adds a paper page's ink
    this.board.draw(view);
  }

  async solve() {
    const solver = $('solver').value || 'dlx';
    say($('msg'), `Solving with ${solver}…`);
    $('solve').disabled = true;
    try {
      const r = await api('/api/solve', { puzzle: this.text(), box: this.box(), solver, rate: false });
      if (r.solution) {
        this.solution = Array.from(r.solution, (c) => (c <= '9' ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 55));
        say($('msg'), `Solved by ${r.solver} in ${formatMs(r.ms)}${r.nodes ? ` (${r.nodes} search nodes)` : ''}.`, 'ok');
      } else {
        say($('msg'), r.error || `No solution: ${r.status}.`, 'error');
      }
      this.redraw();
      if (this.o.onSolved) this.o.onSolved(r);
    } catch (e) {
      say($('msg'), e.message, 'error');
    } finally {
      $('solve').disabled = false;
    }
  }

  async play() {
    $('play').disabled = true;
    try {
      const v = await api('/api/games', { puzzle: this.text(), box: this.box() });
      localStorage.setItem('sudokuar.currentGame', v.id);
      location.assign('/play/' + v.id);
    } catch (e) {
      say($('msg'), e.message, 'error');
      $('play').disabled = false;
    }
  }
}

// solverNames say what each solver of the zoo is, in words.
const solverNames = {
  dlx: 'Dancing links (fastest)', bits: 'Bit-parallel (9×9)', backtrack: 'Backtracking', stack: 'Backtracking, fewest choices first',
  ilp: 'Integer program (GLPK)', logic: 'Human techniques only', anneal: 'Simulated annealing', cga: 'Genetic algorithm',
};

// formatMs writes a duration: microseconds below a millisecond.
export function formatMs(ms) {
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 100) return `${ms.toFixed(2)} ms`;
  return `${Math.round(ms)} ms`;
}

// shapeFor returns the usual box shape [rows, cols] for a side n.
export function shapeFor(n) {
  return { 4: [2, 2], 6: [2, 3], 8: [2, 4], 9: [3, 3], 10: [2, 5], 12: [3, 4], 16: [4, 4], 25: [5, 5] }[n] || [1, n];
}
