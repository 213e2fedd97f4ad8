/**
 * Child process of bench/rp.bench.ts: autocannon (programmatic API) POSTing form bodies to token.
 *   refresh <url> <tokens.json> <client_id> <client_secret> <connections> <seconds>
 *       grant_type=refresh_token, each request with a live refresh token: a pool of pre-issued ones, each
 *       answer's rotated token going back to the pool (a token is used once, as rotation requires)
 *   form <url> <body> <connections> <seconds>     the same form body on every request
 * Prints autocannon's JSON result.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const [mode, url, ...args] = process.argv.slice(2);
const form = { 'content-type': 'application/x-www-form-urlencoded' };

async function refresh(tokensFile: string, clientId: string, clientSecret: string, c: string, s: string) {
  const pool = JSON.parse(readFileSync(tokensFile, 'utf8')) as string[];
  return autocannon({
    url: url!,
    connections: Number(c),
    duration: Number(s),
    requests: [
      {
        method: 'POST',
        headers: form,
        setupRequest: (req) => {
          const token = pool.shift();
          if (token === undefined) throw new Error('ran out of refresh tokens');
          const body = new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: token,
            client_id: clientId,
            client_secret: clientSecret,
          }).toString();
          return { ...req, body };
        },
        onResponse: (status, body) => {
          if (status === 200) pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
        },
      },
    ],
  });
}

const result =
  mode === 'refresh'
    ? await refresh(args[0]!, args[1]!, args[2]!, args[3]!, args[4]!)
    : await autocannon({
        url: url!,
        connections: Number(args[1]),
        duration: Number(args[2]),
        method: 'POST',
        headers: form,
        body: args[0]!,
      });
process.stdout.write(JSON.stringify(result));
