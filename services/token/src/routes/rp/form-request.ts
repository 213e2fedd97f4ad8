import { type Exchange, readBody } from '../http/json-endpoint';
import { checkFormContentType } from '../token/checks/check-content-type';
import { readFormParams } from '../token/checks/read-form-params';
import type { TokenRequest } from '../token/token-request';

/** The form body of a POST to /revoke or /introspect, read with /token's rules (form only, each parameter once). */
export async function readFormRequest(x: Exchange): Promise<TokenRequest> {
  checkFormContentType(x.req.headers['content-type']);
  const request = {
    ...readFormParams(await readBody(x.req), x.req.headers.authorization, x.clientIp),
    certificate: x.certificate,
  };
  x.clientId = request.params.client_id;
  return request;
}
