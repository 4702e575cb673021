// site.js: what every page does around its own script. A classic script
// in <head>, so it runs before the first paint: the theme the player chose
// is on the page before anything is drawn (a dark page never flashes
// white). Once the page is parsed it wires the phone's menu and the
// settings dialog, whose fields say with data-setting which setting they
// keep (localStorage "sudokuar.NAME"); pages read them through
// settings.js and hear changes as a "sudokuar:settings" event.
(() => {
  const key = (name) => 'sudokuar.' + name;
  const get = (name) => { try { return localStorage.getItem(key(name)) || ''; } catch (e) { return ''; } };
  const put = (name, v) => {
    try { if (v) localStorage.setItem(key(name), v); else localStorage.removeItem(key(name)); } catch (e) { /* private mode: not kept */ }
  };
  const theme = () => {
    const t = get('theme');
    if (t === 'light' || t === 'dark') document.documentElement.dataset.theme = t;
    else delete document.documentElement.dataset.theme;
  };
  theme();

  document.addEventListener('DOMContentLoaded', () => {
    const menu = document.getElementById('menu-open');
    const nav = document.getElementById('nav');
    const setMenu = (open) => {
      menu.setAttribute('aria-expanded', String(open));
      document.body.classList.toggle('menu-shown', open);
    };
    if (menu && nav) {
      menu.addEventListener('click', () => setMenu(menu.getAttribute('aria-expanded') !== 'true'));
      document.addEventListener('click', (e) => { if (!e.target.closest('#nav, #menu-open')) setMenu(false); });
      document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && document.body.classList.contains('menu-shown')) { setMenu(false); menu.focus(); } });
    }

    const dialog = document.getElementById('settings');
    const open = document.getElementById('settings-open');
    if (!dialog || !open) return;
    const fields = [...dialog.querySelectorAll('[data-setting]')];
    const load = () => {
      for (const f of fields) {
        const v = get(f.dataset.setting);
        if (f.type === 'radio') f.checked = v === f.value;
        else if (f.dataset.off !== undefined) f.checked = v !== f.dataset.off;
        else f.checked = v === f.value;
      }
    };
    for (const f of fields) {
      f.addEventListener('change', () => {
        const name = f.dataset.setting;
        if (f.type === 'radio') put(name, f.value);
        else if (f.dataset.off !== undefined) put(name, f.checked ? '' : f.dataset.off);
        else put(name, f.checked ? f.value : '');
        if (name === 'theme') theme();
        document.dispatchEvent(new CustomEvent('sudokuar:settings', { detail: { name } }));
      });
    }
    open.addEventListener('click', () => { load(); setMenu(false); dialog.showModal(); });
  });
})();
