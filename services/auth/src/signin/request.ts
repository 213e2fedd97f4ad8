/**
 * What the sign-in needs of a validated authorization request (the authorize module's AuthorizationRequest
 * has these members and more).
 */
export interface SignInRequest {
  clientId: string;
  redirectUri: string;
  scope: string[];
  state?: string;
  nonce?: string;
  prompt?: 'login';
  acrValues: string[];
  loginHint?: string;
  uiLocales: string[];
  codeChallenge?: string;
  codeChallengeMethod?: 'S256';
  customMessage?: string;
  claims?: {
    psd2Transaction?: { display_data: Record<string, unknown>; additional_data?: unknown };
    approval?: { display_data: Record<string, unknown>; additional_data?: unknown };
  };
}

/** A transaction (psd2) or approval request: consent is asked every time, and the flow type is transaction. */
export const isTransaction = (r: SignInRequest) => Boolean(r.claims?.psd2Transaction || r.claims?.approval);
