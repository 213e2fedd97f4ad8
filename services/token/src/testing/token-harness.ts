// Test support only: token served on loopback ports (HTTP + gRPC) with a fake Directory and fake Keys
// over real gRPC, an in-memory KV on a controllable clock (or real Redis), and a recording event bus.
import { MemoryEventBus, type OutgoingEvent } from '@sesame/events';
import { type KeyValueStore, MemoryKeyValueStore } from '@sesame/kv';
import {
  type Clock,
  type PromiseClient,
  type ServiceModule,
  createClient,
  createLogger,
  runStandalone,
} from '@sesame/platform';
import { grants } from '@sesame/proto';
import { eventually } from '@sesame/testing';
import { loadTokenConfig } from '../config';
import { createTokenService } from '../service';
import { FakeDirectory } from './fake-directory';
import { FakeKeys } from './fake-keys';
import { sampleClaims } from './sample-claims';

export const TEST_ISSUER = 'https://auth.sesame.test';

export class TestClock implements Clock {
  constructor(private ms = Date.now()) {}
  now = () => this.ms;
  advance(ms: number) {
    this.ms += ms;
  }
}

export interface TokenAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface TokenHarness {
  url: string;
  /** The service module, for hosting it differently (e.g. express only, as the embedded launcher may). */
  module: ServiceModule;
  grants: PromiseClient<grants.GrantsServiceClient>;
  directory: FakeDirectory;
  /** The in-memory event bus the service uses (tests publish admin events on it). */
  bus: MemoryEventBus;
  keys: FakeKeys;
  clock: TestClock;
  published: Array<{ topic: string; event: OutgoingEvent }>;
  post(form: Record<string, string>, headers?: Record<string, string>): Promise<TokenAnswer>;
  stop(): Promise<void>;
}

export async function startTokenHarness(
  opts: { redisUrl?: string; env?: Record<string, string>; keyAlgs?: Array<'PS256' | 'ES256'> } = {},
) {
  const logger = createLogger({ service: 'token-test', level: 'silent' });
  const directory = new FakeDirectory();
  const keys = new FakeKeys(opts.keyAlgs);
  const [dirServer, keysServer] = await Promise.all([directory.serve(logger), keys.serve(logger)]);
  const clock = new TestClock();
  const kv: KeyValueStore | undefined = opts.redisUrl ? undefined : new MemoryKeyValueStore(clock.now);
  const bus = new MemoryEventBus();
  const published: TokenHarness['published'] = [];
  const publish = bus.publisher.publish.bind(bus.publisher);
  bus.publisher.publish = async (topic, events) => {
    for (const event of events) published.push({ topic, event });
    await publish(topic, events);
  };
  const config = loadTokenConfig({
    SESAME_ENV: 'test',
    LOG_LEVEL: 'silent',
    SESAME_AUTH_URL: TEST_ISSUER,
    SESAME_DIRECTORY_ADDR: dirServer.address,
    SESAME_KEYS_ADDR: keysServer.address,
    ...(opts.redisUrl ? { SESAME_REDIS_URL: opts.redisUrl } : {}),
    ...opts.env,
  });
  const mod = await createTokenService(config, { logger, bus, clock: opts.redisUrl ? undefined : clock, kv });
  const running = await runStandalone(mod, {
    httpPort: 0,
    grpcPort: 0,
    host: '127.0.0.1',
    shutdownTimeoutMs: 1000,
  });
  const url = `http://127.0.0.1:${running.httpPort}`;
  const ready = await eventually(
    () => fetch(`${url}/readyz`).then((r) => r.status),
    (status) => status === 200,
    5000,
  );
  if (ready !== 200) throw new Error('token did not become ready (no signing key?)');
  const grantsClient = createClient(grants.GrantsServiceClient, `127.0.0.1:${running.grpcPort}`);
  const harness: TokenHarness = {
    url,
    module: mod,
    grants: grantsClient,
    directory,
    bus,
    keys,
    clock,
    published,
    post: (form, headers = {}) => postToken(`${url}/token`, form, headers),
    async stop() {
      grantsClient.close();
      await running.stop();
      await kv?.close();
      await Promise.all([dirServer.stop(), keysServer.stop()]);
    },
  };
  return harness;
}

export async function postToken(
  url: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** The form of a client_credentials request for svc_admin_api, with the API credentials in the body. */
export const clientCredentialsForm = (clientId: string, clientSecret: string): Record<string, string> => ({
  grant_type: 'client_credentials',
  client_id: clientId,
  client_secret: clientSecret,
  scope: 'svc_admin_api',
});

/**
 * An authorization code from the harness's Grants service, as auth would ask for it: tenant-1, app
 * `app-<clientId>`, flow-1, scope openid, no PKCE or DPoP binding, sample claims; `over` changes any of them.
 */
export function issueTestCode(
  h: Pick<TokenHarness, 'grants'>,
  clientId: string,
  redirectUri: string,
  over: Partial<grants.IssueCodeRequest> = {},
): Promise<string> {
  return h.grants
    .issueCode({
      tenantId: 'tenant-1',
      appId: `app-${clientId}`,
      clientId,
      redirectUri,
      scope: 'openid',
      codeChallenge: '',
      codeChallengeMethod: '',
      dpopJkt: '',
      flowId: 'flow-1',
      claims: sampleClaims({}),
      ...over,
    })
    .then((r) => r.code);
}
