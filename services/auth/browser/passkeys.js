// Passkey ceremonies on the hosted pages (the served asset pages/assets/passkeys.js is this file bundled with
// @simplewebauthn/browser by scripts/bundle-browser.mjs; no CDN). Pages opt in with data attributes:
// - [data-passkey-sign-in]: "Use a passkey" (with the email typed: that account's passkeys) and the
//   browser's passkey autofill on the email field (conditional UI), plus a hidden `passkeyCapable` field
//   telling the server whether this device can create a passkey later in the flow;
// - [data-passkey-create]: "Create a passkey" after an email proof.
// The server answers each verification with `{ location }` (next page or the RP's redirect) or `{ error }`.
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  platformAuthenticatorIsAvailable,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';

const post = async (url, body) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    cache: 'no-store',
  });
  const data = await response.json().catch(() => ({}));
  if (data.location) return data;
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
};

const showError = (box, shown) => {
  const error = box.querySelector('[data-passkey-error]');
  if (error) error.hidden = !shown;
};

/** Ends a ceremony: on to the page the server names, or the error line (the person may try again). */
const finish = async (box, verifyUrl, csrf, response) => {
  const { location: next } = await post(verifyUrl, { csrf, response });
  if (next) location.assign(next);
  else showError(box, true);
};

const signIn = (box) => {
  const { optionsUrl, verifyUrl, csrf } = box.dataset;
  const email = document.querySelector('#email');
  const button = box.querySelector('[data-passkey-button]');
  const capable = document.querySelector('input[name="passkeyCapable"]');
  if (!browserSupportsWebAuthn()) return;
  button.hidden = false;
  platformAuthenticatorIsAvailable().then((yes) => {
    if (yes && capable) capable.value = '1';
  });

  const run = async (autofill) => {
    const typed = autofill ? '' : (email?.value ?? '').trim();
    const optionsJSON = await post(optionsUrl, { csrf, autofill, ...(typed ? { email: typed } : {}) });
    const response = await startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
    await finish(box, verifyUrl, csrf, response);
  };

  button.addEventListener('click', () => {
    showError(box, false);
    run(false).catch((err) => {
      if (err?.name !== 'AbortError') showError(box, true);
    });
  });
  browserSupportsWebAuthnAutofill().then((yes) => {
    // Aborted when the person presses the button instead (a new ceremony replaces this one).
    if (yes && email) run(true).catch(() => {});
  });
};

const create = (box) => {
  const { optionsUrl, verifyUrl, csrf } = box.dataset;
  const button = box.querySelector('[data-passkey-button]');
  if (!browserSupportsWebAuthn()) return;
  button.hidden = false;
  button.addEventListener('click', () => {
    showError(box, false);
    (async () => {
      const optionsJSON = await post(optionsUrl, { csrf });
      const response = await startRegistration({ optionsJSON });
      await finish(box, verifyUrl, csrf, response);
    })().catch(() => showError(box, true));
  });
};

for (const box of document.querySelectorAll('[data-passkey-sign-in]')) signIn(box);
for (const box of document.querySelectorAll('[data-passkey-create]')) create(box);
