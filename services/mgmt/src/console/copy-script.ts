import { createHash } from 'node:crypto';
import { consoleHeaders } from './render';

/**
 * The console's one script: the Copy buttons of "Connect your app". A button names the element it copies
 * (`data-copy`: an input's value or a block's text); the buttons start hidden and this script shows them,
 * so without script there is no button that does nothing (the values stay selectable). The live region
 * #copy-status says it was copied. Served from the console's own origin (script-src 'self'), no inline code.
 */
export const COPY_JS = `(() => {
  const status = document.getElementById('copy-status');
  for (const b of document.querySelectorAll('button[data-copy]')) b.hidden = false;
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
    const from = button && document.getElementById(button.getAttribute('data-copy'));
    if (!from) return;
    const text = from instanceof HTMLInputElement ? from.value : from.textContent;
    const said = (message) => {
      if (status) status.textContent = message || '';
    };
    navigator.clipboard.writeText(text).then(
      () => said(button.getAttribute('data-copied')),
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

/** The CSP directive that lets a page run the console's own scripts (pages with Copy buttons only). */
export const consoleScriptCsp: readonly string[] = ["script-src 'self'"];
