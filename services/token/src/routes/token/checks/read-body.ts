import type { IncomingMessage } from 'node:http';
import { OAuthError } from '@sesame/platform';

export const MAX_BODY_BYTES = 16 * 1024;

const tooLarge = () => new OAuthError('invalid_request', 'request body too large', 413);

/**
 * Reads the (small) form body as UTF-8, refusing more than MAX_BODY_BYTES with 413. Hand-rolled rather
 * than body-parser: /token is the hottest path and needs none of its generality.
 */
export function readBody(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (err: OAuthError) => {
      if (settled) return;
      settled = true;
      reject(err);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) fail(tooLarge());
      else if (!settled) chunks.push(chunk);
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (err) =>
      fail(new OAuthError('invalid_request', `request body could not be read: ${err.message}`)),
    );
  });
}
