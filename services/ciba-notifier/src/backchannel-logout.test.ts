import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import { MemoryKeyValueStore } from '@sesame/kv';
import { events, topics } from '@sesame/proto';
import { attemptLogout } from './backchannel-logout';
import {
  listenLocally,
  silentLogger as logger,
  receivingEndpoint,
  startNotifier,
  untilAtLeast,
} from './testing/endpoints';

interface Received {
  contentType?: string;
  body: string;
}

describe('ciba-notifier: Back-Channel Logout delivery', () => {
  const received: Received[] = [];
  /** The answers the app's endpoint gives next (then 200). */
  const answers: number[] = [];
  let endpoint = '';
  const server = receivingEndpoint((req, body) => {
    received.push({ contentType: req.headers['content-type'], body });
    return answers.shift() ?? 200;
  });
  const bus = new MemoryEventBus();
  let stop: () => Promise<void>;

  beforeAll(async () => {
    endpoint = `${await listenLocally(server)}/backchannel-logout`;
    stop = await startNotifier(bus);
  });
  afterAll(async () => {
    await stop();
    server.close();
  });

  const notice = (id: string, overrides: Partial<events.LogoutNotice> = {}) =>
    events.LogoutNotice.fromPartial({
      noticeId: id,
      tenantId: 't1',
      clientId: 'c1',
      backchannelLogoutUri: endpoint,
      logoutToken: `token-${id}`,
      expiresAtMs: Date.now() + 120_000,
      timestampMs: Date.now(),
      ...overrides,
    });
  const publish = (n: events.LogoutNotice) =>
    bus.publisher.publish(topics.logoutNotices, [
      { key: n.clientId, value: events.LogoutNotice.encode(n).finish() },
    ]);

  /** The bodies received, once 200 ms have passed without waiting on anything (a late resend would be in). */
  const bodiesOnceQuiet = async () => {
    await new Promise((r) => setTimeout(r, 200));
    return received.map((r) => r.body);
  };

  it('POSTs logout_token=<JWT> as a form to the backchannel_logout_uri (§2.5)', async () => {
    received.length = 0;
    await publish(notice('n1'));
    await untilAtLeast(received, 1);
    assert.deepEqual(received, [
      { contentType: 'application/x-www-form-urlencoded', body: 'logout_token=token-n1' },
    ]);
  });

  it('retries a 503 and stops at the app’s 400 (its refusal, §2.8); a redelivered notice is not sent again', async () => {
    received.length = 0;
    answers.push(503, 200);
    await publish(notice('n2'));
    await untilAtLeast(received, 2);
    answers.push(400);
    await publish(notice('n3'));
    await publish(notice('n2'));
    await untilAtLeast(received, 3);
    assert.deepEqual(await bodiesOnceQuiet(), [
      'logout_token=token-n2',
      'logout_token=token-n2',
      'logout_token=token-n3',
    ]);
  });

  it('does not send a notice whose logout token has expired', async () => {
    received.length = 0;
    await publish(notice('n4', { expiresAtMs: Date.now() - 1 }));
    await publish(notice('n5'));
    await untilAtLeast(received, 1);
    assert.deepEqual(await bodiesOnceQuiet(), ['logout_token=token-n5']);
  });

  it('refuses a loopback endpoint at send time where loopback is not allowed (SSRF), without a request', async () => {
    received.length = 0;
    const result = await attemptLogout(notice('n6'), 1, new MemoryKeyValueStore(), logger, {
      timeoutMs: 1000,
      policy: { allowHttp: true, allowLoopback: false },
    });
    assert.equal(result, 'unsafe');
    const metadata = await attemptLogout(
      notice('n7', { backchannelLogoutUri: 'https://169.254.169.254/latest' }),
      1,
      new MemoryKeyValueStore(),
      logger,
      { timeoutMs: 1000 },
    );
    assert.equal(metadata, 'unsafe');
    assert.equal(received.length, 0);
  });
});
