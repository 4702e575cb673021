// playkit.js: what the solo play page and the rooms page share while a
// Sudoku is played: the clock's text, pencil mode, the rule breaks to
// show (computed from the board: they are rules, not answers), the digits
// left on the pad, the staged hint in the player's chosen words, the
// message line that opens to show a long hint whole, and the "digit
// first" way of playing. The pages keep their own talk with the server
// (HTTP for solo, a WebSocket for rooms); this module only turns what they
// know into what the player sees.
import { $, say, sentence } from './api.js';
import { setting } from './settings.js';

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
    b.classList.toggle('used-up', left === 0);
    b.setAttribute('aria-label', `${b.dataset.sym || v}: ${left} left`);
  }
}

// clearMarks is the player's setting "placing a digit clears it from the
// pencil marks of its row, column and box" (on unless turned off).
export function clearMarks() { return setting('clearMarks') !== 'off'; }

// DigitFirst is the "pick a digit first, then tap its cells" way of
// playing (the digitFirst setting): a pad key chooses the digit (pressed;
// ⌫ chooses erasing), a tap on a cell writes it there; the same key again
// lets go. With the setting off the pad writes into the selected cell.
export class DigitFirst {
  constructor(pad) { this.pad = pad; this.digit = -1; }
  get on() { return setting('digitFirst') === 'on'; }
  // pick handles a pad key: true when it chose (digit first), false when
  // the key is to be written into the selected cell.
  pick(v) {
    if (!this.on) return false;
    this.digit = this.digit === v ? -1 : v;
    this.show();
    return true;
  }
  // chosen is the digit a tapped cell gets (-1: none chosen).
  get chosen() { return this.on ? this.digit : -1; }
  // key handles a pad key: chosen first, or written into the selected
  // cell.
  key(v, write, redraw) { if (this.pick(v)) redraw(); else write(v); }
  // tap handles a tap on a cell (already selected): the digit chosen
  // first goes there, when open() says the cell takes it now.
  tap(write, redraw, open) {
    redraw();
    if (this.chosen >= 0 && open()) write(this.chosen);
  }
  show() {
    if (!this.on) this.digit = -1;
    for (const b of this.pad.querySelectorAll('button[data-v]')) {
      if (this.on) b.setAttribute('aria-pressed', String(Number(b.dataset.v) === this.digit));
      else b.removeAttribute('aria-pressed');
    }
  }
}

// MessageLine keeps the message line under the board at its height and,
// when a text is longer than it shows, offers "More", which opens the
// whole text over what lies below (nothing moves); any new text closes it.
export class MessageLine {
  constructor(wrap, msg, more) {
    this.wrap = wrap;
    this.msg = msg;
    this.more = more;
    if (!wrap || !msg || !more) return;
    more.onclick = () => this.open(!wrap.classList.contains('open'));
    new MutationObserver(() => this.fit()).observe(msg, { childList: true, characterData: true, subtree: true });
    new ResizeObserver(() => this.fit()).observe(wrap);
  }
  open(on) {
    this.wrap.classList.toggle('open', on);
    this.more.setAttribute('aria-expanded', String(on));
    this.more.textContent = on ? 'Less' : 'More';
    // Opened, a text longer than the screen scrolls, by keyboard too.
    if (on && this.msg.scrollHeight > this.msg.clientHeight + 1) this.msg.tabIndex = 0;
    else this.msg.removeAttribute('tabindex');
  }
  fit() {
    if (this.wrap.classList.contains('open')) { this.open(false); }
    this.wrap.classList.remove('long');
    const long = this.msg.scrollHeight > this.msg.clientHeight + 1;
    this.wrap.classList.toggle('long', long);
    this.more.hidden = !long;
  }
}

// StagedHint shows a hint in three stages, as the engine's advice allows:
// 1 the nudge (where to look, the house lit), 2 the pattern (its cells,
// the candidates it removes, the sentence), 3 the answer (played by the
// server; its cells stay lit until the next move). It words them plainly
// ("row 3, column 5") unless the player chose the experts' words (rXcY
// and the techniques' names). The hint button says what the next press
// shows, and when no hint is left.
export class StagedHint {
  // msg is the element the sentences go to; onChange redraws the board.
  constructor(msg, onChange) {
    this.msg = msg;
    this.onChange = onChange;
    this.advice = null;
    this.stage = 0;
    this.shape = [3, 3];
    this.left = 1;
  }

