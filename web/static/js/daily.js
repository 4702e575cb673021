// daily.js: /daily opens today's puzzle: the game this browser has on, or
// a new one, then plays it on the Play page.
import { api, $, say, sentence } from './api.js';

(async () => {
  try {
    const v = await api('/api/daily', {});
    localStorage.setItem('sudokuar.currentGame', v.id);
    location.replace('/play/' + v.id);
  } catch (e) {
    say($('daily-msg'), sentence(e.message), 'error');
  }
})();
