// grid.js: the Sudoku board widget the play, enter and upload pages share.
// It draws what it is told (values, givens, pencil marks, highlights) and
// reports where the player points; it knows no rules: the server and
// playkit.js do.

// symbol writes a value as the pages show it: 1-9, then A=10 … G=16.
export function symbol(v) {
  if (!v) return '';
  return v <= 9 ? String(v) : String.fromCharCode(55 + v);
}

// keyValue reads a key as a value for a grid of side n: 1-9, a-z above 9,
// 0 for "erase", or -1 for a key that is no value.
export function keyValue(key, n) {
  if (key === '0' || key === 'Backspace' || key === 'Delete') return 0;
  let v = -1;
  if (/^[1-9]$/.test(key)) v = Number(key);
  else if (/^[a-zA-Z]$/.test(key) && n > 9) v = key.toUpperCase().charCodeAt(0) - 55;
  return v >= 0 && v <= n ? v : -1;
}

// parseCells reads a grid string ('0' empty, 'A' = 10) into numbers.
export function parseCells(text) {
  return Array.from(text || '', (c) => (c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 55));
}

// cellsText writes numbers as a grid string.
export function cellsText(cells) {
  return cells.map((v) => (v <= 9 ? String(v) : String.fromCharCode(55 + v))).join('');
}

export class Board {
  // el is the .board element; onPick(i) is called when a cell is chosen.
  constructor(el, onPick) {
    this.el = el;
    this.onPick = onPick || (() => {});
    this.onSelect = null; // called after every change of selection (zoom.js follows it)
    this.n = 0;
    this.sel = -1;
    this.cells = [];
    el.addEventListener('pointerdown', (e) => {
      const c = e.target.closest('.cell');
      if (!c || !el.contains(c)) return;
      e.preventDefault();
      el.focus({ preventScroll: true });
      this.select(Number(c.dataset.i));
      this.onPick(this.sel);
    });
  }

  // setShape rebuilds the board for an n×n grid of br×bc boxes: an ARIA
  // grid of rows (laid out by the board's CSS grid: rows are display:
  // contents) whose cells say their row, column and value.
  setShape(br, bc) {
    const n = br * bc;
    if (n === this.n && br === this.br) return;
    this.n = n; this.br = br; this.bc = bc;
    this.el.style.setProperty('--n', n);
    this.el.style.setProperty('--br', br);
    this.el.style.setProperty('--bc', bc);
    this.el.replaceChildren();
    this.el.setAttribute('role', 'grid');
    this.el.classList.toggle('big', n >= 12); // bigger pencil marks (app.css)
    this.el.setAttribute('aria-rowcount', n);
    this.el.setAttribute('aria-colcount', n);
    this.cells = [];
    let row = null;
    for (let i = 0; i < n * n; i++) {
      const r = Math.floor(i / n), c = i % n;
      if (c === 0) {
        row = document.createElement('div');
        row.className = 'row';
        row.setAttribute('role', 'row');
        row.setAttribute('aria-rowindex', r + 1);
        this.el.append(row);
      }
      const d = document.createElement('div');
      d.className = 'cell';
      d.dataset.i = i;
      d.id = `${this.el.id || 'board'}-c${i}`;
      d.setAttribute('role', 'gridcell');
      d.setAttribute('aria-colindex', c + 1);
      if (c % bc === bc - 1) d.classList.add(c === n - 1 ? 'ex' : 'bx');
      if (r % br === br - 1) d.classList.add(r === n - 1 ? 'ey' : 'by');
      row.append(d);
      this.cells.push(d);
    }
    if (this.sel >= n * n) this.sel = -1;
  }

  select(i) {
    this.sel = i;
    if (i >= 0 && this.cells[i]) this.el.setAttribute('aria-activedescendant', this.cells[i].id);
    else this.el.removeAttribute('aria-activedescendant');
    if (this.last) this.draw(this.last);
    if (this.onSelect) this.onSelect(i);
  }

  // move shifts the selection by dr rows and dc columns, wrapping around.
  move(dr, dc) {
    const n = this.n;
    if (this.sel < 0) { this.select(0); return; }
    const r = (Math.floor(this.sel / n) + dr + n) % n;
    const c = (this.sel % n + dc + n) % n;
    this.select(r * n + c);
  }

