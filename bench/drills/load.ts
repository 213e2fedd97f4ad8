/**
 * The drills' load: virtual users doing complete email-code sign-ins over plain HTTP (the sign-in bench's
 * steps: /authorize, email, the mailed code from the test mailbox, verify, continue, consent, the code
 * redeemed at /token and the ID token's nonce and email checked) and others doing client_credentials, back to
 * back, through the load balancer. Every HTTP answer is counted; an unexpected one is a failure (a 503 is
 * told apart by whether it carries Retry-After), and the sign-in it belonged to is abandoned for a new one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mailbox } from '@sesame/testing';

export interface LoadTarget {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  credentialsId: string;
  apiSecret: string;
}

export interface Failure {
  at: number;
  status: string;
  what: string;
}

export interface LoadResult {
  requests: number;
  failures: Failure[];
  /** Longest time without any successful answer while the load ran. */
  longestGapMs: number;
  /** flowIds of sign-ins that ended with a verified ID token. */
  completedFlows: string[];
  signIns: number;
  clientCredentials: number;
  /** Every access token the load was answered (to check afterwards that none was forgotten). */
  issued: Array<{ at: number; kind: 'sign-in' | 'client_credentials'; accessToken: string }>;
}

class Abandon extends Error {}

const USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const formActionOf = (html: string) => /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';

export function startLoad(target: LoadTarget, opts: { signInUsers?: number; ccUsers?: number } = {}) {
  const box = mailbox();
  const runId = randomBytes(4).toString('hex');
  const started = Date.now();
  const result: LoadResult = {
    requests: 0,
    failures: [],
    longestGapMs: 0,
    completedFlows: [],
    signIns: 0,
    clientCredentials: 0,
    issued: [],
  };
  let lastOk = started;
  let running = true;
  let n = 0;

  /** One HTTP request through the balancer; an answer other than `expected` is a failure and abandons. */
  const call = async (
    what: string,
    url: string,
    init: RequestInit,
    expected: number[],
  ): Promise<{ status: number; location: string; body: string; res: Response }> => {
    result.requests++;
    let res: Response;
    try {
      res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    } catch (err) {
      const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
      result.failures.push({
        at: Date.now(),
        status: 'network',
        what: `${what}: ${(err as Error).message}${cause ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''}`,
      });
      throw new Abandon();
    }
    const body = await res.text();
    if (!expected.includes(res.status)) {
      const status =
        res.status === 503 && !res.headers.get('retry-after')
          ? '503-without-retry-after'
          : String(res.status);
      result.failures.push({ at: Date.now(), status, what: `${what}: ${body.slice(0, 200)}` });
      throw new Abandon();
    }
    const now = Date.now();
    result.longestGapMs = Math.max(result.longestGapMs, now - lastOk);
    lastOk = now;
    return { status: res.status, location: res.headers.get('location') ?? '', body, res };
  };

  const signIn = async () => {
    const jar = new Map<string, string>();
    const browse = async (what: string, path: string, expected: number[], form?: Record<string, string>) => {
      const headers: Record<string, string> = { 'user-agent': USER_AGENT };
      if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
      const answer = await call(
        what,
        new URL(path, target.authUrl).href,
        {
          method: form ? 'POST' : 'GET',
          headers,
          body: form ? new URLSearchParams(form).toString() : undefined,
        },
        expected,
      );
      for (const c of answer.res.headers.getSetCookie()) {
        const [pair = ''] = c.split(';');
        const eq = pair.indexOf('=');
        if (eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      return answer;
    };
    const email = `drill-${runId}-${++n}@example.com`;
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(12).toString('base64url');
    const nonce = randomBytes(12).toString('base64url');
    const query = new URLSearchParams({
      client_id: target.clientId,
      redirect_uri: target.redirectUri,
      response_type: 'code',
      scope: 'openid email',
      state,
      nonce,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const identify = await browse('authorize', `/authorize?${query}`, [200]);
    const csrf = csrfOf(identify.body);
    const action = formActionOf(identify.body);
    const flow = /^\/flow\/[\w-]+/.exec(action)?.[0] ?? '';
    await browse('email', action, [303], { csrf, email });
    const mail = await box.waitForMessageTo(email, { timeoutMs: 30_000 }).catch(() => undefined);
    const code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1];
    if (!code) {
      result.failures.push({ at: Date.now(), status: 'no-mail', what: `no code mailed to ${email}` });
      throw new Abandon();
    }
    await browse('verify', `${flow}/code`, [303], { csrf, code });
    let done = await browse('continue', `${flow}/continue`, [200, 302]);
    if (done.status === 200)
      done = await browse('consent', `${flow}/consent`, [302], {
        csrf: csrfOf(done.body),
        decision: 'approve',
      });
    const callback = new URL(done.location);
    const authCode = callback.searchParams.get('code') ?? '';
    const basic = Buffer.from(
      `${encodeURIComponent(target.clientId)}:${encodeURIComponent(target.clientSecret)}`,
    ).toString('base64');
    const tokens = await call(
      'token (code)',
      new URL('/token', target.authUrl).href,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: authCode,
          redirect_uri: target.redirectUri,
          code_verifier: verifier,
        }),
      },
      [200],
    );
    const answer = JSON.parse(tokens.body) as { id_token?: string; access_token?: string };
    const idToken = answer.id_token ?? '';
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString() || '{}') as {
      nonce?: string;
      email?: string;
    };
    if (claims.nonce !== nonce || claims.email !== email || callback.searchParams.get('state') !== state) {
      result.failures.push({ at: Date.now(), status: 'wrong-answer', what: JSON.stringify(claims) });
      throw new Abandon();
    }
    result.issued.push({ at: Date.now(), kind: 'sign-in', accessToken: answer.access_token ?? '' });
    result.completedFlows.push(flow.slice('/flow/'.length));
    result.signIns++;
  };

  const clientCredentials = async () => {
    const { body } = await call(
      'token (client_credentials)',
      new URL('/token', target.authUrl).href,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: target.credentialsId,
          client_secret: target.apiSecret,
          scope: 'svc_admin_api',
        }),
      },
      [200],
    );
    const accessToken = (JSON.parse(body) as { access_token?: string }).access_token ?? '';
    result.issued.push({ at: Date.now(), kind: 'client_credentials', accessToken });
    result.clientCredentials++;
  };

  const user = async (one: () => Promise<void>) => {
    while (running) {
      try {
        await one();
      } catch (err) {
        if (!(err instanceof Abandon)) throw err;
        await new Promise((r) => setTimeout(r, 50)); // a failed client waits a moment, as Retry-After asks
      }
    }
  };
  const users = [
    ...Array.from({ length: opts.signInUsers ?? 3 }, () => user(signIn)),
    ...Array.from({ length: opts.ccUsers ?? 2 }, () => user(clientCredentials)),
  ];
  return {
    result,
    async stop(): Promise<LoadResult> {
      running = false;
      await Promise.all(users);
      return result;
    },
  };
}
