import type { PresentedCertificate } from '@sesame/oauth';

/** A parsed /token request: each form parameter once, and the Authorization header if any. */
export interface TokenRequest {
  params: Readonly<Record<string, string>>;
  authorization: string | undefined;
  /** The caller's address (X-Forwarded-For from a trusted proxy, else the socket's). */
  clientIp: string;
  /** The DPoP header (RFC 9449): node joins repeated fields with ", ", which the proof check refuses. */
  dpop?: string | string[];
  /** The client certificate of the request (mutual TLS, RFC 8705), read when asked; undefined: none came. */
  certificate?: () => PresentedCertificate | undefined;
}

/** What a grant answers: the status and JSON body (errors are thrown as OAuthError instead). */
export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
}

export type GrantHandler = (request: TokenRequest) => Promise<TokenAnswer>;
