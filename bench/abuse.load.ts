/**
 * Abusive senders against the message limits (issue 26), in one run of the embedded platform (in-memory
 * stores, development outboxes; the limits' defaults):
 *
 *   node --import tsx bench/abuse.load.ts        (ABUSE_CONCURRENCY=20)
 *
 * - 1,000 CIBA SMS requests to one number from one client, then 1,000 to distinct numbers from the same
 *   client: exactly SESAME_CIBA_SMS_PER_NUMBER (5, per number and tenant) reach the number, and exactly
 *   SESAME_CIBA_SMS_PER_CLIENT (100) leave for the client in all; every other answer is 403 access_denied.
 *   Then another tenant's RP texts that same number: it is not held by the abuser's count (issue 35).
 * - 100 send-activation calls for one address: exactly SESAME_ACTIVATION_MAILS_PER_ADDRESS (5) mails; the
 *   rest 429 too_many_requests.
 * - Meanwhile another tenant's people sign in (email code, to the redirect with a code) and its RP sends
 *   CIBA SMS from another address: every one succeeds.
 *
 * No answer may be a 5xx. Prints one JSON summary; exits 1 when a limit did not hold exactly, a 5xx was
 * seen, or a legitimate request failed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { startEmbedded } from '@sesame/embedded';
import { deliveryMetrics } from '@sesame/platform';

const concurrency = Number(process.env.ABUSE_CONCURRENCY ?? 20);
const ABUSER_IP = '203.0.113.66';
const LEGIT_IP = '198.51.100.7';
const REDIRECT = 'http://localhost:3000/callback';

const platform = await startEmbedded({
  port: 0,
  seedDemo: true,
  env: { LOG_LEVEL: 'silent', SESAME_ENV: 'development' },
});
const base = platform.url;

async function admin<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${platform.adminKey}` },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Runs `n` tasks, `concurrency` at a time; resolves with their results in order. */
async function pool<T>(n: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await task(i);
      }
    }),
  );
  return out;
}

const histogram = (statuses: number[]) =>
  statuses.reduce<Record<string, number>>((h, s) => {
    h[s] = (h[s] ?? 0) + 1;
    return h;
  }, {});

// The abusive tenant: a CIBA client and API credentials for send-activation.
const { tenantId: abuserTenant } = await admin<{ tenantId: string }>('/api/v1/admin/tenants', {
  name: 'Abuser',
});
const abuser = await admin<{ clientId: string; clientSecret: string }>(
  `/api/v1/admin/tenants/${abuserTenant}/applications`,
  { name: 'Spam', redirectUris: [REDIRECT], registrationRedirectUri: REDIRECT, ciba: { mode: 'poll' } },
);
const creds = await admin<{ credentialsId: string; apiSecret: string }>(
  `/api/v1/admin/tenants/${abuserTenant}/credentials`,
  {},
);
// The legitimate tenant (the seeded demo): a CIBA client of its own.
const demo = platform.demo!;
const legitCiba = await admin<{ clientId: string; clientSecret: string }>(
  `/api/v1/admin/tenants/${demo.tenantId}/applications`,
  { name: 'Bank', redirectUris: [REDIRECT], ciba: { mode: 'poll' } },
);

const cibaSms = (client: { clientId: string; clientSecret: string }, target: string, ip: string) =>
  fetch(`${base}/authorize_ciba`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    body: new URLSearchParams({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'openid',
      channel: JSON.stringify({ type: 'sms', target }),
    }).toString(),
  }).then(async (res) => ({ status: res.status, error: ((await res.json()) as { error?: string }).error }));

/** Texts in the development outbox (it keeps the last 200: more than this run sends) per destination. */
const outboxTo = async (match: (to: string) => boolean) =>
  (
    (await (await fetch(`${base}/dev/sms.json`)).json()) as { messages: Array<{ to: string }> }
  ).messages.filter((m) => match(m.to)).length;
const ONE_NUMBER = '+41790000001';
const isAbuserNumber = (to: string) => to.startsWith('+4179');
const mailSent = async () =>
  (await deliveryMetrics('mail').messages.get()).values
    .filter((v) => v.labels.outcome === 'sent')
    .reduce((n, v) => n + v.value, 0);
// The limiter's counter, as the auth service's registry exports it (shared process-wide).
const limitDecisions = () =>
  platform.services.auth!.metrics.registry.getSingleMetric('sesame_message_limit_decisions_total')!;
const refusedBy = async () =>
  Object.fromEntries(
    (await limitDecisions().get()).values
      .filter((v) => v.labels.outcome === 'refused')
      .map((v) => [`${v.labels.purpose}/${v.labels.limit}`, v.value]),
  );

/** One email-code sign-in of the demo app over plain HTTP, code read from the development outbox. */
async function legitSignIn(i: number): Promise<boolean> {
  const jar = new Map<string, string>();
  const email = `person-${i}-${randomBytes(4).toString('hex')}@example.com`;
  const request = async (path: string, form?: Record<string, string>) => {
    const res = await fetch(new URL(path, base), {
      method: form ? 'POST' : 'GET',
      headers: {
        'x-forwarded-for': `198.51.100.${10 + i}`,
        ...(jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: 'manual',
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return { status: res.status, location: res.headers.get('location') ?? '', body: await res.text() };
  };
  const verifier = randomBytes(32).toString('base64url');
  const identify = await request(
    `/authorize?${new URLSearchParams({
      client_id: demo.clientId,
      redirect_uri: demo.redirectUri,
      response_type: 'code',
      scope: 'openid email',
      state: `s-${i}`,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    })}`,
  );
  const csrf = /name="csrf" value="([^"]+)"/.exec(identify.body)?.[1] ?? '';
  const action = /<form method="post" action="([^"]+)"/.exec(identify.body)?.[1] ?? '';
  const flow = /^\/flow\/[\w-]+/.exec(action)?.[0];
  if (identify.status !== 200 || !csrf || !flow) return false;
  const sent = await request(action, { csrf, email });
  if (sent.status !== 303) return false;
  const mails = (await (await fetch(`${base}/dev/mail.json?to=${encodeURIComponent(email)}`)).json()) as {
    messages: Array<{ text: string }>;
  };
  const code = /\b(\d{6})\b/.exec(mails.messages[0]?.text ?? '')?.[1];
  if (!code) return false;
  const verified = await request(`${flow}/code`, { csrf, code });
  if (verified.status !== 303) return false;
  let done = await request(`${flow}/continue`);
  if (done.status === 200 && />Approve</.test(done.body)) {
    const consentCsrf = /name="csrf" value="([^"]+)"/.exec(done.body)?.[1] ?? csrf;
    done = await request(`${flow}/consent`, { csrf: consentCsrf, decision: 'approve' });
  }
  return done.status === 302 && new URL(done.location).searchParams.has('code');
}

