// settings.js: the player's settings as pages read them. site.js keeps
// them (the dialog behind the header's Settings button) in localStorage
// as "sudokuar.NAME" and says when one changes.

// setting returns the value of setting name ("" when unset).
export function setting(name) {
  try { return localStorage.getItem('sudokuar.' + name) || ''; } catch (e) { return ''; }
}

// onSettings calls f(name) whenever the player changes a setting.
export function onSettings(f) {
  document.addEventListener('sudokuar:settings', (e) => f(e.detail && e.detail.name));
}
