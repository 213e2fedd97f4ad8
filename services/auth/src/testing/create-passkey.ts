import { SoftwareAuthenticator } from '../passkeys/software-authenticator';
import type { TestBrowser } from './hosted-test-client';

/**
 * Creates a passkey as the passkey script does on a page that offers one under `base` (a flow's path): asks
 * `{base}/passkey/create-options`, has a new software authenticator answer them for http://localhost, and
 * posts that to `{base}/passkey/create`. Returns the authenticator and the answer to the create.
 */
export async function createPasskey(browser: TestBrowser, base: string, csrf: string) {
  const options = await browser.request(`${base}/passkey/create-options`, { json: { csrf } });
  const authenticator = new SoftwareAuthenticator();
  const created = await browser.request(`${base}/passkey/create`, {
    json: { csrf, response: authenticator.create(JSON.parse(options.body), { origin: 'http://localhost' }) },
  });
  return { authenticator, created };
}
