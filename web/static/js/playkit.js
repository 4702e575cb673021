// playkit.js: what the solo play page and the rooms page share while a
// Sudoku is played: the clock's text, pencil mode, the rule breaks to
// show (computed from the board: they are rules, not answers), the digits
// left on the pad, the staged hint and the auto-clear setting. The pages
// keep their own talk with the server (HTTP for solo, a WebSocket for
// rooms); this module only turns what they know into what the player sees.
import { $, say, sentence } from './api.js';

const CLEAR = 'sudokuar.clearMarks';

// clock writes a duration in ms as m:ss, or h:mm:ss from an hour on.
export function clock(ms) {
  const s = Math.floor((ms || 0) / 1000);
  return s >= 3600 ? `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
    : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// Pencil is the pencil-mode switch: the #pencil button and the pad's look.
export class Pencil {
  constructor() { this.on = false; }
  set(on) {
    this.on = on;
    $('pencil').setAttribute('aria-pressed', String(on));
    $('pad').classList.toggle('pencil', on);
  }
  toggle() { this.set(!this.on); }
}

// conflicts returns the cells whose digit another cell of the same row,
// column or box also holds (givens included), for a board of br×bc boxes.
export function conflicts(values, br, bc) {
  const n = br * bc;
  const out = new Set();
  const houses = [];
  for (let k = 0; k < n; k++) houses.push([], [], []);
  for (let i = 0; i < n * n; i++) {
    const r = Math.floor(i / n), c = i % n;
    houses[3 * r].push(i);
    houses[3 * c + 1].push(i);
    houses[3 * (Math.floor(r / br) * br + Math.floor(c / bc)) + 2].push(i);
  }
  for (const h of houses) {
    const seen = new Map();
    for (const i of h) {
      const v = values[i];
      if (!v) continue;
      if (seen.has(v)) { out.add(i); out.add(seen.get(v)); } else seen.set(v, i);
    }
  }
  return out;
}

// houseCells returns the cells of a house the engine named ("box 3",
// "row 2", "column 7"), or an empty list.
export function houseCells(name, br, bc) {
  const m = /^(box|row|column) (\d+)$/.exec(name || '');
  if (!m) return [];
  const n = br * bc, k = Number(m[2]) - 1, out = [];
  for (let i = 0; i < n * n; i++) {
    const r = Math.floor(i / n), c = i % n;
    if ((m[1] === 'row' && r === k) || (m[1] === 'column' && c === k) ||
        (m[1] === 'box' && Math.floor(r / br) * (n / bc) + Math.floor(c / bc) === k)) out.push(i);
  }
  return out;
}

// showLeft writes on each pad button how many of its digit are still to
// place, and greys the digits every house already holds.
export function showLeft(pad, values, n) {
  const count = new Array(n + 1).fill(0);
  for (const v of values) if (v > 0 && v <= n) count[v]++;
  for (const b of pad.querySelectorAll('button[data-v]')) {
    const v = Number(b.dataset.v);
    if (!v) continue;
    const left = Math.max(0, n - count[v]);
    b.dataset.left = String(left); // drawn by CSS beside the digit
    b.classList.toggle('done', left === 0);
    b.setAttribute('aria-label', `${b.dataset.sym || v}: ${left} left`);
  }
}

// clearMarks is the player's setting "placing a digit clears it from the
// pencil marks of its row, column and box" (on unless turned off).
export function clearMarks() { return localStorage.getItem(CLEAR) !== 'off'; }

// wireClearMarks binds the #clear-marks checkbox to the setting.
export function wireClearMarks() {
  const box = $('clear-marks');
  if (!box) return;
  box.checked = clearMarks();
  box.onchange = () => localStorage.setItem(CLEAR, box.checked ? 'on' : 'off');
}

// StagedHint shows a hint in three stages, as the engine's advice allows:
// 1 the nudge (technique and house, the house lit), 2 the pattern (its
// cells, the candidates it removes, the sentence), 3 the answer (played by
// the server; its cells stay lit until the next move). The hint button
// says what the next press shows.
export class StagedHint {
  // msg is the element the sentences go to; onChange redraws the board.
  constructor(msg, onChange) {
    this.msg = msg;
    this.onChange = onChange;
    this.advice = null;
    this.stage = 0;
    this.shape = [3, 3];
  }

  // next is the stage the hint button asks for: 1 for a new hint.
  next() { return this.advice && this.stage < 3 ? this.stage + 1 : 1; }

  // show draws stage of advice a on a board of br×bc boxes.
  show(a, stage, br, bc) {
    this.advice = a;
    this.stage = stage;
    this.shape = [br, bc];
    const text = stage === 1 ? a.nudge : stage === 2 ? a.sentence : `${a.sentence}${a.wrong && a.wrong.length ? ': erased.' : a.placements && a.placements.length ? ': placed.' : ''}`;
    say(this.msg, sentence(text || a.technique));
    this.label();
    this.onChange();
  }

  // resume picks up, after a reload, a hint the server still holds open
  // at stage (1 or 2): the next press asks for the stage after it.
  resume(stage) {
    if (!stage || this.advice) return;
    this.advice = {};
    this.stage = stage;
    this.label();
  }

  // clear forgets the hint (a move was made): nothing stays lit.
  clear() {
    if (!this.advice) return;
    this.advice = null;
    this.stage = 0;
    this.label();
    this.onChange();
  }

  label() {
    const b = $('hint');
    if (!b) return;
    const words = { 1: 'Hint', 2: 'Show', 3: 'Apply' };
    b.textContent = words[this.next()];
    b.title = { 1: 'Hint (H): a nudge first', 2: 'Show the pattern (H)', 3: 'Apply the hint (H)' }[this.next()];
  }

  // view is what the board draws for the hint: {cells, targets, elim}.
  view() {
    const a = this.advice;
    if (!a) return { cells: null, targets: null, elim: null };
    if (this.stage === 1) {
      return { cells: new Set(houseCells(a.house, ...this.shape).concat(a.house ? [] : a.cells || [])), targets: new Set(), elim: null };
    }
    const targets = new Set();
    for (const p of a.placements || []) targets.add(p.cell);
    for (const w of a.wrong || []) targets.add(w);
    const elim = new Map();
    for (const e of a.eliminations || []) {
      if (!elim.has(e.cell)) elim.set(e.cell, new Set());
      elim.get(e.cell).add(e.digit);
    }
    // The house stays lit behind the pattern: the sentence names it.
    return { cells: new Set([...houseCells(a.house, ...this.shape), ...(a.cells || [])]), targets, elim };
  }
}

