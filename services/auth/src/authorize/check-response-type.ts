import { RESPONSE_MODES, RESPONSE_TYPES, oauthErrors as problems } from '@sesame/oauth';

const responseTypes: ReadonlySet<string> = new Set(RESPONSE_TYPES);
const responseModes: ReadonlySet<string> = new Set(RESPONSE_MODES);

/** Authorization Code flow only (spec 4.2). */
export function checkResponseType(responseType: string | undefined): void {
  if (responseType === undefined) throw problems.invalidRequest('response_type is required');
  if (!responseTypes.has(responseType))
    throw problems.unsupportedResponseType(`only response_type ${RESPONSE_TYPES.join(', ')} is supported`);
}

/** The result always travels in the query (spec 4.2); naming the default is allowed. */
export function checkResponseMode(responseMode: string | undefined): void {
  if (responseMode !== undefined && !responseModes.has(responseMode)) {
    throw problems.invalidRequest(`only response_mode ${RESPONSE_MODES.join(', ')} is supported`);
  }
}
