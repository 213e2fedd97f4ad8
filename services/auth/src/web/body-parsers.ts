import { strictUrlencoded } from '@sesame/platform';
import express from 'express';

/**
 * The body of a hosted page's form (a CSRF token, a code, a choice): URL-encoded, at most 8 KB; a broken
 * percent-encoding or bytes that are not UTF-8 are a 400.
 */
export const form = strictUrlencoded('8kb');

/** The passkey script's JSON (WebAuthn options requests and responses): at most 32 KB. */
export const json = express.json({ limit: '32kb' });
