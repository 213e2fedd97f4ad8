// A page that waits for something done elsewhere (a magic link confirmed, a phone done with the QR), then
// continues on its own. Asks the flow's status URL with ?wait=25: the server answers as soon as the flow moves
// on (long polling), so the page follows within about half a second; after an error it waits 2 s, then longer.
(() => {
  const box = document.querySelector('[data-status-url]');
  if (!box) return;
  const statusUrl = box.dataset.statusUrl;
  const continueUrl = box.dataset.continueUrl;
  const expiresAt = Number(box.dataset.expiresAt) || Date.now() + 15 * 60 * 1000;
  const retryFrom = 2000;
  let delay = retryFrom;
  let timer;
  let asking = false; // one request at a time: a long poll already waiting answers as soon as anything changes

  const show = (state) => {
    for (const el of box.querySelectorAll('[data-when]')) el.hidden = el.dataset.when !== state;
  };

  const check = async () => {
    if (asking) return;
    clearTimeout(timer);
    if (Date.now() >= expiresAt) return show('expired');
    asking = true;
    try {
      const response = await fetch(`${statusUrl}?wait=25`, {
        headers: { accept: 'application/json' },
        cache: 'no-store',
      });
      if (response.ok) {
        const { state } = await response.json();
        if (state === 'ready') return location.assign(continueUrl);
        if (state === 'expired') return show('expired');
        delay = retryFrom;
        timer = setTimeout(check, 250); // still pending after the server's wait: ask again
        return;
      }
    } catch {
      // Offline or a server hiccup: keep waiting, the next poll may succeed.
    } finally {
      asking = false;
    }
    delay = Math.min(delay * 1.5, 10000);
    timer = setTimeout(check, delay);
  };

  // Coming back from the mail app on a phone: look right away instead of waiting for the timer.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check();
  });
  check();
})();
