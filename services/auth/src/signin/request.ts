import type { AuthorizationRequest } from '../authorize';

/** What the sign-in serves: the validated authorization request (authorize/types.ts). */
export type SignInRequest = AuthorizationRequest;

/** A transaction (psd2) or approval request: consent is asked every time, and the flow type is transaction. */
export const isTransaction = (r: SignInRequest) => Boolean(r.claims?.psd2Transaction || r.claims?.approval);
