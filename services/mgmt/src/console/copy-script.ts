import { createHash } from 'node:crypto';
import type express from 'express';

/**
 * The console's one script, and only on pages that ask for it (view `copyScript`): Copy buttons. A button
 * `<button type="button" data-copy="ID" data-done="Copied" hidden>` copies the value (or text) of element ID
 * to the clipboard; the buttons are hidden until this script shows them, so without JavaScript the value is
 * still there to select and nothing is offered that does not work. Served from the console's own origin
 * under a content hash (CSP script-src 'self', no inline script).
 */
export const COPY_SCRIPT = `(() => {
  const say = document.createElement('p');
  say.setAttribute('role', 'status');
  say.className = 'visually-hidden';
  document.body.append(say);
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      const field = document.getElementById(button.dataset.copy);
      if (!field) return;
      const text = 'value' in field ? field.value : field.textContent;
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        if (field.select) field.select();
        document.execCommand('copy');
      }
      say.textContent = button.dataset.done;
      const label = button.textContent;
      button.textContent = button.dataset.done;
      setTimeout(() => { button.textContent = label; say.textContent = ''; }, 2000);
    });
  }
})();
`;

export const COPY_SCRIPT_PATH = `/console/assets/copy-${createHash('sha256').update(COPY_SCRIPT).digest('hex').slice(0, 16)}.js`;

/** GET of the script, cached for good (its name changes with its content); `router` is mounted at /console. */
export function serveCopyScript(router: express.Router): void {
  router.get(COPY_SCRIPT_PATH.replace(/^\/console/, ''), (_req, res) => {
    res
      .set({
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
      })
      .send(COPY_SCRIPT);
  });
}
