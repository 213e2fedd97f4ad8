import type { EventBus } from '@sesame/events';
import { DevOutbox } from '@sesame/mail';
import { buildHttpApp, compileTrust, createLogger, listen } from '@sesame/platform';
import { directory as dir, type directory, type grants } from '@sesame/proto';
import type { SmsSender } from '@sesame/sms';
import { loadAuthConfig } from '../config';
import { memoryPasskeyStore } from '../passkeys';
import type { AuthPeers } from '../peers';
import { createAuthService } from '../service';
import { type UserStore, memoryUserStore } from '../users';

export const client: directory.Client = {
  tenantId: 'tenant-1',
  appId: 'app-1',
  clientId: 'client-1',
  appName: 'Shop',
  type: dir.ClientType.CLIENT_TYPE_CONFIDENTIAL,
  redirectUris: ['https://rp.example/cb'],
  allowedScopes: [],
  ciba: undefined,
  auxLinkPrefix: '',
  registrationRedirectUri: '',
  blockedCountries: [],
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
    env?: Record<string, string>;
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
    ...opts.env,
  });
  const users = opts.userStore ?? memoryUserStore();
  const passkeys = memoryPasskeyStore();
  const mod = await createAuthService(config, {
    userStore: users,
    passkeys,
    peers,
    mail: outbox,
    bus: opts.bus,
    sms: opts.sms,
    logger: createLogger({ service: 'auth', level: 'silent' }),
  });
  const http = await listen(
    buildHttpApp(mod, () => false, true, opts.behindProxy ? compileTrust(['127.0.0.1/32']) : undefined),
    0,
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
