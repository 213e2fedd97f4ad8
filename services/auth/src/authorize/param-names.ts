/** Every /authorize parameter of spec 4.2, plus the request object ones (OIDC Core 6). Others are ignored. */
export const paramNames = [
  'client_id',
  'redirect_uri',
  'response_type',
  'response_mode',
  'scope',
  'nonce',
  'state',
  'display',
  'prompt',
  'max_age',
  'acr_values',
  'claims',
  'id_token_hint',
  'login_hint',
  'ui_locales',
  'code_challenge',
  'code_challenge_method',
  'dpop_jkt',
  'svc_custom_message',
  'svc_aux_link',
  'svc_aux_link_title',
  'bound_to',
  'request',
  'request_uri',
] as const;

export type ParamName = (typeof paramNames)[number];

const known: ReadonlySet<string> = new Set(paramNames);

export function isParamName(name: string): name is ParamName {
  return known.has(name);
}
