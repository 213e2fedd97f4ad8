// Over 300 lines on purpose: one benchmark (the sign-in script, its modes and their interleaved rounds, one report).
/**
 * Complete email-code sign-ins per second over plain HTTP (no browser), from /authorize to the ID token,
 * with the server time of each step (p50/p95 of each HTTP request's latency as the client sees it), on the
 * embedded default and on the real test servers (issue 8, Performance).
 *
 *   npm run bench -- signin     (BENCH_SECONDS=10 BENCH_USERS=8; BENCH_SERVERS=embedded|real|both;
 *                                BENCH_STORE=memory|durable|both, BENCH_ROUNDS=3 for the embedded default)
 *
 * One sign-in is what a new visitor and the RP do:
 *   authorize   GET  /authorize (the demo app: PKCE S256, state, nonce, scope openid email)  → 200 identify
 *   email       POST /flow/:id/email (Continue)                                               → 303
 *   code-page   GET  /flow/:id                                                                → 200 code page
 *   (mail)      read the code: GET /dev/mail.json?to= (embedded) or the test mailbox API (real)
 *   verify      POST /flow/:id/code (Verify)                                                  → 303
 *   continue    GET  /flow/:id/continue                                          → 200 consent (or 302)
 *   consent     POST /flow/:id/consent (Approve), when consent was shown          → 302 redirect_uri?code=
 *   token       POST /token authorization_code + code_verifier (client_secret_basic)          → ID token
 * BENCH_USERS virtual users run sign-ins back to back. Each sign-in is a new browser (its own cookie jar:
 * TestBrowser from the auth service's tests, which keeps cookies and reads CSRF tokens) with an address no
 * one used before, so it is a new user who sees consent: the per-address resend throttle never trips, and
 * SESAME_MAILS_PER_IP is lifted because every virtual user is 127.0.0.1. The ID token's nonce and email are
 * checked; anything unexpected counts as a failed sign-in and is shown.
 *
 * embedded: bench/embedded.server.ts, SESAME_ENV=development for the dev outbox, on in-memory stores
 *           (BENCH_STORE=memory, the default; `SESAME_STORES=memory`) or on the durable engine in a fresh
 *           temp data dir (BENCH_STORE=durable, as `npm start` runs); BENCH_STORE=both runs BENCH_ROUNDS
 *           interleaved rounds (memory, durable, memory, durable, …; each a fresh platform) and prints the
 *           median sign-ins/s of each and the ratio durable ÷ memory (issue 36's goal: ≥ 0.8).
 * real:     the same platform on SESAME_REDIS_URL (database BENCH_REDIS_DB, default 13, which must be empty
 *           and is flushed afterwards), SESAME_KAFKA_BROKERS (activity-log in a consumer group of its own;
 *           it and the per-pod cache-eviction groups of token and auth are deleted afterwards), SESAME_MONGO_URL (an isolated database, dropped afterwards) and
 *           SESAME_SMTP_URL, reading codes through SESAME_TEST_MAILBOX_URL. Flow events stay in the shared
 *           topic (as every e2e run's do).
 * BENCH_SERVERS defaults to both when those variables are set (`eval "$(npm run -s infra -- env)"`), else
 * embedded. The platform runs in a child process; its CPU per sign-in is printed too.
 * BENCH_TRACING=both (issue 40's overhead target): every mode runs twice per round, untraced and traced
 * (`<mode>-traced`, order alternating from round to round), the traced platform exporting over OTLP at
 * BENCH_TRACING_RATIO (0.1) to bench/otlp-sink.ts, a stand-in collector in a process of its own; it prints
 * the spans exported per sign-in and the median of traced ÷ untraced per round. BENCH_TRACING=on: traced only.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestBrowser } from '@sesame/auth-service/test-client';
import type { DemoSeed } from '@sesame/embedded';
import { mailbox } from '@sesame/testing';
import { type SinkCounts, sinkCounts } from './otlp-sink';
import { prepareRealServers, realEnv } from './signin.real-servers';
import { cpuOf, loadAverage, median, quantile, rssOf, serve } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const users = Number(process.env.BENCH_USERS ?? 8);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const haveReal = [...realEnv, 'SESAME_TEST_MAILBOX_URL'].every((v) => process.env[v]);
const serversAsked = process.env.BENCH_SERVERS ?? (haveReal ? 'both' : 'embedded');
const storesAsked = process.env.BENCH_STORE ?? 'memory';
const stores = storesAsked === 'both' ? ['memory', 'durable'] : storesAsked.split(',');
for (const s of stores)
  if (s !== 'memory' && s !== 'durable') throw new Error(`BENCH_STORE: ${s}? (memory, durable or both)`);
const rounds = Number(process.env.BENCH_ROUNDS ?? (stores.length > 1 ? 3 : 1));
const embeddedModes = Array.from({ length: rounds }, () => stores.map((s) => `embedded-${s}`)).flat();
const tracingAsked = process.env.BENCH_TRACING ?? 'off';
const tracingRatio = process.env.BENCH_TRACING_RATIO ?? '0.1';
const tracedOf = (mode: string, round: number) =>
  tracingAsked === 'on'
    ? [`${mode}-traced`]
    : tracingAsked === 'both'
      ? round % 2 === 0
        ? [mode, `${mode}-traced`]
        : [`${mode}-traced`, mode]
      : [mode];
const modes = (serversAsked === 'both' ? ['embedded', 'real'] : serversAsked.split(','))
  .flatMap((m) => (m === 'embedded' ? embeddedModes : [m]))
  .flatMap((m, i) => tracedOf(m, i));
const STEPS = ['authorize', 'email', 'code-page', 'mail', 'verify', 'continue', 'consent', 'token'] as const;
type Step = (typeof STEPS)[number];
const runId = randomBytes(4).toString('hex');

/** How a virtual user gets the code mailed to `to` (a fresh address: the first mail to it is the one). */
type CodeReader = (to: string) => Promise<string>;

