/**
 * Child process of bench/ciba.bench.ts: autocannon (programmatic API, because every request needs its own
 * auth_req_id) POSTing CIBA polls, cycling through pre-started requests so that none is polled faster than
 * its 1 s interval (that would be slow_down, counted as failed). The bench runs the bare hello-world phase
 * through this same generator (same bodies, same headers), so both phases cost the client the same.
 *   args: <url> <ids.json> <client_id> <client_secret> <connections> <seconds>
 * Prints autocannon's JSON result.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const [url, idsFile, clientId, clientSecret, connections, seconds] = process.argv.slice(2);
const ids = JSON.parse(readFileSync(idsFile!, 'utf8')) as string[];
// Bodies made up front, so the generator's own work per request stays as small as the bare phase's.
const bodies = ids.map((id) =>
  new URLSearchParams({ grant_type: 'urn:openid:params:grant-type:ciba', auth_req_id: id }).toString(),
);
const authorization = `Basic ${Buffer.from(`${encodeURIComponent(clientId!)}:${encodeURIComponent(clientSecret!)}`).toString('base64')}`;
let next = 0;

const result = await autocannon({
  url: url!,
  connections: Number(connections),
  duration: Number(seconds),
  requests: [
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
      setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length]! }),
    },
  ],
});
process.stdout.write(JSON.stringify({ ...result, polls: next }));
