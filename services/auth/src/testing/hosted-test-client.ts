import type { RequestListener } from 'node:http';
import type { EmbeddedStore } from '@sesame/embedded-store';
import type { EventBus, MemoryEventBus } from '@sesame/events';
import { type FlowEventFacts, decodeFlowEvent } from '@sesame/flow-events';
import { DevOutbox } from '@sesame/mail';
import {
  type AsyncServer,
  buildHttpApp,
  compileTrust,
  createLogger,
  listen,
  rawRouteListener,
  trustedProxiesOf,
} from '@sesame/platform';
import { directory as dir, type directory, grants, topics, type users } from '@sesame/proto';
import type { SmsSender } from '@sesame/sms';
import { loadAuthConfig } from '../config';
import { memoryPasskeyStore } from '../passkeys';
import { sqlitePasskeyStore } from '../passkeys/passkeys.sqlite';
import type { AuthPeers } from '../peers';
import { createAuthService } from '../service';
import { type UserStore, memoryUserStore } from '../users';
import { sqliteUserStore } from '../users/users.sqlite';

/** Grants' introspection of a token it does not know (or no longer: expired, revoked). */
export const INACTIVE_TOKEN = grants.IntrospectAccessTokenResponse.create({ active: false });

export const client: directory.Client = {
  tenantId: 'tenant-1',
  appId: 'app-1',
  clientId: 'client-1',
  appName: 'Shop',
  type: dir.ClientType.CLIENT_TYPE_CONFIDENTIAL,
  redirectUris: ['https://rp.example/cb'],
  allowedScopes: [],
  ciba: undefined,
  refreshTokens: undefined,
  auxLinkPrefix: '',
  registrationRedirectUri: '',
  blockedCountries: [],
  postLogoutRedirectUris: [],
  backchannelLogoutUri: '',
  backchannelLogoutSessionRequired: false,
  firstParty: false,
  tokenEndpointAuthMethod: '',
  jwks: '',
  jwksUri: '',
  requirePushedAuthorizationRequests: false,
  requestObjectSigningAlg: '',
  dpopBoundAccessTokens: false,
  tlsClientAuthSubjectDn: '',
  tlsClientCertificateBoundAccessTokens: false,
  idTokenSignedResponseAlg: '',
  backchannelAuthenticationRequestSigningAlg: '',
  securityProfile: '',
};

/** A browser for tests: keeps cookies, never follows redirects, reads forms' CSRF tokens. */
export class TestBrowser {
  private readonly jar = new Map<string, string>();
  constructor(readonly base: string) {}
  /** Extra headers on every request (e.g. X-Forwarded-For through the trusted proxy of `startAuth`). */
  headers: Record<string, string> = {};
  async request(
    path: string,
    init: { method?: string; form?: Record<string, string>; json?: Record<string, unknown> } = {},
  ) {
    const headers: Record<string, string> = {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0',
      ...this.headers,
    };
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (init.json) headers['content-type'] = 'application/json';
    const res = await fetch(new URL(path, this.base), {
      method: init.method ?? (init.form || init.json ? 'POST' : 'GET'),
      headers,
      body: init.form
        ? new URLSearchParams(init.form).toString()
        : init.json
          ? JSON.stringify(init.json)
          : undefined,
      redirect: 'manual',
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, v] = (pair ?? '').split('=');
      if (k && v !== undefined) this.jar.set(k, v);
    }
    const body = await res.text();
    return { status: res.status, location: res.headers.get('location') ?? '', body, headers: res.headers };
  }
  static csrf(html: string): string {
    return /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  }
  static formAction(html: string, n = 0): string {
    return [...html.matchAll(/<form method="post" action="([^"]+)"/g)][n]?.[1] ?? '';
  }
}