class SignInFailed extends Error {}

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];

function devOutboxReader(base: string): CodeReader {
  return async (to) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await fetch(`${base}/dev/mail.json?to=${encodeURIComponent(to)}`);
      const { messages } = (await res.json()) as { messages: Array<{ text: string }> };
      const code = messages[0] && codeIn(messages[0].text);
      if (code) return code;
      if (Date.now() > deadline) throw new SignInFailed(`mail: no code for ${to} in the dev outbox`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
}

function mailboxReader(): CodeReader {
  const box = mailbox();
  return async (to) => {
    const mail = await box.waitForMessageTo(to, { timeoutMs: 15_000 });
    const code = codeIn(mail.text);
    if (!code) throw new SignInFailed(`mail: no 6-digit code in "${mail.subject}"`);
    return code;
  };
}

interface Target {
  base: string;
  tokenUrl: string;
  demo: DemoSeed;
  readCode: CodeReader;
}

interface Tally {
  latencies: Record<Step, number[]>;
  completed: number;
  failures: string[];
}

const s256 = async (verifier: string) =>
  Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))).toString(
    'base64url',
  );

/** One complete sign-in by a new browser and a new address; each step's latency goes to `tally`. */
let signIns = 0;

async function signIn(target: Target, tally: Tally): Promise<void> {
  const { demo } = target;
  const browser = new TestBrowser(target.base);
  const email = `bench-${runId}-${++signIns}@example.com`;
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(12).toString('base64url');
  const nonce = randomBytes(12).toString('base64url');
  const timed = async <T>(step: Step, run: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await run();
    tally.latencies[step].push(performance.now() - start);
    return result;
  };
  const expect = (step: Step, res: { status: number; body: string }, status: number) => {
    if (res.status !== status)
      throw new SignInFailed(`${step}: HTTP ${res.status}, expected ${status}: ${res.body.slice(0, 160)}`);
  };

  const query = new URLSearchParams({
    client_id: demo.clientId,
    redirect_uri: demo.redirectUri,
    response_type: 'code',
    scope: 'openid email',
    state,
    nonce,
    code_challenge: await s256(verifier),
    code_challenge_method: 'S256',
  });
  const identify = await timed('authorize', () => browser.request(`/authorize?${query}`));
  expect('authorize', identify, 200);
  const emailAction = TestBrowser.formAction(identify.body);
  const flow = emailAction.replace(/\/email$/, '');
  const sent = await timed('email', () =>
    browser.request(emailAction, { form: { csrf: TestBrowser.csrf(identify.body), email } }),
  );
  expect('email', sent, 303);
  const codePage = await timed('code-page', () => browser.request(sent.location));
  expect('code-page', codePage, 200);
  const code = await timed('mail', () => target.readCode(email));
  const verified = await timed('verify', () =>
    browser.request(`${flow}/code`, { form: { csrf: TestBrowser.csrf(codePage.body), code } }),
  );
  expect('verify', verified, 303);
  let done = await timed('continue', () => browser.request(verified.location));
  if (done.status === 200) {
    const csrf = TestBrowser.csrf(done.body);
    done = await timed('consent', () =>
      browser.request(`${flow}/consent`, { form: { csrf, decision: 'approve' } }),
    );
  }
  expect('consent', done, 302);
  const callback = new URL(done.location);
  const authCode = callback.searchParams.get('code');
  if (!authCode || callback.searchParams.get('state') !== state)
    throw new SignInFailed(`redirect without code or with another state: ${done.location}`);

  const tokens = await timed('token', async () => {
    const res = await fetch(target.tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(demo.clientId)}:${encodeURIComponent(demo.clientSecret)}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: authCode,
        redirect_uri: demo.redirectUri,
        code_verifier: verifier,
      }),
    });
    return { status: res.status, body: await res.text() };
  });
  expect('token', tokens, 200);
  const idToken = (JSON.parse(tokens.body) as { id_token?: string }).id_token ?? '';
  const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString() || '{}') as {
    nonce?: string;
    email?: string;
    sub?: string;
  };
  if (claims.nonce !== nonce || claims.email !== email || !claims.sub)
    throw new SignInFailed(`ID token without the expected nonce, email and sub: ${JSON.stringify(claims)}`);
  tally.completed++;
}

