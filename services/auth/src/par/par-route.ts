import type { AuthFailureThrottle } from '@sesame/kv';
import {
  type ClientAssertionVerifier,
  type ClientJwks,
  DpopProblem,
  type DpopVerifier,
  type ForwardedCertificateHeaders,
  authenticateClient,
  clientCertificateOf,
  issuerEndpoint,
  oauthErrors,
  readClientCredentials,
  throttledClientAuth,
  tokenEndpointDpopError,
} from '@sesame/oauth';
import { OAuthError, strictUrlencoded } from '@sesame/platform';
import type { Request, Response, Router } from 'express';
import { AuthorizeError } from '../authorize/authorize-error';
import { parsePushedRequest } from '../authorize/parse-authorize-request';
import type { AuthorizeDeps } from '../authorize/types';
import type { AuthPeers } from '../peers';
import type { PushedRequests } from './pushed-requests';

export const PAR_PATH = '/par';
const form = strictUrlencoded('64kb');

export interface ParDeps {
  authUrl: string;
  peers: Pick<AuthPeers, 'getClient' | 'authenticateClient'>;
  /** The failure throttle of /authorize_ciba (one per auth service). */
  authFailures: AuthFailureThrottle;
  assertions: ClientAssertionVerifier;
  /** Mutual TLS (RFC 8705): the client keys and the terminator's headers (SESAME_TLS_CLIENT_*_HEADER). */
  mtls?: { keys: ClientJwks; forwarded: ForwardedCertificateHeaders };
  authorize: AuthorizeDeps;
  pushed: PushedRequests;
  /** DPoP proofs (RFC 9449 §10.1): a proof sent to /par binds the code to its key. */
  dpop: DpopVerifier;
}

/**
 * POST {auth_url}/par (RFC 9126). Read top down: the form, client authentication (a secret, private_key_jwt,
 * or a public client's client_id alone; throttled like /token), the same checks as /authorize for that
 * client, then 201 with a request_uri that /authorize takes once within 60 s. Errors are JSON 400 with
 * /authorize's codes (401 invalid_client), rendered by the platform's error handler.
 */
export function mountPar(router: Router, deps: ParDeps): void {
  router.post(PAR_PATH, (req, res, next) => {
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    if (!req.is('application/x-www-form-urlencoded')) {
      return next(oauthErrors.invalidRequest('Content-Type must be application/x-www-form-urlencoded'));
    }
    form(req, res, (err?: unknown) => {
      if (err) return next(err);
      pushAuthorizationRequest(deps, req, res).catch(next);
    });
  });
  router.all(PAR_PATH, (_req, res) => {
    res.set({ 'Cache-Control': 'no-store', Allow: 'POST' }).status(405).json({
      error: 'invalid_request',
      error_description: '/par accepts POST only',
    });
  });
}

async function pushAuthorizationRequest(deps: ParDeps, req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const client = await authenticateParClient(deps, req, body);
  const proofJkt = await parDpopJkt(deps, req, body);
  let pushed: Awaited<ReturnType<typeof parsePushedRequest>>;
  try {
    // The authenticated client is the request's client, whatever else the body says (§2.1).
    pushed = await parsePushedRequest({ ...body, client_id: client.clientId }, deps.authorize);
  } catch (err) {
    if (err instanceof AuthorizeError) throw new OAuthError(err.code, err.description, 400);
    throw err;
  }
  const { requestUri, expiresIn } = await deps.pushed.push({
    clientId: client.clientId,
    values: proofJkt ? { ...pushed.values, dpop_jkt: proofJkt } : pushed.values,
  });
  res.status(201).json({ request_uri: requestUri, expires_in: expiresIn });
}

/**
 * RFC 9449 §10.1: a DPoP proof at /par (for POST {issuer}/par) binds the code to its key, as dpop_jkt would;
 * with both, they must name the same key. A bad proof is 400 invalid_dpop_proof (or use_dpop_nonce).
 */
async function parDpopJkt(
  deps: ParDeps,
  req: Request,
  body: Record<string, unknown>,
): Promise<string | undefined> {
  const header = req.headers.dpop;
  if (header === undefined) return undefined;
  let jkt: string;
  try {
    ({ jkt } = await deps.dpop.verify({
      header,
      method: 'POST',
      url: issuerEndpoint(deps.authUrl, PAR_PATH),
    }));
  } catch (err) {
    if (err instanceof DpopProblem) throw tokenEndpointDpopError(err);
    throw err;
  }
  if (body.dpop_jkt !== undefined && body.dpop_jkt !== jkt)
    throw tokenEndpointDpopError(
      new DpopProblem('invalid_dpop_proof', 'dpop_jkt does not match the key of the DPoP proof'),
    );
  return jkt;
}

function authenticateParClient(deps: ParDeps, req: Request, body: Record<string, unknown>) {
  const text = (name: string) =>
    typeof body[name] === 'string' && body[name] !== '' ? (body[name] as string) : undefined;
  for (const name of ['client_id', 'client_secret', 'client_assertion', 'client_assertion_type']) {
    if (body[name] !== undefined && typeof body[name] !== 'string')
      throw oauthErrors.invalidRequest(`${name} must be a single value`);
  }
  const credentials = readClientCredentials(
    req.get('authorization'),
    {
      client_id: text('client_id'),
      client_secret: text('client_secret'),
      client_assertion: text('client_assertion'),
      client_assertion_type: text('client_assertion_type'),
    },
    { allowNone: true },
  );
  const mtls = deps.mtls;
  return throttledClientAuth(deps.authFailures, credentials.clientId, req.ip ?? '', (beforeDirectoryCall) =>
    authenticateClient(
      {
        getClient: async (clientId) => {
          await beforeDirectoryCall();
          return deps.peers.getClient(clientId);
        },
        authenticateClient: async (clientId, secret) => {
          await beforeDirectoryCall();
          return deps.peers.authenticateClient(clientId, secret);
        },
      },
      credentials,
      {
        allowPublic: true,
        assertions: deps.assertions,
        endpointUrl: new URL(PAR_PATH, deps.authUrl).href,
        ...(mtls
          ? { mtls: { certificate: () => clientCertificateOf(req, mtls.forwarded), keys: mtls.keys } }
          : {}),
      },
    ),
  );
}
