// Issue 35 items 7 and 10: the console's sign-in in progress is bound to the browser that started it (login
// CSRF at /console/callback) and costs the server nothing (GET /console/signin stored state per request).
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { openedForSuite } from '@sesame/testing/suite';
import { ConsoleBrowser, FakeProvider } from '../testing/fake-provider';
import { type MgmtHarness, startMgmt } from '../testing/mgmt-harness';

/** The in-memory store, counting every write and the keys written that are still live. */
class CountingKv extends MemoryKeyValueStore {
  writes = 0;
  private readonly keys = new Set<string>();
  override async set(key: string, value: string, opts: { ttlMs: number; onlyIfAbsent?: boolean }) {
    this.writes++;
    this.keys.add(key);
    return super.set(key, value, opts);
  }
  override async incr(key: string, ttlMs: number) {
    this.writes++;
    this.keys.add(key);
    return super.incr(key, ttlMs);
  }
  override async admit(...args: Parameters<MemoryKeyValueStore['admit']>) {
    this.writes++;
    return super.admit(...args);
  }
  override async schedule(...args: Parameters<MemoryKeyValueStore['schedule']>) {
    this.writes++;
    return super.schedule(...args);
  }
  async liveEntries(): Promise<number> {
    let n = 0;
    for (const key of this.keys) if ((await this.ttlMs(key)) !== null) n++;
    return n;
  }
}

interface Setup {
  h: MgmtHarness;
  provider: FakeProvider;
  kv: CountingKv;
}

const setCookies = (res: Response) => res.headers.getSetCookie();
const sessionCookieSet = (res: Response) => setCookies(res).some((c) => /^sesame-console=[\w-]+;/.test(c));

