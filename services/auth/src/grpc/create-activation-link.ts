import type { LimitDimension, SendLimiter } from '@sesame/kv';
import { ACR_VALUES } from '@sesame/oauth';
import { GrpcError, GrpcStatus } from '@sesame/platform';
import { users } from '@sesame/proto';
import { z } from 'zod';
import {
  AliasTakenError,
  type InviteDeps,
  type InviteRequest,
  invite,
} from '../journeys/registration/invite';

const {
  ACTIVATION_ALIAS_TYPE_NONE: NONE,
  ACTIVATION_ALIAS_TYPE_EMAIL: EMAIL,
  ACTIVATION_ALIAS_TYPE_ALIAS: ALIAS,
} = users.ActivationAliasType;

const id = z.string().min(1).max(256);
const text = z.string().max(1000);
const absoluteUri = z.string().min(1).max(2000).url();

/** mgmt validated the body against spec 4.5 already; this is the contract's own guard (defence in depth). */
const requestSchema = z.object({
  tenantId: id,
  appId: id,
  clientId: id,
  appName: z.string().min(1).max(200),
  registrationRedirectUri: absoluteUri,
  userEmail: z.string().min(3).max(254).email(),
  scopes: z.array(z.enum(['email', 'phone'])).max(2),
  verifications: z.array(z.enum(ACR_VALUES)).max(2),
  aliasType: z.nativeEnum(users.ActivationAliasType),
  aliasValue: z.string().max(200),
  confirmedUser: z.boolean(),
  customMessage: text,
  secondaryCompletionMessage: text,
  completionText: text,
  completionLink: z.object({ redirectUri: absoluteUri, label: z.string().min(1).max(200) }).optional(),
  expiresInS: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600),
  clientIp: z.string().max(64),
});

function aliasOf(req: z.infer<typeof requestSchema>): string | undefined {
  switch (req.aliasType) {
    case EMAIL:
      return req.userEmail;
    case ALIAS:
      if (!req.aliasValue) throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, 'alias_value is required');
      return req.aliasValue;
    case NONE:
      return undefined;
    default:
      // No alias object: allowed only when the user is not bound to the app (spec 4.5).
      if (req.confirmedUser) throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, 'alias_type is required');
      return undefined;
  }
}

const LIMITED: Record<LimitDimension, string> = {
  destination: 'this address',
  destination_tenant: 'this address',
  destination_ip: 'this address',
  proven: 'this address',
  client: 'this client',
  tenant: 'this tenant',
  ip: 'this caller address',
};

/**
 * Reserves one registration mail (per address and tenant, per address over every tenant, per client, tenant and
 * caller IP; sliding windows) or throws
 * RESOURCE_EXHAUSTED whose message ends `retry after <n> s` (mgmt answers 429 with Retry-After).
 */
async function reserveMail(
  limits: SendLimiter | undefined,
  r: { userEmail: string; clientId: string; tenantId: string; clientIp: string },
) {
  if (!limits) return;
  const decision = await limits.reserve({
    destination: r.userEmail.toLowerCase(),
    client: r.clientId,
    tenant: r.tenantId,
    ip: r.clientIp,
  });
  if (!decision.allowed)
    throw new GrpcError(
      GrpcStatus.RESOURCE_EXHAUSTED,
      `too many registration mails for ${LIMITED[decision.dimension]}; retry after ${decision.retryAfterS} s`,
    );
}

/**
 * CreateActivationLink (send-activation, spec 4.5): only mgmt may call it (grpc-callers.ts). Stores the
 * single-use link and mails it; ALREADY_EXISTS when the alias is another user's in this app;
 * RESOURCE_EXHAUSTED when a mail limit is reached (nothing is stored or sent then).
 */
export function createActivationLink(deps: InviteDeps & { mailLimits?: SendLimiter }) {
  return async (request: users.CreateActivationLinkRequest): Promise<users.CreateActivationLinkResponse> => {
    const parsed = requestSchema.safeParse(request);
    if (!parsed.success) {
      const field = String(parsed.error.issues[0]?.path.join('.') ?? 'request');
      throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, `invalid ${field}`);
    }
    const r = parsed.data;
    const input: InviteRequest = {
      tenantId: r.tenantId,
      appId: r.appId,
      clientId: r.clientId,
      appName: r.appName,
      registrationRedirectUri: r.registrationRedirectUri,
      email: r.userEmail.toLowerCase(),
      scopes: [...new Set(r.scopes)],
      verifications: [...new Set(r.verifications)],
      confirmedUser: r.confirmedUser,
      expiresInS: r.expiresInS,
      clientIp: r.clientIp,
    };
    const alias = aliasOf(r);
    if (alias) input.alias = alias;
    await reserveMail(deps.mailLimits, r);
    if (r.customMessage) input.customMessage = r.customMessage;
    if (r.secondaryCompletionMessage) input.secondaryCompletionMessage = r.secondaryCompletionMessage;
    if (r.completionText) input.completionText = r.completionText;
    if (r.completionLink) input.completionLink = r.completionLink;
    try {
      const result = await invite(deps, input);
      return {
        channels: [{ channelType: 'email', target: input.email, status: result.sent ? 'sent' : 'failed' }],
        flowId: result.flowId,
        expiresAt: result.expiresAt,
      };
    } catch (err) {
      if (err instanceof AliasTakenError) throw new GrpcError(GrpcStatus.ALREADY_EXISTS, err.message);
      throw err;
    }
  };
}
