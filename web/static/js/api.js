// api.js: the one way the pages talk to the server's JSON API.

// ApiError carries the server's {"error": "..."} message and HTTP status.
export class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

// api calls path with an optional JSON body (POST when a body is given)
// and returns the decoded answer, or throws an ApiError.
export async function api(path, body, method) {
  const opts = { method: method || (body === undefined ? 'GET' : 'POST'), headers: {} };
  if (body !== undefined) {
    if (body instanceof FormData) {
      opts.body = body;
    } else {
      opts.body = JSON.stringify(body);
      opts.headers['Content-Type'] = 'application/json';
    }
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new ApiError('The server cannot be reached. Is sudokuar serve still running?', 0);
  }
  let data = null;
  try { data = await res.json(); } catch (e) { /* not JSON: handled below */ }
  if (!res.ok) {
    throw new ApiError((data && data.error) || `The server answered ${res.status}.`, res.status);
  }
  return data;
}

// $ finds one element by id.
export const $ = (id) => document.getElementById(id);

// say writes a message into el, styled as ok, error or neutral; it starts
// with a capital, as the server's error texts (written to follow a colon)
// do not.
export function say(el, text, kind) {
  el.textContent = text ? text.charAt(0).toUpperCase() + text.slice(1) : '';
  el.classList.toggle('error', kind === 'error');
  el.classList.toggle('ok', kind === 'ok');
}

// sentence starts text with a capital and ends it with a full stop.
export function sentence(text) {
  if (!text) return '';
  const t = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?…:]$/.test(t) ? t : t + '.';
}
