import { randomUUID } from 'node:crypto';
import { newFlowId } from '@sesame/flow-events';
import { oauthErrors as cibaErrors, clientCertificateOf, readClientCredentials } from '@sesame/oauth';
import { strictUrlencoded } from '@sesame/platform';
import type { directory } from '@sesame/proto';
import { SmsDeliveryError } from '@sesame/sms';
import type { Request, Response, Router } from 'express';
import type { Flow } from '../flow/flow';
import { negotiateLocale, translate } from '../i18n';
import type { SignInRequest } from '../signin/request';
import { findTenantMember } from '../users/tenant-member';
import { authenticateCibaClient } from './authenticate-client';
import type { CibaDeps } from './deps';
import { CibaLinks } from './links';
import {
  type CibaParams,
  type CibaRequest,
  checkCibaRequest,
  readCibaParams,
  signedRequestParams,
} from './parse-ciba-request';
import { cibaSmsText, reserveCibaSms } from './sms-limits';

const SMS_RETRY_AFTER_S = 2;
const form = strictUrlencoded('64kb');

/**
 * POST {auth_url}/authorize_ciba (spec 4.3). Read top down: the form, client authentication (throttled like
 * /token), the request checks, the hinted user, then Grants.StartBackchannel, the person's flow and its link,
 * and for the sms channel the text message. Every answer carries Cache-Control no-store; errors are CIBA
 * Core §13 JSON rendered by the platform's error handler.
 */
export function mountAuthorizeCiba(router: Router, deps: CibaDeps): void {
  router.post('/authorize_ciba', (req, res, next) => {
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    if (!req.is('application/x-www-form-urlencoded')) {
      return next(cibaErrors.invalidRequest('Content-Type must be application/x-www-form-urlencoded'));
    }
    form(req, res, (err?: unknown) => {
      if (err) return next(err);
      authorizeCiba(deps, req, res).catch(next);
    });
  });
  router.all('/authorize_ciba', (_req, res) => {
    res.set({ 'Cache-Control': 'no-store', Allow: 'POST' }).status(405).json({
      error: 'invalid_request',
      error_description: '/authorize_ciba accepts POST only',
    });
  });
}

async function authorizeCiba(deps: CibaDeps, req: Request, res: Response): Promise<void> {
  const form = readCibaParams(req.body);
  // CIBA clients always authenticate (spec 4.3), with their secret, a private_key_jwt assertion or their TLS
  // certificate (mutual TLS): client_id alone is invalid_client for any other client.
  const credentials = readClientCredentials(req.get('authorization'), form, { allowNone: true });
  const mtls = deps.mtls;
  const certificate = mtls ? () => clientCertificateOf(req, mtls.forwarded) : undefined;
  const client = await authenticateCibaClient(
    deps,
    credentials,
    req.ip ?? '',
    cibaEndpointUrl(deps),
    certificate,
  );
  const params = await requestParams(deps, form, client);
  const request = checkCibaRequest(params, client);
  // A user known only to other tenants answers as an unknown one (users/tenant-member.ts).
  if (request.loginHint && !(await findTenantMember(deps.users, client.tenantId, request.loginHint))) {
    throw cibaErrors.unknownUserId('login_hint names no known user');
  }
  if (request.channel.type === 'sms') {
    await reserveCibaSms(deps.smsLimits, {
      target: request.channel.target,
      clientId: client.clientId,
      tenantId: client.tenantId,
      ip: req.ip ?? '',
    });
  }
  const flowId = newFlowId();
  const started = await deps.grants.startBackchannel({
    tenantId: client.tenantId,
    appId: client.appId,
    clientId: client.clientId,
    scope: request.scope.join(' '),
    clientNotificationToken: request.clientNotificationToken ?? '',
    // The app's own lifetime when its settings carry one (spec 8), else the platform's.
    expiresIn: client.ciba?.expiresIn || deps.cibaExpiresInS,
    flowId,
  });
  const now = deps.now();
  const flow: Flow<SignInRequest> = {
    id: flowId,
    tenantId: client.tenantId,
    appId: client.appId,
    clientId: client.clientId,
    appName: client.appName,
    // Bound to the browser that takes the link (ciba-link-pages.ts); until then no session matches.
    sessionKey: '',
    request: signInRequestOf(deps, client.clientId, request),
    locale: negotiateLocale(request.uiLocales, undefined),
    createdAt: now,
    expiresAt: now + started.expiresIn * 1000,
    step: 'identify',
    clientIp: req.ip ?? '0.0.0.0',
    originatingDevice: { deviceId: randomUUID(), facts: deps.deviceFacts(req.get('user-agent')) },
    ...(request.loginHint ? { email: request.loginHint } : {}),
    ciba: { sealedAuthReqId: deps.sealer.seal(started.authReqId), channel: request.channel.type },
  };
  const token = CibaLinks.newToken();
  await deps.flows.create(flow);
  await deps.cibaLinks.store(token, flow.id, started.expiresIn * 1000);
  await deps.record(flow, 'auth_start_native', { status: 'incomplete' });
  const link = `${deps.authUrl.replace(/\/+$/, '')}/ciba/${token}`;
  if (request.channel.type === 'sms') {
    await sendLinkBySms(deps, flow, started.authReqId, token, request.channel, link);
  }
  res.status(200).json({
    auth_req_id: started.authReqId,
    expires_in: started.expiresIn,
    ...(request.channel.type === 'direct_link' ? { link, interval: started.interval } : {}),
  });
}

