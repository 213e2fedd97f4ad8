/**
 * Child process of bench/token.bench.ts: autocannon (programmatic API, because every request needs its own
 * code) POSTing authorization_code redemptions, each with the next pre-issued code from a JSON file.
 *   args: <url> <codes.json> <client_id> <client_secret> <redirect_uri> <connections> <seconds>
 * Prints autocannon's JSON result.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const [url, codesFile, clientId, clientSecret, redirectUri, connections, seconds] = process.argv.slice(2);
const codes = JSON.parse(readFileSync(codesFile!, 'utf8')) as string[];
let next = 0;

const result = await autocannon({
  url: url!,
  connections: Number(connections),
  duration: Number(seconds),
  requests: [
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      setupRequest: (req) => {
        const code = codes[next++];
        if (code === undefined) throw new Error('ran out of pre-issued codes');
        const body = new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri!,
          client_id: clientId!,
          client_secret: clientSecret!,
        }).toString();
        return { ...req, body };
      },
    },
  ],
});
process.stdout.write(JSON.stringify({ ...result, codesUsed: next }));