/** BENCH_USERS virtual users signing in back to back for `duration` seconds. */
async function drive(target: Target, duration: number, pids: number[]) {
  const tally: Tally = {
    latencies: Object.fromEntries(STEPS.map((s) => [s, []])) as unknown as Record<Step, number[]>,
    completed: 0,
    failures: [],
  };
  const cpu = cpuOf(pids);
  const start = performance.now();
  const deadline = start + duration * 1000;
  await Promise.all(
    Array.from({ length: users }, async () => {
      while (performance.now() < deadline) {
        try {
          await signIn(target, tally);
        } catch (err) {
          if (!(err instanceof SignInFailed)) throw err;
          tally.failures.push(err.message);
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return { ...tally, elapsed, cpuUs: (cpuOf(pids) - cpu) / Math.max(1, tally.completed) };
}

function report(mode: string, r: Awaited<ReturnType<typeof drive>>) {
  console.log(
    `  ${mode}: ${r.completed} sign-ins in ${r.elapsed.toFixed(1)} s = ${(r.completed / r.elapsed).toFixed(1)} sign-ins/s` +
      ` (${users} virtual users; platform CPU ${(r.cpuUs / 1000).toFixed(1)} ms per sign-in; failed ${r.failures.length})`,
  );
  console.log(`    ${'step'.padEnd(10)} ${'n'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}`);
  for (const step of STEPS) {
    const xs = r.latencies[step];
    const note = step === 'mail' ? '  (reading the code: not a server step)' : '';
    console.log(
      `    ${step.padEnd(10)} ${String(xs.length).padStart(6)} ${quantile(xs, 0.5).toFixed(1).padStart(8)} ${quantile(xs, 0.95).toFixed(1).padStart(8)}${note}`,
    );
  }
  for (const f of [...new Set(r.failures)].slice(0, 5)) console.log(`    failure: ${f}`);
}

/** Starts the platform for a mode; `cleanup` removes everything it stored. */
async function startMode(tracedMode: string) {
  const mode = tracedMode.replace(/-traced$/, '');
  const otel: Record<string, string> =
    tracedMode === mode
      ? {}
      : { OTEL_EXPORTER_OTLP_ENDPOINT: (await sink()).url, OTEL_TRACES_SAMPLER_ARG: tracingRatio };
  if (mode.startsWith('embedded-')) {
    const env = { SESAME_ENV: 'development', SESAME_MAILS_PER_IP: '100000' };
    const dataDir = mode === 'embedded-durable' ? await mkdtemp(join(tmpdir(), 'sesame-bench-')) : '';
    // BENCH_CPU_PROF=<dir>: the platform writes a V8 CPU profile there (bench/cpu-profile-top.ts reads it).
    const prof = process.env.BENCH_CPU_PROF;
    const platform = await serve<{ url: string; demo: DemoSeed }>(
      'embedded.server.ts',
      [JSON.stringify(env), dataDir],
      prof ? ['--cpu-prof', '--cpu-prof-dir', join(prof, tracedMode)] : [],
      otel,
    );
    const base = platform.url.replace('localhost', '127.0.0.1');
    const cleanup = async () => {
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    };
    return { platform, base, readCode: devOutboxReader(base), cleanup };
  }
  if (mode !== 'real') throw new Error(`BENCH_SERVERS: unknown mode ${mode} (embedded, real or both)`);
  const { env, cleanup } = await prepareRealServers(runId);
  try {
    const platform = await serve<{ url: string; demo: DemoSeed }>(
      'embedded.server.ts',
      [JSON.stringify(env)],
      [],
      otel,
    );
    return {
      platform,
      base: platform.url.replace('localhost', '127.0.0.1'),
      readCode: mailboxReader(),
      cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** The stand-in collector of the traced modes, started with the first of them. */
let sinkStarted: ReturnType<typeof serve<{ url: string }>> | undefined;
const sink = () => {
  sinkStarted ??= serve<{ url: string }>('otlp-sink.ts', []);
  return sinkStarted;
};
const spansPerSignIn: Record<string, number[]> = {};
const spanNames: Record<string, number> = {};
let signInsTraced = 0;

console.log(
  `sign-in benchmark: ${users} virtual users, ${seconds} s per mode after ${warmupSeconds} s warm-up; modes ${modes.join(', ')}; load average ${loadAverage()}`,
);
const rates: Record<string, number[]> = {};
const cpus: Record<string, number[]> = {};
for (const mode of modes) {
  const { platform, base, readCode, cleanup } = await startMode(mode);
  try {
    const discovery = (await (await fetch(`${base}/.well-known/openid-configuration`)).json()) as {
      token_endpoint: string;
    };
    const target: Target = {
      base,
      tokenUrl: new URL(new URL(discovery.token_endpoint).pathname, base).href,
      demo: platform.demo,
      readCode,
    };
    await drive(target, warmupSeconds, [platform.pid]);
    const traced = mode.endsWith('-traced');
    let spansBefore: SinkCounts | undefined;
    if (traced) {
      // The warm-up's spans reach the sink within the exporter's 1 s batch delay.
      await new Promise((r) => setTimeout(r, 1500));
      spansBefore = await sinkCounts((await sink()).url);
    }
    const rssBefore = rssOf(platform.pid);
    const run = await drive(target, seconds, [platform.pid]);
    report(`${mode} (load average ${loadAverage()})`, run);
    if (spansBefore) {
      const rssAfter = rssOf(platform.pid);
      await platform.stop(); // flushes the exporter's last batch
      const after = await sinkCounts((await sink()).url);
      const spans = after.spans - spansBefore.spans;
      spansPerSignIn[mode] = [...(spansPerSignIn[mode] ?? []), spans / Math.max(1, run.completed)];
      for (const [name, n] of Object.entries(after.byName))
        spanNames[name] = (spanNames[name] ?? 0) + n - (spansBefore.byName[name] ?? 0);
      signInsTraced += run.completed;
      console.log(
        `    spans exported: ${spans} in ${after.traces - spansBefore.traces} traces = ${(spans / Math.max(1, run.completed)).toFixed(2)} per sign-in (ratio ${tracingRatio})`,
      );
      console.log(
        `    RSS ${(rssBefore / 2 ** 20).toFixed(0)} -> ${(rssAfter / 2 ** 20).toFixed(0)} MiB over ${run.completed} new users`,
      );
      rates[mode] = [...(rates[mode] ?? []), run.completed / run.elapsed];
      cpus[mode] = [...(cpus[mode] ?? []), run.cpuUs];
      continue;
    }
    rates[mode] = [...(rates[mode] ?? []), run.completed / run.elapsed];
    cpus[mode] = [...(cpus[mode] ?? []), run.cpuUs];
    // Every sign-in is a new user: what the platform keeps per active user (in memory when embedded).
    const perUser = (rssOf(platform.pid) - rssBefore) / Math.max(1, run.completed);
    console.log(
      `    RSS ${(rssBefore / 2 ** 20).toFixed(0)} -> ${(rssOf(platform.pid) / 2 ** 20).toFixed(0)} MiB over ${run.completed} new users: ${(perUser / 1024).toFixed(1)} KiB per signed-in user`,
    );
  } finally {
    await platform.stop();
    await cleanup();
  }
}
for (const [mode, xs] of Object.entries(rates))
  console.log(
    `  ${mode}: median ${median(xs).toFixed(1)} sign-ins/s over ${xs.length} round(s): ${xs.map((x) => x.toFixed(1)).join(', ')}`,
  );
const [memory, durable] = [rates['embedded-memory'], rates['embedded-durable']];
if (memory && durable) {
  // Per-round ratios (each durable round beside the memory round just before it) and their median, and
  // the same for CPU per sign-in (memory ÷ durable), which other load on a shared machine changes less.
  const per = durable.map((d, i) => d / memory[i]!);
  const perCpu = cpus['embedded-durable']!.map((d, i) => cpus['embedded-memory']![i]! / d);
  console.log(
    `  durable ÷ memory sign-ins/s: median ${median(per).toFixed(2)} [${per.map((x) => x.toFixed(2)).join(', ')}] (goal >= 0.8)`,
  );
  console.log(
    `  CPU per sign-in, memory ÷ durable: median ${median(perCpu).toFixed(2)} [${perCpu.map((x) => x.toFixed(2)).join(', ')}]`,
  );
}
for (const [mode, perSignIn] of Object.entries(spansPerSignIn)) {
  const untraced = mode.replace(/-traced$/, '');
  const [on, off, onCpu, offCpu] = [rates[mode]!, rates[untraced], cpus[mode]!, cpus[untraced]];
  console.log(
    `  ${mode}: spans exported per sign-in ${perSignIn.map((x) => x.toFixed(2)).join(', ')} (ratio ${tracingRatio})`,
  );
  if (!off || !offCpu) continue;
  // Per round: the traced run beside the untraced one of the same round.
  const per = on.map((x, i) => x / off[i]!);
  const perCpu = onCpu.map((x, i) => offCpu[i]! / x);
  console.log(
    `  traced ÷ untraced sign-ins/s (${untraced}): median ${median(per).toFixed(2)} [${per.map((x) => x.toFixed(2)).join(', ')}] (goal >= 0.95)`,
  );
  console.log(
    `  CPU per sign-in, untraced ÷ traced: median ${median(perCpu).toFixed(2)} [${perCpu.map((x) => x.toFixed(2)).join(', ')}]`,
  );
}
if (signInsTraced)
  console.log(
    `  spans per traced sign-in by name: ${Object.entries(spanNames)
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => `${name} ${(n / signInsTraced).toFixed(2)}`)
      .join('; ')}`,
  );
if (sinkStarted) await (await sinkStarted).stop();
console.log(`  load average now ${loadAverage()}; run ${runId}`);
process.exit(0);
