import { problems } from './authorize-error';

/** Authorization Code flow only (spec 4.2). */
export function checkResponseType(responseType: string | undefined): void {
  if (responseType === undefined) throw problems.invalidRequest('response_type is required');
  if (responseType !== 'code') throw problems.unsupportedResponseType('only response_type code is supported');
}

/** The result always travels in the query (spec 4.2); naming the default is allowed. */
export function checkResponseMode(responseMode: string | undefined): void {
  if (responseMode !== undefined && responseMode !== 'query') {
    throw problems.invalidRequest('only response_mode query is supported');
  }
}