/** The auth service with in-memory stores, a DevOutbox and recorded Grants calls, served on a free port. */
export async function startAuth(
  opts: {
    failIssueCode?: () => Error;
    failMail?: boolean;
    /** Changes to the client Directory.GetClient answers. */
    client?: Partial<directory.Client>;
    /** Trust X-Forwarded-For from 127.0.0.1 (as behind a proxy), so tests can say where a browser is. */
    behindProxy?: boolean;
    /** The event bus auth publishes flow events on (tests read them). */
    bus?: EventBus;
    /** Replaces some Grants and Directory calls (the CIBA tests' fake Grants). */
    peers?: Partial<AuthPeers>;
    sms?: SmsSender;
    userStore?: UserStore;
    /**
     * The embedded engine, given to the service as the launcher gives it: the service then picks its own
     * repositories (and KV) on it; `users` and `passkeys` read the same tables.
     */
    embedded?: EmbeddedStore;
    /** The port to listen on (a restarted service keeps its address, and so the browsers' cookies): 0, any. */
    port?: number;
    env?: Record<string, string>;
    /** Serve express alone, without the raw GET /authorize ahead of it (the fast-path tests compare both). */
    expressOnly?: boolean;
  } = {},
) {
  const theClient = { ...client, ...opts.client };
  const issued: grants.IssueCodeRequest[] = [];
  const peers: AuthPeers = {
    getClient: async (id) => (id === theClient.clientId ? theClient : undefined),
    decryptRequestObject: async () => {
      throw new Error('no request objects in this test');
    },
    issueCode: async (req) => {
      if (opts.failIssueCode) throw opts.failIssueCode();
      issued.push(req);
      return { code: `code-${issued.length}`, expiresIn: 60 };
    },
    authenticateClient: async () => undefined,
    startBackchannel: async () => {
      throw new Error('no CIBA in this test');
    },
    markBackchannelOpened: async () => {},
    completeBackchannel: async () => {},
    denyBackchannel: async () => {},
    introspectAccessToken: async () => INACTIVE_TOKEN,
    verifySignature: async () => undefined,
    signLogoutToken: async () => {
      throw new Error('no back-channel logout in this test');
    },
    close: () => {},
    ...opts.peers,
  };
  const outbox = new DevOutbox();
  if (opts.failMail) {
    outbox.send = async () => {
      throw new Error('SMTP relay refused the connection');
    };
  }
  const config = loadAuthConfig({
    SESAME_ENV: 'test',
    LOG_LEVEL: 'silent',
    SESAME_AUTH_URL: 'http://localhost',
    ...(opts.behindProxy ? { SESAME_TRUSTED_PROXIES: '127.0.0.1/32' } : {}),
    ...opts.env,
  });
  const users = opts.userStore ?? (opts.embedded ? sqliteUserStore(opts.embedded) : memoryUserStore());
  const passkeys = opts.embedded ? sqlitePasskeyStore(opts.embedded) : memoryPasskeyStore();
  const mod = await createAuthService(config, {
    ...(opts.embedded ? { embedded: opts.embedded } : { userStore: users, passkeys }),
    peers,
    mail: outbox,
    bus: opts.bus,
    sms: opts.sms,
    logger: createLogger({ service: 'auth', level: 'silent' }),
  });
  // The Users gRPC handlers as the service registers them (tests call them without a server).
  const usersGrpc: Record<string, unknown> = {};
  mod.grpc?.({ add: (_def: unknown, impl: object) => Object.assign(usersGrpc, impl) } as never);
  // As hosts do: express and the raw routes believe the same proxies, those of the config.
  const app = buildHttpApp(mod, () => false, true, compileTrust(trustedProxiesOf(config)));
  let expressRequests = 0;
  const counted: RequestListener = (req, res) => {
    expressRequests++;
    app(req, res);
  };
  const http = await listen(
    opts.expressOnly ? counted : rawRouteListener(counted, [mod]),
    opts.port ?? 0,
    '127.0.0.1',
  );
  const base = `http://127.0.0.1:${http.port}`;
  const codeFor = (to: string) =>
    /\b(\d{6})\b/.exec(outbox.list().find((m) => m.to === to)?.subject ?? '')?.[1] ?? '';
  const linkFor = (to: string) =>
    /\/link\/[\w-]{43}/.exec(outbox.list().find((m) => m.to === to)?.text ?? '')?.[0] ?? '';
  return {
    base,
    issued,
    outbox,
    users,
    passkeys,
    codeFor,
    linkFor,
    /** The service module (its gRPC contracts: `module.grpc(server)`). */
    module: mod,
    browser: () => new TestBrowser(base),
    usersGrpc: usersGrpc as unknown as AsyncServer<users.UsersServiceServer>,
    /** Requests express served (not answered by a raw route ahead of it). */
    expressRequests: () => expressRequests,
    stop: async () => {
      await http.close(1000);
      await mod.stop();
    },
  };
}

export const authorizePath = (extra: Record<string, string> = {}) =>
  `/authorize?${new URLSearchParams({
    client_id: 'client-1',
    redirect_uri: 'https://rp.example/cb',
    response_type: 'code',
    scope: 'openid email',
    state: 'st-1',
    nonce: 'n-1',
    ...extra,
  })}`;

/**
 * Reads the flow events an auth service under test published on its in-memory bus (as the consumer group
 * `test`): `eventsOf(flowId)` gives that flow's events so far, in order. `bus` is read at each call, so a
 * test may create the bus in beforeAll.
 */
export function flowEventsReader(bus: () => MemoryEventBus): (flowId: string) => FlowEventFacts[] {
  const published: FlowEventFacts[] = [];
  return (flowId) => {
    for (;;) {
      const batch = bus().nextBatch('test', [topics.flowEvents], true, 1000);
      if (!batch?.length) break;
      published.push(...batch.map((e) => decodeFlowEvent(e.value)));
      bus().commit('test', batch);
    }
    return published.filter((e) => e.flowId === flowId);
  };
}
