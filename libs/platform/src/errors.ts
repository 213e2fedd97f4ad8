/**
 * Base of every error a client may see. Each protocol defines one subclass per error family with its own
 * body shape; the error middleware renders them and turns anything else into a generic server_error.
 */
export abstract class HttpError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  /** Extra response headers (e.g. WWW-Authenticate). */
  headers: Record<string, string> = {};
  abstract body(): Record<string, unknown>;
}

/** OAuth 2.0 / OIDC error (RFC 6749 §5.2, OIDC Core, CIBA Core §13): `{error, error_description}`. */
export class OAuthError extends HttpError {
  constructor(
    readonly code: string,
    readonly description: string,
    readonly status = 400,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }
  body() {
    return { error: this.code, error_description: this.description, ...this.extra };
  }
}

/** Management API error object (ARCHITECTURE §7): `{status: 'error', error: {code, message, fields?}}`. */
export class MgmtError extends HttpError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'MgmtError';
  }
  body() {
    return {
      status: 'error',
      error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) },
    };
  }
}
