import { createHash } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for auth_url's /token in console tests: it redeems a code the test issued for an email, checks
 * the console's client id and the PKCE verifier against the challenge the authorize URL carried, and answers
 * an ID token (unsigned: the console relies on the direct connection, as OIDC Core 3.1.3.7 allows).
 */
export class FakeProvider {
  url = '';
  private server?: Server;
  private readonly codes = new Map<
    string,
    { email: string; nonce: string; challenge: string; clientId: string }
  >();
  tokenCalls = 0;
  /** Every ID token answered, in order (the sign-out's id_token_hint is the last one of a browser). */
  readonly idTokens: string[] = [];
  /** auth_time (epoch seconds) of the ID tokens; unset: none is sent. */
  authTime?: number;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        this.tokenCalls++;
        const form = new URLSearchParams(body);
        const code = this.codes.get(form.get('code') ?? '');
        this.codes.delete(form.get('code') ?? '');
        const basic = Buffer.from(
          (req.headers.authorization ?? '').replace(/^Basic /, ''),
          'base64',
        ).toString();
        const clientId = decodeURIComponent(basic.split(':')[0] ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (req.url !== '/token' || !code || clientId !== code.clientId || challenge !== code.challenge) {
          res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
          return;
        }
        const claims = {
          iss: this.url,
          aud: clientId,
          sub: `sub-${code.email}`,
          email: code.email,
          email_verified: true,
          nonce: code.nonce,
          exp: Math.floor(Date.now() / 1000) + 300,
          ...(this.authTime === undefined ? {} : { auth_time: this.authTime }),
        };
        const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
        const idToken = `${part({ alg: 'RS256' })}.${part(claims)}.sig`;
        this.idTokens.push(idToken);
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ id_token: idToken, token_type: 'Bearer' }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The code the provider would hand back for a sign-in as `email` started at `authorizeUrl`. */
  issueCode(authorizeUrl: string, email: string): { code: string; state: string } {
    const url = new URL(authorizeUrl);
    const code = `code-${this.codes.size}-${Math.random().toString(36).slice(2)}`;
    this.codes.set(code, {
      email,
      nonce: url.searchParams.get('nonce') ?? '',
      challenge: url.searchParams.get('code_challenge') ?? '',
      clientId: url.searchParams.get('client_id') ?? '',
    });
    return { code, state: url.searchParams.get('state') ?? '' };
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/**
 * A browser-ish session against the console: manual redirects; `cookie` is the console session cookie (kept
 * by keepCookie), every other cookie the console sets (the sign-in in progress) is kept as a browser would.
 */
export class ConsoleBrowser {
  cookie = '';
  /** Cookies other than the session's, by name. */
  readonly jar = new Map<string, string>();
  constructor(
    private readonly base: string,
    private readonly provider: FakeProvider,
  ) {}

  async get(path: string): Promise<Response> {
    return this.keepOthers(
      await fetch(`${this.base}${path}`, { redirect: 'manual', headers: this.headers() }),
    );
  }

  async post(path: string, form: Record<string, string>): Promise<Response> {
    return this.keepOthers(
      await fetch(`${this.base}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      }),
    );
  }

  /** Signs in as `email` through /console/signin and /console/callback; returns where it was sent. */
  async signIn(email: string, returnTo = '/console/tokens', stepUp = false): Promise<string> {
    const start = await this.get(
      `/console/signin?${new URLSearchParams({ return: returnTo, ...(stepUp ? { prompt: 'login' } : {}) })}`,
    );
    const { code, state } = this.provider.issueCode(start.headers.get('location')!, email);
    const done = await this.get(`/console/callback?${new URLSearchParams({ code, state })}`);
    this.keepCookie(done);
    return done.headers.get('location') ?? '';
  }

  keepCookie(res: Response): void {
    for (const set of res.headers.getSetCookie()) {
      const match = /^sesame-console=([^;]*)/.exec(set);
      if (match) this.cookie = match[1]!;
    }
  }

  /** The CSRF token of the page's forms. */
  static csrfOf(html: string): string {
    return /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  }

  private keepOthers(res: Response): Response {
    for (const set of res.headers.getSetCookie()) {
      const [pair = ''] = set.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      if (at <= 0 || name === 'sesame-console') continue;
      const value = pair.slice(at + 1);
      if (value && !/Expires=Thu, 01 Jan 1970/i.test(set)) this.jar.set(name, value);
      else this.jar.delete(name);
    }
    return res;
  }

  private headers(): Record<string, string> {
    const cookies = [...(this.cookie ? [`sesame-console=${this.cookie}`] : [])];
    for (const [name, value] of this.jar) cookies.push(`${name}=${value}`);
    return cookies.length ? { cookie: cookies.join('; ') } : {};
  }
}
