// warp.js: draws digits and highlights onto a photographed grid, in
// perspective, from the grid's four corners (TL, TR, BR, BL) as the server
// found them. The camera and upload pages draw with it, so the solution
// looks printed on the paper.
import { symbol } from './grid.js';

// quadMap returns the projective map (u, v) in [0,1]² -> (x, y) that takes
// the unit square's corners to the four given points.
export function quadMap(c) {
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = c;
  const dx1 = x1 - x2, dx2 = x3 - x2, dx3 = x0 - x1 + x2 - x3;
  const dy1 = y1 - y2, dy2 = y3 - y2, dy3 = y0 - y1 + y2 - y3;
  let a, b, d, e, g = 0, h = 0;
  const det = dx1 * dy2 - dx2 * dy1;
  if (Math.abs(dx3) < 1e-9 && Math.abs(dy3) < 1e-9 || Math.abs(det) < 1e-12) {
    a = x1 - x0; b = x3 - x0; d = y1 - y0; e = y3 - y0;
  } else {
    g = (dx3 * dy2 - dx2 * dy3) / det;
    h = (dx1 * dy3 - dx3 * dy1) / det;
    a = x1 - x0 + g * x1; b = x3 - x0 + h * x3;
    d = y1 - y0 + g * y1; e = y3 - y0 + h * y3;
  }
  return (u, v) => {
    const w = g * u + h * v + 1;
    return [(a * u + b * v + x0) / w, (d * u + e * v + y0) / w];
  };
}

// validCorners reports whether c is four finite points spanning an area.
export function validCorners(c) {
  if (!c || c.length !== 4) return false;
  let area = 0;
  for (let k = 0; k < 4; k++) {
    const [x, y] = c[k], [x2, y2] = c[(k + 1) % 4];
    if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
    area += x * y2 - x2 * y;
  }
  return Math.abs(area) > 100;
}

// drawGrid paints onto ctx (whose pixels match the corners' frame scaled
// by scale) the outline, the cells in `fill` (a Map cell -> colour), and
// the digits of `digits` (a Map cell -> value) upright in each cell.
export function drawGrid(ctx, corners, n, { outline, fill, digits, colour, scale = 1 }) {
  if (!validCorners(corners)) return;
  const c = corners.map(([x, y]) => [x * scale, y * scale]);
  const at = quadMap(c);
  ctx.save();
  if (fill && n) {
    for (const [i, col] of fill) {
      const r = Math.floor(i / n), k = i % n;
      ctx.fillStyle = col;
      ctx.beginPath();
      for (const [du, dv] of [[0, 0], [1, 0], [1, 1], [0, 1]]) {
        const [x, y] = at((k + du) / n, (r + dv) / n);
        ctx.lineTo(x, y);
      }
      ctx.closePath();
      ctx.fill();
    }
  }
  if (outline) {
    ctx.strokeStyle = outline;
    ctx.lineWidth = Math.max(2, 3 * scale);
    ctx.lineJoin = 'round';
    ctx.beginPath();
    for (const [x, y] of c) ctx.lineTo(x, y);
    ctx.closePath();
    ctx.stroke();
  }
  if (digits && n) {
    ctx.fillStyle = colour || '#1e50dc';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.font = '600 72px system-ui, sans-serif';
    const eps = 0.5 / n;
    for (const [i, v] of digits) {
      const r = Math.floor(i / n), k = i % n;
      const u = (k + 0.5) / n, w = (r + 0.5) / n;
      const [cx, cy] = at(u, w);
      // The local linear part of the map: one cell's width and height.
      const [ux, uy] = at(u + eps, w), [vx, vy] = at(u, w + eps);
      const s = 1 / 100; // the font is drawn 100 units to a cell
      ctx.setTransform((ux - cx) * 2 * s, (uy - cy) * 2 * s, (vx - cx) * 2 * s, (vy - cy) * 2 * s, cx, cy);
      ctx.fillText(symbol(v), 0, 4);
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
  }
  ctx.restore();
}

// parseGrid reads a grid string ('0' empty, 'A' = 10) into numbers.
export function parseGrid(text) {
  return Array.from(text || '', (ch) => (ch <= '9' ? ch.charCodeAt(0) - 48 : ch.charCodeAt(0) - 55));
}

// solutionDigits maps each cell empty in given to its solution value.
export function solutionDigits(given, solution) {
  const g = parseGrid(given), s = parseGrid(solution);
  const m = new Map();
  if (g.length !== s.length) return m;
  s.forEach((v, i) => { if (!g[i] && v) m.set(i, v); });
  return m;
}