/**
 * The authentication request's parameters: the form's, or a signed request's claims (FAPI-CIBA, CIBA Core
 * 7.1.1) verified with the client's keys. An app with backchannelAuthenticationRequestSigningAlg must sign.
 */
async function requestParams(
  deps: CibaDeps,
  form: CibaParams,
  client: directory.Client,
): Promise<CibaParams> {
  const requiredAlg = client.backchannelAuthenticationRequestSigningAlg;
  if (form.request === undefined) {
    if (requiredAlg)
      throw cibaErrors.invalidRequest(
        `this client's authentication requests must be signed with ${requiredAlg} (the request parameter)`,
      );
    return form;
  }
  const claims = await deps.verifySignedCibaRequest(
    {
      clientId: client.clientId,
      jwks: client.jwks,
      jwksUri: client.jwksUri,
      backchannelAuthenticationRequestSigningAlg: requiredAlg,
    },
    form.request,
  );
  return signedRequestParams(form, claims, client.clientId);
}

/** The request as the hosted sign-in reads it: no redirect (the auth origin), binding_message as the custom message. */
function signInRequestOf(deps: CibaDeps, clientId: string, request: CibaRequest): SignInRequest {
  const out: SignInRequest = {
    clientId,
    redirectUri: deps.authUrl,
    scope: request.scope,
    acrValues: request.acrValues,
    uiLocales: request.uiLocales,
  };
  if (request.loginHint) out.loginHint = request.loginHint;
  if (request.boundTo) out.boundTo = request.boundTo;
  if (request.claims) out.claims = request.claims;
  if (request.bindingMessage) out.customMessage = request.bindingMessage;
  return out;
}

/**
 * Sends the link to channel.target. A failure leaves nothing pending: the request is denied at Grants, the
 * link and flow are removed, and the RP gets an error instead of an auth_req_id nobody can complete.
 */
async function sendLinkBySms(
  deps: CibaDeps,
  flow: Flow<SignInRequest>,
  authReqId: string,
  token: string,
  channel: { target: string; message?: string },
  link: string,
): Promise<void> {
  const intro = translate(flow.locale, 'ciba.sms.text', { appName: flow.appName });
  try {
    await deps.sendSms({ to: channel.target, text: cibaSmsText(flow.appName, link, intro, channel.message) });
  } catch (err) {
    deps.logger.warn({ err, flowId: flow.id }, 'the CIBA link could not be sent by SMS');
    await deps.cibaLinks.revoke(token);
    await deps.flows.delete(flow.id);
    await deps.grants.denyBackchannel(authReqId, 'the SMS could not be sent').catch((denyErr: unknown) => {
      deps.logger.warn(
        { err: denyErr, flowId: flow.id },
        'could not deny the CIBA request after the SMS failed',
      );
    });
    await deps.record(flow, 'user_send_sms', { status: 'failure', failureReason: 'SMS not delivered' });
    if (err instanceof SmsDeliveryError && err.kind === 'rejected') {
      throw cibaErrors.invalidRequest('channel.target could not be reached by SMS');
    }
    // Nothing is left pending (no auth_req_id is answered).
    throw cibaErrors.temporarilyUnavailable(
      'the SMS with the authentication link could not be sent; retry later',
      SMS_RETRY_AFTER_S,
    );
  }
  await deps.record(flow, 'user_send_sms');
}

/** This endpoint's URL, accepted as a client assertion's aud besides the issuer and the token endpoint. */
const cibaEndpointUrl = (deps: Pick<CibaDeps, 'authUrl'>) => new URL('/authorize_ciba', deps.authUrl).href;
