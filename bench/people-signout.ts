/**
 * Sign out everywhere for people.bench.ts: a person's signed-in browser sessions on the embedded engine's KV
 * (auth's SessionManager with its per-person index), each of which got a code for an app whose
 * backchannel_logout_uri is a local HTTP server; and that app's side of the back channel: the logout notices
 * auth publishes on the embedded bus, delivered by ciba-notifier's attempt (one POST each, loopback allowed as
 * in development) to the server, which counts the logout tokens it receives.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventBus } from '@sesame/events';
import type { Logger } from '@sesame/platform';
import { events, topics } from '@sesame/proto';
import type { KeyValueStore } from '../libs/kv/src/port';
import { SessionManager } from '../services/auth/src/session/browser-session';
import { attemptLogout } from '../services/ciba-notifier/src/backchannel-logout';
import { TENANT } from './support-data';

export const RP_CLIENT = 'bench-rp';
const noCookies = { append() {} } as unknown as Parameters<SessionManager['rotate']>[0];
const where = {
  device: {
    deviceName: 'Mac',
    osType: 'macOS',
    osVersion: '14',
    browserType: 'Chrome',
    browserVersion: '120',
  },
  clientIp: '203.0.113.7',
};

/** `count` sessions of the person, each signed in (rotated, as a sign-in does) and given a code for the RP. */
export async function signInSessions(sessions: SessionManager, userId: string, count: number) {
  for (let k = 0; k < count; k++) {
    const started = await sessions.startSession();
    const signedIn = {
      userId,
      tenantId: TENANT,
      method: 'email_otp' as const,
      authTime: Date.now(),
      sid: randomUUID(),
      clients: [RP_CLIENT],
    };
    await sessions.rotate(noCookies, started.value, signedIn, where);
  }
}

/** The RP's back-channel endpoint (answers 200) and the notifier delivering to it; `received(n)` waits for n tokens. */
export async function backChannel(bus: EventBus, kv: KeyValueStore, logger: Logger) {
  let tokens = 0;
  let waiting: { n: number; resolve: () => void } | undefined;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      if (new URLSearchParams(body).get('logout_token')) tokens++;
      res.writeHead(200).end();
      if (waiting && tokens >= waiting.n) waiting.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/backchannel-logout`;
  const consumer = bus.consumer({ groupId: 'bench-notifier', topics: [topics.logoutNotices] });
  await consumer.start(async (batch) => {
    await Promise.all(
      batch.map((e) =>
        attemptLogout(events.LogoutNotice.decode(e.value), 1, kv, logger, {
          timeoutMs: 5000,
          policy: { allowHttp: true, allowLoopback: true },
        }),
      ),
    );
  });
  return {
    uri,
    /** Resolves once `more` tokens beyond those received so far have arrived. */
    expect(more: number): Promise<void> {
      const n = tokens + more;
      return new Promise((resolve) => {
        waiting = { n, resolve };
        if (tokens >= n) resolve();
      });
    },
    async close() {
      await consumer.stop();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export { SessionManager };
