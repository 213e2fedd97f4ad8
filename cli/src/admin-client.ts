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
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${opts.token}`,
          ...(body === undefined
            ? {}
            : { 'content-type': body instanceof RawBody ? body.contentType : 'application/json' }),
        },
        body: body === undefined ? undefined : body instanceof RawBody ? body.bytes : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; errors?: Array<{ code?: string }> } }).cause;
      const codes = [cause?.code, ...(cause?.errors ?? []).map((e) => e.code)];
      if (codes.some((c) => c === 'ECONNREFUSED' || c === 'ENOTFOUND' || c === 'EAI_AGAIN')) {
        throw new CliError(`cannot reach the admin API at ${base}${from}: is \`npm start\` running?`);
      }
      throw new CliError(`cannot reach the admin API at ${base}${from}: ${(err as Error).message}`);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      throw new CliError(`the admin API at ${base} answered HTTP ${res.status} with a body that is not JSON`);
    }
    if (!res.ok) throw new CliError(describeApiError(res.status, parsed as ApiError, personal));
    return parsed as T;
  };
}

export type AdminCall = ReturnType<typeof adminClient>;