  // next is the stage the hint button asks for: 1 for a new hint.
  next() { return this.advice && this.stage < 3 ? this.stage + 1 : 1; }

  // show draws stage of advice a on a board of br×bc boxes.
  show(a, stage, br, bc) {
    this.advice = a;
    this.stage = stage;
    this.shape = [br, bc];
    this.say();
    this.label();
    this.onChange();
  }

  // say writes the hint's words for its stage, in the chosen words.
  say() {
    const a = this.advice;
    if (!a || !this.stage || !a.technique) return;
    const expert = setting('cellNames') === 'rc';
    const nudge = expert ? a.nudge : (a.plainNudge || a.nudge);
    const text = expert ? a.sentence : (a.plain || a.sentence);
    const done = a.wrong && a.wrong.length ? ': erased.' : a.placements && a.placements.length ? ': placed.' : '';
    const words = this.stage === 1 ? nudge : this.stage === 2 ? text : `${text.replace(/\.$/, '')}${done}`;
    say(this.msg, sentence(words || a.technique));
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

  // hintsLeft says how many new hints the game still allows.
  hintsLeft(n) {
    this.left = n;
    this.label();
  }

  label() {
    const b = $('hint');
    if (!b) return;
    const next = this.next();
    const out = next === 1 && this.left <= 0;
    const words = out ? 'No hints left' : { 1: 'Hint', 2: 'Show', 3: 'Apply' }[next];
    const word = b.querySelector('.hint-word');
    if (word) word.textContent = words; else b.textContent = words;
    b.title = out ? 'Every hint of this game is used' : { 1: 'Hint (H): a nudge first', 2: 'Show the pattern (H)', 3: 'Apply the hint (H)' }[next];
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

// showMistakes writes the third counter above a board: the mistakes
// while the server shows them (shown, after a check, at the end), with
// the game's limit; otherwise whether the game is ranked. reason says why
// an unranked game is.
export function showMistakes(v, reason) {
  const hidden = v.mistakes === undefined;
  const ranked = !v.assisted && !v.own && !v.replay;
  // One text in one place (its start fixed): a change moves nothing.
  const n = v.mistakeLimit ? `${v.mistakes}/${v.mistakeLimit}` : String(v.mistakes);
  $('mistakes').textContent = hidden ? (ranked ? 'Ranked' : 'Unranked') : `${n} mistake${v.mistakes === 1 && !v.mistakeLimit ? '' : 's'}`;
  $('mistakes-stat').classList.toggle('ranked', hidden && ranked);
  $('mistakes-stat').title = !hidden ? '' : ranked ? 'Mistakes are counted and shown at the end; an assist (Check, Candidates…) makes the game unranked'
    : `This game is not ranked: ${reason}`;
}

// celebrate lights a solved board's cells one after the other, from the
// top left corner (CSS skips it for those who asked for less motion).
export function celebrate(board) {
  const n = board.n;
  board.cells.forEach((c, i) => c.style.setProperty('--d', String(Math.floor(i / n) + (i % n))));
  board.el.classList.add('celebrate');
}

// undoKeys handles Ctrl+Z (undo) and Ctrl+Y or Ctrl+Shift+Z (redo) by
// pressing the page's #undo and #redo. It reports whether Ctrl (or ⌘)
// was held: the page then does nothing more with the key.
export function undoKeys(e) {
  if (!e.ctrlKey && !e.metaKey) return false;
  const k = e.key.toLowerCase();
  if (k === 'z' && !e.shiftKey) { e.preventDefault(); $('undo').click(); }
  else if (k === 'y' || (k === 'z' && e.shiftKey)) { e.preventDefault(); $('redo').click(); }
  return true;
}

// quietKey reports whether a key on target belongs to the control under
// focus (Space or Enter presses a focused button; typing goes to a field),
// so the page's shortcuts leave it alone.
export function quietKey(e) {
  const t = e.target;
  if (!t || !t.closest) return false;
  if (t.closest('input, textarea, select, [contenteditable]')) return true;
  return (e.key === ' ' || e.key === 'Enter') && !!t.closest('button, a, summary, [role=button], label');
}
