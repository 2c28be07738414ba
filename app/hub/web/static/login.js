'use strict';
// The viewers' login (boardd hub --viewers-login): the viewers' password
// or the director's, then back to the page asked for (?next=, a path of
// this hub only).
(function () {
  const form = document.getElementById('viewer-login');
  const note = document.getElementById('login-note');
  const next = new URLSearchParams(location.search).get('next') || '/';
  const target = /^\/(?![\/\\])/.test(next) ? next : '/';
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    note.textContent = '';
    try {
      const res = await fetch('/api/viewer/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Boardd-Request': '1' },
        body: JSON.stringify({ password: document.getElementById('password').value }),
      });
      const me = await res.json();
      if (!res.ok) throw new Error(me.error || res.statusText);
      location.replace(target);
    } catch (e) {
      note.textContent = e.message;
    }
  });
})();
