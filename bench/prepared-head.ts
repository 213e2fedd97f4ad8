/**
 * The CPU of writing a static document's head, without sockets: node's writeHead with the prepared header list
 * (which validates every name and value again) against writePreparedHead (validated once, when prepared), for
 * the headers /jwks sends. Each response is built on a socketless ServerResponse, so only the head is measured:
 *
 *   node --import tsx bench/prepared-head.ts        (BENCH_ROUNDS=7, 100,000 responses a round)
 *
 * Rounds alternate the two ways, so drift in the machine's load hits both.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { prepareAnswer, securityHeaders, writePreparedHead } from '@sesame/platform';

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const perRound = 100_000;
const jwksHeaders = ['Content-Type', 'application/json', 'Cache-Control', 'no-store, must-revalidate'];
const answer = prepareAnswer(Buffer.alloc(2500, 'a'), [
  ...securityHeaders().flat(),
  'Access-Control-Allow-Origin',
  '*',
  ...jwksHeaders,
  'Pragma',
  'no-cache',
]);
const req = new IncomingMessage(new Socket());

function microsPerHead(prepared: boolean): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < perRound; i++) {
    const res = new ServerResponse(req);
    if (prepared) writePreparedHead(res, 200, answer.ok, answer.okFields, 'req-1');
    else {
      answer.ok[answer.ok.length - 1] = 'req-1';
      res.writeHead(200, answer.ok);
    }
  }
  return Number(process.hrtime.bigint() - started) / perRound / 1000;
}

const list: number[] = [];
const prepared: number[] = [];
for (let round = 0; round < rounds; round++) {
  list.push(microsPerHead(false));
  prepared.push(microsPerHead(true));
}
const spread = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return [sorted[0]!, sorted[Math.floor(sorted.length / 2)]!, sorted.at(-1)!]
    .map((x) => x.toFixed(2))
    .join('/');
};
console.log(`${answer.ok.length / 2} headers; µs per response head, min/median/max of ${rounds} rounds:`);
console.log(`  writeHead(status, list)   ${spread(list)}`);
console.log(`  writePreparedHead         ${spread(prepared)}`);
