/** POST {tokenUrl} grant_type=client_credentials with scope svc_admin_api (client_secret_post). */
export function clientCredentials(
  tokenUrl: string,
  credentialsId: string,
  secret: string,
): Promise<Response> {
  return fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: credentialsId,
      client_secret: secret,
      scope: 'svc_admin_api',
    }),
  });
}

/** A management API bearer token by client_credentials; throws with the answer when it is not a 200. */
export async function clientCredentialsToken(
  tokenUrl: string,
  credentialsId: string,
  secret: string,
): Promise<string> {
  const res = await clientCredentials(tokenUrl, credentialsId, secret);
  if (res.status !== 200) throw new Error(`client_credentials: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
