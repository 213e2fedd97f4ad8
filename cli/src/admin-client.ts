import { request as httpRequest } from 'node:http';

/** An error to print as one line; exit code 2 for usage mistakes, 1 for everything else. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A body sent as it is (a logo's bytes) instead of as JSON. */
export class RawBody {
  constructor(
    readonly contentType: string,
    readonly bytes: Uint8Array,
  ) {}
}

export interface AdminClientOptions {
  url: string;
  /** A personal API token (sesame_pat_…) or the bootstrap admin key. */
  token: string;
  /** Where the URL came from (--url, SESAME_ADMIN_URL, npm start's file, the default): said when unreachable. */
  source?: string;
}

type ApiError = {
  status?: string;
  error?: { code?: string; message?: string; fields?: Record<string, string> };
};

function describeApiError(status: number, body: ApiError, personal: boolean): string {
  const error = body.error;
  if (!error?.message) return `the admin API answered HTTP ${status}`;
  const fields = Object.entries(error.fields ?? {}).map(([field, why]) => `${field}: ${why}`);
  const hint =
    error.code !== 'invalid_admin_key'
      ? ''
      : personal
        ? ' (pass --token or set SESAME_ADMIN_TOKEN)'
        : ' (pass --admin-key or set SESAME_ADMIN_KEY)';
  return `${error.message} (${error.code})${fields.length ? `: ${fields.join('; ')}` : ''}${hint}`;
}

/**
 * Calls the admin API with `Authorization: Bearer <personal API token or bootstrap key>`. Who acted is what
 * the server authenticated: the token's administrator (the token id is the session id of the events), or
 * `bootstrap-key`.
 */
export function adminClient(opts: AdminClientOptions) {
  const personal = opts.token.startsWith('sesame_pat_');
  const base = opts.url.replace(/\/+$/, '');
  const from = opts.source ? ` (from ${opts.source})` : '';
  return async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: { status: number; text: string };
    try {
      res = await send(
        `${base}${path}`,
        method,
        {
          authorization: `Bearer ${opts.token}`,
          ...(body === undefined
            ? {}
            : { 'content-type': body instanceof RawBody ? body.contentType : 'application/json' }),
        },
        body === undefined ? undefined : body instanceof RawBody ? body.bytes : JSON.stringify(body),
      );
    } catch (err) {
      const e = err as { code?: string; errors?: Array<{ code?: string }> };
      const codes = [e.code, ...(e.errors ?? []).map((x) => x.code)];
      if (codes.some((c) => c === 'ECONNREFUSED' || c === 'ENOTFOUND' || c === 'EAI_AGAIN')) {
        throw new CliError(`cannot reach the admin API at ${base}${from}: is \`npm start\` running?`);
      }
      throw new CliError(`cannot reach the admin API at ${base}${from}: ${(err as Error).message}`);
    }
    const text = res.text;
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      throw new CliError(`the admin API at ${base} answered HTTP ${res.status} with a body that is not JSON`);
    }
    if (res.status < 200 || res.status > 299)
      throw new CliError(describeApiError(res.status, parsed as ApiError, personal));
    return parsed as T;
  };
}

export type AdminCall = ReturnType<typeof adminClient>;

/**
 * One request over node:http(s), not fetch: loading fetch's HTTP stack (undici) was about 40% of a CLI call's
 * time (bench/cli.bench.ts). A new connection per call (no keep-alive), so nothing holds the process open.
 */
async function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  // TLS is loaded only for an https:// admin URL.
  const request = target.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(target, { method, headers, agent: false, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
    req.end(body);
  });
}
