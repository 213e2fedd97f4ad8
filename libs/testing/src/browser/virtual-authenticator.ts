import type { CDPSession, Page } from 'playwright-core';

/** A credential the virtual authenticator holds, as CDP's WebAuthn.getCredentials reports it (binary as base64). */
export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
  userName?: string;
}

export interface VirtualAuthenticator {
  authenticatorId: string;
  /** The credentials registered on it so far. */
  credentials(): Promise<VirtualCredential[]>;
  /** Whether it reports user verification as done (true at first); false makes a UV-required ceremony fail. */
  setUserVerified(verified: boolean): Promise<void>;
  cdp: CDPSession;
}

/**
 * A platform passkey authenticator for the page, through Chromium's DevTools WebAuthn domain: CTAP2,
 * internal transport, resident (discoverable) keys and user verification, with presence and verification
 * answered automatically so navigator.credentials.create/get resolve without any prompt.
 */
export async function virtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    authenticatorId,
    cdp,
    async credentials() {
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      return credentials;
    },
    async setUserVerified(isUserVerified) {
      await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified });
    },
  };
}
