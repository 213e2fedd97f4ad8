import type { directory } from '@sesame/proto';

/** What parseAuthorizeRequest needs from the outside world (gRPC Directory and Keys in production). */
export interface AuthorizeDeps {
  /** The registered client, or undefined when client_id names none. */
  getClient(clientId: string): Promise<directory.Client | undefined>;
  /**
   * The request object's plaintext (Keys.DecryptRequestObject). Rejects with UndecryptableRequestObject
   * when the key service refuses the JWE (gRPC INVALID_ARGUMENT): that becomes invalid_request_object. Any
   * other rejection (key service unreachable) propagates unchanged, for the caller's server_error.
   */
  decryptRequestObject(jwe: string): Promise<Uint8Array>;
  /**
   * JAR (RFC 9101): the claims of a request object signed by one of `client`'s keys, or an
   * invalid_request_object OAuthError naming the rule it breaks (@sesame/oauth's signedRequestObjectVerifier).
   */
  verifySignedRequestObject(client: directory.Client, jws: string): Promise<Record<string, unknown>>;
  /**
   * PAR (RFC 9126): the parameters pushed under `requestUri` by `clientId`, handed out once; undefined when
   * unknown, expired, used or another client's. Absent: /par is not served and request_uri is refused.
   */
  takePushedRequest?(
    requestUri: string,
    clientId: string | undefined,
  ): Promise<Record<string, string> | undefined>;
  /** Every client must come through /par (SESAME_REQUIRE_PAR), besides those whose registration says so. */
  requirePushedRequests?: boolean;
  /** This server's issuer: a FAPI 2.0 client is refused unless it is https (or a loopback address). */
  issuer?: string;
}

/** The icons an svc_approval attribute may name (spec 4.2); Payment is the default. */
export const approvalIcons = [
  'Payment',
  'Locations',
  'Contract',
  'Email',
  'SmartPhone',
  'Id',
  'Edit',
  'Calendar',
  'Lock',
  'Globe',
] as const;
export type ApprovalIcon = (typeof approvalIcons)[number];

export interface Psd2TransactionClaim {
  display_data: { payee: string; payment_amount: string; payment_method: string };
  additional_data?: unknown;
}

export interface ApprovalClaim {
  display_data: {
    main_attribute?: { label: string; value: string };
    attributes: { label: string; value: string; icon: ApprovalIcon }[];
  };
  additional_data?: Record<string, unknown>;
}

export interface RequestedClaims {
  psd2Transaction?: Psd2TransactionClaim;
  approval?: ApprovalClaim;
  /** Standard claims asked for in the ID token (claims parameter id_token member), names Sesame answers. */
  idToken?: string[];
  /** Standard claims asked for from userinfo (claims parameter userinfo member), names Sesame answers. */
  userinfo?: string[];
  /** The email an email claim request named as its value (OIDC Core 5.5.1): a login hint. */
  email?: string;
  /**
   * The value or values each member named for a claim token answers by value (email, phone_number and their
   * verified flags; OIDC Core 5.5.1): token leaves a claim out where its value is none of them.
   */
  values?: { idToken?: Record<string, unknown[]>; userinfo?: Record<string, unknown[]> };
}

/** A validated authorization request (spec 4.2); absent optional parameters are absent keys. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  /** openid first, each scope once. */
  scope: string[];
  state?: string;
  nonce?: string;
  /** prompt's values, each once, space-separated (check-prompt.ts; `hasPrompt` reads it). */
  prompt?: string;
  /** max_age in seconds: re-authenticate when the session's auth_time is older (0: always). */
  maxAge?: number;
  acrValues: string[];
  /** The bare email address, trimmed. */
  loginHint?: string;
  /** Well-formed RFC 5646 tags in the caller's order of preference. */
  uiLocales: string[];
  codeChallenge?: string;
  codeChallengeMethod?: 'S256';
  /** DPoP (RFC 9449 §10): the JWK thumbprint the code is bound to; /token then needs a proof by that key. */
  dpopJkt?: string;
  customMessage?: string;
  auxLink?: { url: string; title?: string };
  boundTo?: { type: 'alias' | 'sub'; value: string };
  claims?: RequestedClaims;
}

export interface ValidAuthorization {
  client: directory.Client;
  request: AuthorizationRequest;
}
