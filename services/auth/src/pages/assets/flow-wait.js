// The magic-link page waits for the link to be confirmed on another device, then continues on its own.
// Polls the flow's status URL (every 2 s, slower over time), stops when the flow expires.
(() => {
  const box = document.querySelector('[data-status-url]');
  if (!box) return;
  const statusUrl = box.dataset.statusUrl;
  const continueUrl = box.dataset.continueUrl;
  const expiresAt = Number(box.dataset.expiresAt) || Date.now() + 15 * 60 * 1000;
  let delay = 2000;
  let timer;

  const show = (state) => {
    for (const el of box.querySelectorAll('[data-when]')) el.hidden = el.dataset.when !== state;
  };

  const check = async () => {
    clearTimeout(timer);
    if (Date.now() >= expiresAt) return show('expired');
    try {
      const response = await fetch(statusUrl, { headers: { accept: 'application/json' }, cache: 'no-store' });
      if (response.ok) {
        const { state } = await response.json();
        if (state === 'ready') return location.assign(continueUrl);
        if (state === 'expired') return show('expired');
      }
    } catch {
      // Offline or a server hiccup: keep waiting, the next poll may succeed.
    }
    delay = Math.min(delay * 1.15, 10000);
    timer = setTimeout(check, delay);
  };

  // Coming back from the mail app on a phone: look right away instead of waiting for the timer.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check();
  });
  timer = setTimeout(check, delay);
})();
