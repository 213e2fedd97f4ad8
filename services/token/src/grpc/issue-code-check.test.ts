import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { type Gen, seeded, testSeed } from '@sesame/testing';
import { issuedClaimsRequest, requestedClaimsOf } from '../grants/requested-claims';
import { plainlyValidIssueCode, requestSchema } from './issue-code';
import { authenticatedClaimsSchema } from './validate';

/**
 * Differential test of IssueCode's plain check against the zod schemas it stands in for, over generated
 * requests: valid ones (a sign-in's) and ones with a member missing, empty, of another type, past a pattern, a
 * claims request, or an object that is no plain `{}`. The plain check must never accept what zod refuses (nor a
 * request naming requested claims), and must accept every valid request without a claims request.
 */

const SEED = testSeed(30_112_026);
const REQUESTS = 4000;
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const zodAccepts = (r: Record<string, unknown>) =>
  requestSchema.safeParse(r).success &&
  authenticatedClaimsSchema.safeParse(r.claims).success &&
  issuedClaimsRequest.safeParse(r).success;

const device = (g: Gen) => ({
  deviceName: g.pick(['Chrome on Linux', 'iPhone', '']),
  osType: g.pick(['Linux', 'iOS']),
  osVersion: g.pick(['', '17.1']),
  ...(g.chance(0.3) ? { browserType: 'Chrome' } : {}),
});

function validRequest(g: Gen): Record<string, unknown> {
  const pkce = g.chance(0.7);
  return {
    tenantId: 't-1',
    appId: 'app-1',
    clientId: 'client-1',
    redirectUri: 'https://rp.example/cb',
    scope: g.pick(['openid email', '', 'openid']),
    codeChallenge: pkce ? g.text(B64, 43, 43) : '',
    codeChallengeMethod: pkce ? 'S256' : '',
    flowId: g.pick(['', '6f1c1a52-6d0f-4a43-a0a8-0d1f7f1c2b3a']),
    dpopJkt: g.chance(0.2) ? g.text(B64, 43, 43) : '',
    claims: {
      sub: 'user-1',
      authTime: g.int(1, 2_000_000_000),
      nonce: g.pick(['', 'n-1']),
      acr: g.some(['urn:a', 'urn:b']),
      amr: g.pick([['email_otp'], ['hwk', 'user']]),
      svcInfo: { originatingDevice: device(g), authenticatingDevice: device(g), newDevice: g.chance(0.5) },
      ...(g.chance(0.3) ? { email: 'a@example.com', emailVerified: true } : {}),
    },
    ...(g.chance(0.5) ? { login: { flowId: 'f', authenticatorId: '', deviceId: 'd', loginAt: 5 } } : {}),
  };
}

const ODD: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  [],
  [''],
  ['x'],
  {},
  'S256',
  'plain',
  'x'.repeat(42),
  `${'A'.repeat(42)}=`,
  `${'A'.repeat(43)}\n`,
  'A'.repeat(44),
  'A'.repeat(43),
  Object.create(null),
  new Date(0),
  { idToken: [], userinfo: [] },
  { idToken: ['email'], userinfo: [] },
  { id_token: { email: ['a@example.com'] } },
];

/** A valid request with one member (or a member of its claims or devices) changed to an odd value. */
function mutated(g: Gen): Record<string, unknown> {
  const r = validRequest(g);
  const claims = r.claims as Record<string, unknown>;
  const svcInfo = claims.svcInfo as Record<string, Record<string, unknown>>;
  const value = g.pick(ODD);
  const target = g.pick(['request', 'claims', 'svcInfo', 'device'] as const);
  if (target === 'request')
    r[
      g.pick([
        'tenantId',
        'appId',
        'clientId',
        'redirectUri',
        'scope',
        'codeChallenge',
        'codeChallengeMethod',
        'flowId',
        'dpopJkt',
        'claims',
        'requestedClaims',
        'requestedClaimValues',
      ])
    ] = value;
  else if (target === 'claims') claims[g.pick(['sub', 'authTime', 'acr', 'amr', 'svcInfo'])] = value;
  else if (target === 'svcInfo')
    svcInfo[g.pick(['originatingDevice', 'authenticatingDevice'])] = value as never;
  else svcInfo.originatingDevice![g.pick(['deviceName', 'osType', 'osVersion'])] = value;
  if (g.chance(0.1)) delete r[g.pick(['tenantId', 'codeChallengeMethod', 'dpopJkt', 'claims'])];
  return r;
}

describe('IssueCode: the plain check vs the zod schemas, over generated requests', () => {
  const g = seeded(SEED);

  it(`accepts every valid sign-in request without a claims request (seed ${SEED})`, () => {
    for (let i = 0; i < REQUESTS / 4; i++) {
      const r = validRequest(g);
      assert.ok(zodAccepts(r), `zod refuses a generated valid request: ${JSON.stringify(r)}`);
      assert.ok(plainlyValidIssueCode(r), `valid, yet left to zod: ${JSON.stringify(r)}`);
    }
  });

  it(`never accepts what zod refuses, nor a request that names requested claims (seed ${SEED})`, () => {
    let refused = 0;
    let plain = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const r = mutated(g);
      const zod = zodAccepts(r);
      if (!zod) refused++;
      if (!plainlyValidIssueCode(r)) continue;
      plain++;
      assert.ok(zod, `plainly valid but zod refuses: ${JSON.stringify(r)}`);
      assert.equal(
        requestedClaimsOf(issuedClaimsRequest.parse(r)),
        undefined,
        `plainly valid with requested claims: ${JSON.stringify(r)}`,
      );
    }
    // The generator reaches both sides: many refused, some still plainly valid (an odd value zod allows too).
    assert.ok(refused > REQUESTS / 2, `${refused} refused`);
    assert.ok(plain > 50, `${plain} plainly valid`);
  });
});