  // draw paints a view: {values, given (bools), marks (bitmasks),
  // wrong, conflicts, hint, targets, solved (sets of cells), elim (map
  // cell -> set of struck candidates), focus (a digit chosen first: its
  // cells and marks stand out)}.
  draw(view) {
    this.last = view;
    const n = this.n, sel = this.sel;
    const focus = view.focus > 0 ? view.focus : 0;
    const selV = focus || (sel >= 0 ? view.values[sel] : 0);
    const sr = Math.floor(sel / n), sc = sel % n;
    const boxOf = (i) => Math.floor(Math.floor(i / n) / this.br) * 100 + Math.floor((i % n) / this.bc);
    const sb = sel >= 0 ? boxOf(sel) : -1;
    for (let i = 0; i < n * n; i++) {
      const d = this.cells[i];
      const v = view.values[i];
      const r = Math.floor(i / n), c = i % n;
      const cls = d.classList;
      cls.toggle('given', !!(view.given && view.given[i]));
      cls.toggle('sel', i === sel);
      cls.toggle('peer', sel >= 0 && i !== sel && (r === sr || c === sc || boxOf(i) === sb));
      cls.toggle('same', selV > 0 && i !== sel && v === selV);
      cls.toggle('wrong', !!(view.wrong && view.wrong.has(i)));
      cls.toggle('conflict', !!(view.conflicts && view.conflicts.has(i)));
      cls.toggle('hint', !!(view.hint && view.hint.has(i)));
      cls.toggle('hint-target', !!(view.targets && view.targets.has(i)));
      cls.toggle('solved', !!(view.solved && view.solved.has(i)));
      cls.toggle('elim-cell', !!(view.elim && view.elim.has(i)));
      // A page read from paper: handwritten entries, cells of pencil
      // notes, and entries to check on the page.
      const pen = !!(view.pen && view.pen.has(i)), notes = !!(view.notes && view.notes.has(i));
      const unsure = !!(view.unsure && view.unsure.has(i)), wrong = cls.contains('wrong');
      cls.toggle('pen', pen);
      cls.toggle('notes', notes);
      cls.toggle('unsure', unsure);
      d.setAttribute('aria-selected', String(i === sel));
      const m = view.marks ? view.marks[i] : 0;
      const struck = view.elim && view.elim.get(i);
      const paper = (pen ? 'p' : '') + (notes ? 'n' : '') + (unsure ? 'u' : '') + (pen && wrong ? 'w' : '');
      const key = v ? 'v' + v + (view.given && view.given[i] ? 'g' : '') + (cls.contains('conflict') ? 'x' : '') + paper
        : 'm' + m + paper + (struck ? 'e' + [...struck].join(',') : '') + (focus && (m & (1 << focus)) ? 'f' + focus : '');
      if (d.dataset.k === key) continue;
      d.dataset.k = key;
      const where = `Row ${r + 1}, column ${c + 1}`;
      if (v) {
        d.textContent = symbol(v);
        const said = pen ? (wrong ? ', wrong' : '') + (unsure ? ', check it on the page' : '') : '';
        d.setAttribute('aria-label', `${where}: ${view.given && view.given[i] ? 'given ' : pen ? 'handwritten ' : ''}${symbol(v)}${cls.contains('conflict') ? ', clashes with another ' + symbol(v) : ''}${said}`);
      } else if (m || struck) {
        // Pencil marks, and the candidates a hint removes (struck out,
        // shown even where the player has not pencilled them).
        const box = document.createElement('div');
        box.className = 'marks';
        box.setAttribute('aria-hidden', 'true');
        for (let x = 1; x <= n; x++) {
          const s = document.createElement('span');
          if ((m & (1 << x)) || (struck && struck.has(x))) s.textContent = symbol(x);
          if (struck && struck.has(x)) s.className = 'elim';
          else if (x === focus && (m & (1 << x))) s.className = 'chosen';
          box.append(s);
        }
        d.replaceChildren(box);
        const list = [...Array(n).keys()].map((x) => x + 1).filter((x) => m & (1 << x)).map(symbol).join(' ');
        d.setAttribute('aria-label', `${where}: empty${list ? ', marks ' + list : ''}${struck ? ', a hint removes ' + [...struck].map(symbol).join(' ') : ''}`);
      } else {
        d.textContent = notes ? '✎' : '';
        d.setAttribute('aria-label', `${where}: ${notes ? 'pencil notes' : 'empty'}${unsure ? ', check it on the page' : ''}`);
      }
    }
  }
}

// makePad fills el with one button per value and an erase button; onValue
// gets the value (0 for erase).
export function makePad(el, n, onValue) {
  el.replaceChildren();
  // One row for small boards; two rows of five for 9×9 and three of six
  // for 16×16, so that every key is a finger wide on a phone.
  el.style.setProperty('--cols', n <= 6 ? n + 1 : n <= 9 ? 5 : 6);
  el.classList.toggle('many', n > 9); // three rows: a little lower each
  for (let v = 1; v <= n; v++) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = symbol(v);
    b.dataset.v = v;
    b.dataset.sym = symbol(v);
    b.setAttribute('aria-label', `write ${symbol(v)}`);
    el.append(b);
  }
  const x = document.createElement('button');
  x.type = 'button';
  x.className = 'erase';
  x.textContent = '⌫';
  x.dataset.v = 0;
  x.setAttribute('aria-label', 'erase');
  el.append(x);
  el.onclick = (e) => {
    const b = e.target.closest('button');
    if (b) onValue(Number(b.dataset.v));
  };
}

// arrows maps arrow keys to [dr, dc].
export const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
