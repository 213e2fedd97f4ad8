export {
  AuthorizeError,
  type AuthorizeProblem,
  type RedirectTarget,
  isAuthorizeProblem,
} from './authorize-error';
export { MAX_CLAIMS_LENGTH } from './check-claims';
export { hasPrompt } from './check-prompt';
export { approvalIcons } from './types';
export { MAX_AUX_LINK, MAX_AUX_LINK_TITLE } from './check-aux-link';
export { MAX_CUSTOM_MESSAGE } from './check-custom-message';
export { parseAuthorizeRequest } from './parse-authorize-request';
export type { RawAuthorizeParams } from './read-params';
export { UndecryptableRequestObject } from './request-object';
export type {
  ApprovalClaim,
  ApprovalIcon,
  AuthorizationRequest,
  AuthorizeDeps,
  Psd2TransactionClaim,
  RequestedClaims,
  ValidAuthorization,
} from './types';
