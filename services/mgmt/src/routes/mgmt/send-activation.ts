import { GrpcStatus, MgmtError, isGrpcStatus } from '@sesame/platform';
import { users } from '@sesame/proto';
import express, { Router } from 'express';
import type { ApplicationRepository } from '../../directory/directory.repository';
import type { Application } from '../../directory/model';
import { asyncRoute } from '../../http/async-route';
import { parse } from '../../http/validate';
import { type UsersPeer, peerUnavailable } from '../../peers';
import { type MgmtPrincipal, assertSameCredentials, principalOf } from '../../principal';
import { redirectUri as redirectUriSchema } from '../../use-cases/applications/application-schemas';
import { type InvitationBody, sendActivationBody } from './send-activation-body';

export const SEND_ACTIVATION_PATH = '/api/v1/mgmt/send-activation';

const aliasTypes = {
  none: users.ActivationAliasType.ACTIVATION_ALIAS_TYPE_NONE,
  email: users.ActivationAliasType.ACTIVATION_ALIAS_TYPE_EMAIL,
  alias: users.ActivationAliasType.ACTIVATION_ALIAS_TYPE_ALIAS,
};

/**
 * The app of the clientId, if it is the token's tenant's. An unknown clientId and one of another tenant get
 * the same 403 (as every management endpoint answers for another tenant's app), so the answer never tells
 * whether a client exists elsewhere; the message says what to check.
 */
async function appOfTenant(apps: ApplicationRepository, principal: MgmtPrincipal, clientId: string) {
  const app = await apps.findByClientId(clientId);
  if (!app || app.tenantId !== principal.tenantId) {
    throw new MgmtError(403, 'forbidden', 'clientId names no application of the tenant of these credentials');
  }
  return app;
}

function checkRegistrationRedirectUri(app: Application): string {
  if (!app.registrationRedirectUri) {
    throw new MgmtError(
      400,
      'missing_registrationRedirectUri',
      'the application has no registration redirect URI: set registrationRedirectUri in its settings first',
    );
  }
  return app.registrationRedirectUri;
}

function checkScopes(app: Application, body: InvitationBody): void {
  const refused = body.scopes.filter((s) => !app.allowedScopes.includes(s));
  if (refused.length) {
    throw new MgmtError(400, 'invalid_scope', 'a scope is not allowed for this application', {
      scopes: `must be among the application's allowed scopes (${app.allowedScopes.join(', ')})`,
    });
  }
}

/** completionMessage.link.redirectUri must be one of the app's redirect URIs (compared after normalization). */
function checkCompletionLink(app: Application, body: InvitationBody): string | undefined {
  const uri = body.completionMessage?.link?.redirectUri;
  if (uri === undefined) return undefined;
  const normalized = redirectUriSchema.safeParse(uri);
  if (!normalized.success || !app.redirectUris.includes(normalized.data)) {
    throw new MgmtError(400, 'invalid_request', 'invalid request body', {
      'completionMessage.link.redirectUri': "must be one of the application's redirect URIs",
    });
  }
  return normalized.data;
}

/** A mail limit of auth (RESOURCE_EXHAUSTED `… retry after <n> s`) as 429 with Retry-After. */
function tooManyMails(err: unknown): MgmtError {
  const details = String((err as { details?: unknown }).details ?? (err as Error).message ?? '');
  const retryAfterS = Number(/retry after (\d+) s$/.exec(details)?.[1] ?? 60);
  const refused = new MgmtError(
    429,
    'too_many_requests',
    /^too many registration mails for [a-z ]+/.exec(details)?.[0] ??
      'too many registration mails; retry later',
  );
  refused.headers = { 'Retry-After': String(retryAfterS) };
  return refused;
}

/** The spec 4.5 response: one channel (email), success when it sent the link. */
export interface SendActivationResult {
  status: 'success' | 'failure';
  activationResult: { channelsResult: { channelType: string; target: string; status: string }[] };
}

/**
 * Sends an invitation for an application the caller may use: the app's registration redirect URI, scopes and
 * completion link (400), then Users.CreateActivationLink (409 when another user of the app holds the alias).
 */
export async function sendInvitation(
  users$: UsersPeer,
  app: Application,
  body: InvitationBody,
  clientIp: string,
): Promise<SendActivationResult> {
  const registrationRedirectUri = checkRegistrationRedirectUri(app);
  checkScopes(app, body);
  const linkUri = checkCompletionLink(app, body);
  const request = users.CreateActivationLinkRequest.fromPartial({
    tenantId: app.tenantId,
    appId: app.appId,
    clientId: app.clientId,
    appName: app.name,
    registrationRedirectUri,
    userEmail: body.userEmail,
    scopes: body.scopes,
    verifications: body.verifications,
    aliasType: body.alias
      ? aliasTypes[body.alias.type]
      : users.ActivationAliasType.ACTIVATION_ALIAS_TYPE_UNSPECIFIED,
    aliasValue: body.alias?.value ?? '',
    confirmedUser: body.confirmedUser,
    customMessage: body.customMessage ?? '',
    secondaryCompletionMessage: body.secondaryCompletionMessage ?? '',
    completionText: body.completionMessage?.text ?? '',
    ...(linkUri && body.completionMessage?.link
      ? { completionLink: { redirectUri: linkUri, label: body.completionMessage.link.label } }
      : {}),
    expiresInS: app.registrationLinkExpiresIn ?? 0,
    clientIp,
  });
  let answer: users.CreateActivationLinkResponse;
  try {
    answer = await users$.createActivationLink(request);
  } catch (err) {
    if (isGrpcStatus(err, GrpcStatus.ALREADY_EXISTS)) {
      throw new MgmtError(409, 'alias_taken', 'the alias belongs to another user of the application', {
        'alias.value': 'is taken by another user of the application',
      });
    }
    if (isGrpcStatus(err, GrpcStatus.RESOURCE_EXHAUSTED)) throw tooManyMails(err);
    throw peerUnavailable(err, 'the user service');
  }
  const channelsResult = answer.channels.map((c) => ({
    channelType: c.channelType,
    target: c.target,
    status: c.status,
  }));
  return {
    status: channelsResult.every((c) => c.status === 'sent') ? 'success' : 'failure',
    activationResult: { channelsResult },
  };
}

/**
 * POST /api/v1/mgmt/send-activation (spec 4.5): mails a registration link through Users.CreateActivationLink
 * (auth owns users and links). Checks, in order: bearer token (401), body (400), credentialsId of the token
 * (403), clientId of the token's tenant (403), then sendInvitation's.
 */
export function sendActivationRoute(deps: { users: UsersPeer; applications: ApplicationRepository }): Router {
  return Router().post(
    SEND_ACTIVATION_PATH,
    express.json({ limit: '16kb' }),
    asyncRoute(async (req, res) => {
      const principal = principalOf(res);
      const body = parse(sendActivationBody, req.body);
      assertSameCredentials(principal, body.credentialsId);
      const app = await appOfTenant(deps.applications, principal, body.clientId);
      res.json(await sendInvitation(deps.users, app, body, req.ip ?? ''));
    }),
  );
}
