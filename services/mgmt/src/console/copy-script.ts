import { createHash } from 'node:crypto';
import type express from 'express';

/**
 * The console's one script, loaded only by pages that ask for it (view `copyScript`: Home, an application's
 * Connect your app): Copy buttons. A button names the element it copies (`data-copy`: an input's value or a
 * block's text); the buttons start hidden and this script shows them, so without script there is no button
 * that does nothing (the values stay selectable). A live region says it was copied (`data-copied`, or
 * `data-done`) or that it could not be (`data-failed`, the value is then selected to copy by hand): the
 * page's #copy-status, or one this script adds. Served from the console's own origin under a content hash
 * (CSP script-src 'self' on those pages only, no inline code).
 */
export const COPY_JS = `(() => {
  let status = document.getElementById('copy-status');
  if (!status) {
    status = document.createElement('p');
    status.setAttribute('role', 'status');
    status.className = 'visually-hidden';
    document.body.append(status);
  }
  for (const b of document.querySelectorAll('button[data-copy]')) b.hidden = false;
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
    const from = button && document.getElementById(button.getAttribute('data-copy'));
    if (!from) return;
    const text = from instanceof HTMLInputElement ? from.value : from.textContent;
    const said = (message) => {
      status.textContent = message || '';
    };
    navigator.clipboard.writeText(text).then(
      () => said(button.getAttribute('data-copied') || button.getAttribute('data-done')),
      () => {
        if (from instanceof HTMLInputElement) from.select();
        said(button.getAttribute('data-failed'));
      },
    );
  });
})();
`;

/** Served under a content hash, so it can be cached for good. */
export const COPY_JS_NAME = `copy-${createHash('sha256').update(COPY_JS).digest('hex').slice(0, 16)}.js`;
export const COPY_SCRIPT_PATH = `/console/assets/${COPY_JS_NAME}`;

/** The CSP directive that lets a page run the console's own scripts (pages with Copy buttons only). */
export const consoleScriptCsp: readonly string[] = ["script-src 'self'"];

/** GET of the script, cached for good (its name changes with its content); `router` is mounted at /console. */
export function serveCopyScript(router: express.Router): void {
  router.get(`/assets/${COPY_JS_NAME}`, (_req, res) => {
    res
      .set({
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
      })
      .send(COPY_JS);
  });
}