const started = Date.now();
const mailBefore = await mailSent();

// The legitimate tenant works all through the abuse.
const legit = (async () => {
  const results: boolean[] = [];
  for (let round = 0; round < 4; round++) {
    const [signIns, sms] = await Promise.all([
      Promise.all([0, 1].map((k) => legitSignIn(round * 2 + k))),
      cibaSms(legitCiba, `+4176000000${round}`, LEGIT_IP),
    ]);
    results.push(...signIns, sms.status === 200);
  }
  return results;
})();

const oneNumber = await pool(1000, () => cibaSms(abuser, ONE_NUMBER, ABUSER_IP));
// The number's allowance is per tenant: the legitimate tenant may still text it (one of its own 5).
const otherTenantToOneNumber = await cibaSms(legitCiba, ONE_NUMBER, LEGIT_IP);
const distinct = await pool(1000, (i) => cibaSms(abuser, `+4179${String(1_000_000 + i)}`, ABUSER_IP));

const token = (await (
  await fetch(`${base}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: creds.credentialsId,
      client_secret: creds.apiSecret,
      scope: 'svc_admin_api',
    }).toString(),
  })
).json()) as { access_token: string };
const invitations = await pool(100, () =>
  fetch(`${base}/api/v1/mgmt/send-activation`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token.access_token}`,
      'x-forwarded-for': ABUSER_IP,
    },
    body: JSON.stringify({
      clientId: abuser.clientId,
      credentialsId: creds.credentialsId,
      userEmail: 'victim@example.com',
      scopes: ['email'],
      verifications: [],
      confirmedUser: false,
    }),
  }).then((res) => res.status),
);
const legitResults = await legit;
const toOneNumber = await outboxTo((to) => to === ONE_NUMBER);
// The legitimate tenant's one SMS to ONE_NUMBER is not the abuser's.
const otherTenantSent = otherTenantToOneNumber.status === 200 ? 1 : 0;
const abuserSent = (await outboxTo(isAbuserNumber)) - otherTenantSent;
const legitSms = await outboxTo((to) => to.startsWith('+4176'));
const mailsToVictim = (
  (await (await fetch(`${base}/dev/mail.json?to=victim%40example.com`)).json()) as { messages: unknown[] }
).messages.length;

const all = [...oneNumber.map((r) => r.status), ...distinct.map((r) => r.status), ...invitations];
const summary = {
  seconds: (Date.now() - started) / 1000,
  smsToOneNumber: {
    requests: 1000,
    statuses: histogram(oneNumber.map((r) => r.status)),
    sent: toOneNumber,
    otherTenantStatus: otherTenantToOneNumber.status,
  },
  smsToDistinctNumbers: {
    requests: 1000,
    statuses: histogram(distinct.map((r) => r.status)),
    sent: abuserSent - (toOneNumber - otherTenantSent),
  },
  abuserSmsSentInAll: abuserSent,
  legitimateSmsSent: legitSms,
  registrationMailsToOneAddress: { requests: 100, statuses: histogram(invitations), mailed: mailsToVictim },
  refusalsByLimit: await refusedBy(),
  fiveHundreds: all.filter((s) => s >= 500).length,
  legitimate: { attempts: legitResults.length, succeeded: legitResults.filter(Boolean).length },
  allMailSent: (await mailSent()) - mailBefore,
};
console.log(JSON.stringify(summary, null, 2));

const problems: string[] = [];
if (summary.smsToOneNumber.sent !== 6)
  problems.push(`${summary.smsToOneNumber.sent} SMS reached the one number, not 5 + the other tenant's 1`);
if (otherTenantToOneNumber.status !== 200)
  problems.push(`the other tenant's SMS to the abused number answered ${otherTenantToOneNumber.status}`);
if (summary.abuserSmsSentInAll !== 100)
  problems.push(`the client sent ${summary.abuserSmsSentInAll} SMS, not 100`);
if (mailsToVictim !== 5) problems.push(`${mailsToVictim} registration mails to one address, not 5`);
if (summary.fiveHundreds > 0) problems.push(`${summary.fiveHundreds} answers were 5xx`);
if (summary.legitimate.succeeded !== summary.legitimate.attempts)
  problems.push('a legitimate request failed');
for (const r of [...oneNumber, ...distinct])
  if (r.status !== 200 && !(r.status === 403 && r.error === 'access_denied'))
    problems.push(`CIBA answered ${r.status} ${r.error}`);
for (const s of invitations) if (s !== 200 && s !== 429) problems.push(`send-activation answered ${s}`);
await platform.stop();
if (problems.length) {
  console.error([...new Set(problems)].join('\n'));
  process.exit(1);
}
process.exit(0);
