// zoom.js: the magnifier for big boards on small screens. A 16×16 board on
// a phone has 23 px cells whose pencil marks are 4 px high; zoomed, the
// board shows the selected cell's box and its neighbours (half the board
// each way) at twice the size, and follows the selection. It only
// transforms and clips the board, so nothing else on the page moves.
import { $ } from './api.js';

export class Zoom {
  // board is the grid.js Board; button the toggle (shown for n ≥ 12).
  constructor(board, button) {
    this.board = board;
    this.button = button;
    this.on = false;
    board.onSelect = () => this.update();
    if (button) button.onclick = () => { this.set(!this.on); button.blur(); $(board.el.id).focus({ preventScroll: true }); };
  }

  // offer shows the toggle for boards big enough to need it.
  offer(n) {
    if (!this.button) return;
    this.button.hidden = n < 12;
    if (n < 12 && this.on) this.set(false);
  }

  set(on) {
    this.on = on;
    if (this.button) this.button.setAttribute('aria-pressed', String(on));
    this.update();
  }

  // update moves the window to keep the selected cell's box in view.
  update() {
    const b = this.board, el = b.el, n = b.n;
    el.classList.toggle('zoomed', this.on);
    if (!this.on || !n) {
      el.style.transform = '';
      el.style.clipPath = '';
      return;
    }
    const half = n / 2;
    const sel = b.sel >= 0 ? b.sel : 0;
    const r = Math.floor(sel / n), c = sel % n;
    const start = (x, box) => Math.max(0, Math.min(n - half, Math.floor(x / box) * box - (half - box) / 2));
    const oy = start(r, b.br), ox = start(c, b.bc);
    const pct = (k) => (100 * k) / n;
    // The clip is in the board's own coordinates, before the transform.
    el.style.clipPath = `inset(${pct(oy)}% ${100 - pct(ox + half)}% ${100 - pct(oy + half)}% ${pct(ox)}%)`;
    el.style.transform = `scale(2) translate(${-pct(ox)}%, ${-pct(oy)}%)`;
  }
}