describe('console sign-in state lives in the browser that started it', () => {
  const s = openedForSuite(
    async (): Promise<Setup> => {
      const provider = await new FakeProvider().start();
      const kv = new CountingKv();
      const h = await startMgmt({ SESAME_AUTH_URL: provider.url }, { kv });
      const tenantId = await h.createTenant('Acme');
      await h.admins.accounts.create({ tenantId, email: 'victim@acme.test', role: 'owner', createdAt: 1 });
      await h.admins.accounts.create({
        tenantId,
        email: 'attacker@acme.test',
        role: 'support',
        createdAt: 2,
      });
      return { h, provider, kv };
    },
    async ({ h, provider }) => {
      await h.stop();
      await provider.stop();
    },
  );
  const browser = () => new ConsoleBrowser(s.h.url, s.provider);

  it('3,000 anonymous GET /console/signin store nothing on the server', async () => {
    await fetch(`${s.h.url}/console/signin`, { redirect: 'manual' }); // the system tenant exists from here
    const writes = s.kv.writes;
    const live = await s.kv.liveEntries();
    for (let batch = 0; batch < 100; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 30 }, () =>
          fetch(`${s.h.url}/console/signin?return=/console/tokens`, { redirect: 'manual' }),
        ),
      );
      for (const res of answers) {
        assert.equal(res.status, 302);
        assert.ok(new URL(res.headers.get('location')!).searchParams.get('state'));
      }
    }
    assert.equal(s.kv.writes - writes, 0, 'no write to the store');
    assert.equal(await s.kv.liveEntries(), live, 'no new entry in the store');
  });

  it('the sign-in cookie is HttpOnly, SameSite=Lax, lives 10 minutes, and hides the verifier and nonce', async () => {
    const res = await browser().get('/console/signin');
    const cookie = setCookies(res).find((c) => c.startsWith('sesame-console-signin='))!;
    assert.ok(cookie, 'a sign-in cookie is set');
    assert.match(cookie, /; Max-Age=600;/);
    assert.match(cookie, /; Path=\//);
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Lax/);
    const authorize = new URL(res.headers.get('location')!);
    const value = decodeURIComponent(cookie.split(';')[0]!.split('=')[1]!);
    const readable = Buffer.from(value.replaceAll('.', ''), 'base64url').toString('latin1');
    for (const param of ['state', 'nonce']) {
      const secret = authorize.searchParams.get(param)!;
      assert.ok(!value.includes(secret) && !readable.includes(secret), `${param} is not readable`);
    }
  });

  it('login CSRF: a callback with a state started in another browser is a 400 page, and the victim stays signed in as themselves', async () => {
    const victim = browser();
    await victim.signIn('victim@acme.test');
    const before = victim.cookie;
    // The attacker starts a sign-in in their own browser and gets a code for their own account …
    const attacker = browser();
    const start = await attacker.get('/console/signin?return=/console/administrators');
    const { code, state } = s.provider.issueCode(start.headers.get('location')!, 'attacker@acme.test');
    // … and has the victim's browser open the callback.
    const calls = s.provider.tokenCalls;
    const res = await victim.get(`/console/callback?${new URLSearchParams({ code, state })}`);
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await res.text(), /This sign-in was not started in this browser, or it has expired\./);
    assert.equal(sessionCookieSet(res), false, 'no new console session');
    assert.equal(s.provider.tokenCalls, calls, 'the code was not redeemed');
    assert.equal(victim.cookie, before);
    const page = await victim.get('/console/administrators');
    assert.equal(page.status, 200, 'the victim’s session still works');
    assert.match(await page.text(), /victim@acme\.test/);
    // The attacker's own browser could still finish it: the refusal is about the browser, not the code.
    assert.equal(
      (await attacker.get(`/console/callback?${new URLSearchParams({ code, state })}`)).status,
      303,
    );
  });

  it('a callback without the sign-in cookie, or with a forged one, is refused', async () => {
    const b = browser();
    const start = await b.get('/console/signin');
    const { code, state } = s.provider.issueCode(start.headers.get('location')!, 'victim@acme.test');
    const sealed = b.jar.get('sesame-console-signin')!;
    b.jar.delete('sesame-console-signin');
    assert.equal((await b.get(`/console/callback?${new URLSearchParams({ code, state })}`)).status, 400);
    const [iv, tag, body] = sealed.split('.') as [string, string, string];
    const flipped = `${body.slice(0, -2)}${body.endsWith('AA') ? 'BA' : 'AA'}`;
    b.jar.set('sesame-console-signin', [iv, tag, flipped].join('.'));
    const forged = await b.get(`/console/callback?${new URLSearchParams({ code, state })}`);
    assert.equal(forged.status, 400);
    assert.equal(sessionCookieSet(forged), false);
    b.jar.set('sesame-console-signin', sealed);
    assert.equal((await b.get(`/console/callback?${new URLSearchParams({ code, state })}`)).status, 303);
  });

  it('a sign-in started more than 10 minutes ago is refused', async () => {
    const b = browser();
    const start = await b.get('/console/signin');
    const { code, state } = s.provider.issueCode(start.headers.get('location')!, 'victim@acme.test');
    s.h.clock.t += 10 * 60_000 + 1;
    try {
      const res = await b.get(`/console/callback?${new URLSearchParams({ code, state })}`);
      assert.equal(res.status, 400);
      assert.equal(sessionCookieSet(res), false);
    } finally {
      s.h.clock.t -= 10 * 60_000 + 1;
    }
  });

  it('one browser holds at most 3 sign-ins in progress (the newest), in a cookie under 4 KB', async () => {
    const b = browser();
    const started: { code: string; state: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const start = await b.get(`/console/signin?return=/console/${'x'.repeat(500)}`);
      started.push(s.provider.issueCode(start.headers.get('location')!, 'victim@acme.test'));
    }
    assert.ok(b.jar.get('sesame-console-signin')!.length < 4000);
    const finish = ({ code, state }: { code: string; state: string }) =>
      b.get(`/console/callback?${new URLSearchParams({ code, state })}`);
    assert.equal((await finish(started[0]!)).status, 400, 'the oldest was dropped');
    assert.equal((await finish(started[1]!)).status, 400, 'the second oldest was dropped');
    for (const pending of started.slice(2)) assert.equal((await finish(pending)).status, 303);
    assert.equal(b.jar.has('sesame-console-signin'), false, 'the cookie ends with its last sign-in');
  });
});
