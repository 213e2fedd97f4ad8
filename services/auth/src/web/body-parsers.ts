import express from 'express';

/** The body of a hosted page's form (a CSRF token, a code, a choice): URL-encoded, at most 8 KB. */
export const form = express.urlencoded({ extended: false, limit: '8kb' });

/** The passkey script's JSON (WebAuthn options requests and responses): at most 32 KB. */
export const json = express.json({ limit: '32kb' });
