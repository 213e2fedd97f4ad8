import assert from 'node:assert/strict';
import { assetFiles } from '../pages/asset-files';

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The box a page offers passkey creation in, for the passkey script: its options and verify URLs under `base`
 * (`/flow/f1` gives `/flow/f1/passkey/create-options` and `/flow/f1/passkey/create`) and the CSRF token csrf-1.
 */
export function assertPasskeyCreationBox(html: string, base: string): void {
  const box = `data-passkey-create data-options-url="${base}/passkey/create-options" data-verify-url="${base}/passkey/create" data-csrf="csrf-1"`;
  assert.match(html, new RegExp(escaped(box)));
}

/** The hidden Create a passkey button the script reveals, and the script itself (by its hashed name). */
export function assertPasskeyButtonAndScript(html: string): void {
  assert.match(html, /<button type="button" data-passkey-button hidden>Create a passkey<\/button>/);
  const script = assetFiles().get('passkeys.js')!;
  assert.ok(html.includes(`<script src="/assets/${script.hashedName}" defer></script>`));
}
