// The throttle lives in @sesame/kv since /authorize_ciba (auth) authenticates clients the same way.
export { type AuthAttempt, type AuthFailureLimits, AuthFailureThrottle } from '@sesame/kv';
