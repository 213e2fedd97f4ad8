import type { FlowEvents } from '@sesame/flow-events';
import type { KeyValueStore } from '@sesame/kv';
import { ClientJwks, signedRequestObjectVerifier } from '@sesame/oauth';
import type { Logger } from '@sesame/platform';
import { parseAuthorizeRequest } from './authorize';
import type { AuthorizeDeps } from './authorize/types';
import type { Brands } from './branding/brands';
import { type AuthConfig, webAuthnSettings } from './config';
import { memoizedDeviceFacts } from './devices';
import type { LocationLookup } from './devices';
import { EmailCodes } from './email/email-codes';
import { MagicLinks } from './email/magic-links';
import { SendThrottle } from './email/send-throttle';
import { FlowStore } from './flow/flow-store';
import { MobileLinks } from './flow/qr-links';
import type { PageRenderer } from './pages';
import { PushedRequests } from './par/pushed-requests';
import { PasskeyCeremonies, type PasskeyRepository, memoryPasskeyStore } from './passkeys';
import type { AuthPeers } from './peers';
import { SessionManager } from './session/browser-session';
import { flowRecorders } from './signin/flow-events';
import type { UserStore } from './users';
import type { HostedDeps } from './web/deps';

/** Builds the hosted sign-in's dependencies from the config and the stores the service opened. */
export function buildHostedDeps(input: {
  config: AuthConfig;
  logger: Logger;
  kv: KeyValueStore;
  /** Flows, codes, links, ceremonies and throttles (@sesame/kv's shortLivedKeyValueStore); defaults to `kv`. */
  shortLivedKv?: KeyValueStore;
  users: UserStore;
  peers: AuthPeers;
  events: FlowEvents;
  location: LocationLookup | undefined;
  pages: PageRenderer;
  sendMail: HostedDeps['sendMail'];
  now?: () => number;
  /** Defaults to an in-memory store. */
  passkeys?: PasskeyRepository;
  /** The apps' brands; without them pages and mails keep Sesame's design. */
  brands?: Brands;
  /** The clients' keys (signed request objects), shared with private_key_jwt's verifier and its cache. */
  clientJwks?: ClientJwks;
}): HostedDeps {
  const { config, kv, peers } = input;
  const shortLived = input.shortLivedKv ?? kv;
  const now = input.now ?? Date.now;
  const passkeys = input.passkeys ?? memoryPasskeyStore();
  const locate = (ip: string) => {
    const found = input.location?.lookup(ip);
    return found && { ...found };
  };
  const { record, recordSteps } = flowRecorders(input.events, input.logger, locate);
  const pushedRequests = new PushedRequests(kv);
  const authorizeDeps: AuthorizeDeps = {
    getClient: peers.getClient,
    decryptRequestObject: peers.decryptRequestObject,
    verifySignedRequestObject: signedRequestObjectVerifier({
      clock: { now },
      jwks: input.clientJwks ?? new ClientJwks({ now }),
      issuer: config.SESAME_AUTH_URL,
    }),
    takePushedRequest: (requestUri, clientId) => pushedRequests.take(requestUri, clientId),
    requirePushedRequests: config.SESAME_REQUIRE_PAR,
    issuer: config.SESAME_AUTH_URL,
  };
  return {
    authorizeDeps,
    pushedRequests,
    logger: input.logger,
    authUrl: config.SESAME_AUTH_URL,
    issuer: config.SESAME_AUTH_URL,
    now,
    sessions: new SessionManager(kv, {
      ttlMs: config.SESAME_SESSION_TTL_S * 1000,
      secure: config.SESAME_AUTH_URL.startsWith('https:'),
    }),
    flows: new FlowStore(shortLived, {
      ttlMs: config.SESAME_PENDING_FLOW_TTL_S * 1000,
      perTenantMax: config.SESAME_PENDING_FLOWS_PER_TENANT_MAX,
      max: config.SESAME_PENDING_FLOWS_MAX,
      perIpMax: config.SESAME_PENDING_FLOWS_PER_IP,
      ipWindowMs: config.SESAME_PENDING_FLOW_TTL_S * 1000,
      now,
    }),
    users: input.users,
    codes: new EmailCodes(shortLived, {
      ttlMs: config.SESAME_EMAIL_CODE_TTL_S * 1000,
      maxAttempts: config.SESAME_EMAIL_CODE_MAX_ATTEMPTS,
      hashKey: config.SESAME_CODE_HASH_KEY,
    }),
    links: new MagicLinks(shortLived, {
      ttlMs: config.SESAME_MAGIC_LINK_TTL_S * 1000,
      memoryMs: config.SESAME_FLOW_TTL_S * 1000,
    }),
    mobileLinks: new MobileLinks(shortLived, {
      ttlMs: config.SESAME_QR_OPEN_TIMEOUT_S * 1000,
      memoryMs: config.SESAME_FLOW_TTL_S * 1000,
    }),
    qrOpenTimeoutMs: config.SESAME_QR_OPEN_TIMEOUT_S * 1000,
    sendThrottle: new SendThrottle(shortLived, {
      perAddress: config.SESAME_MAILS_PER_ADDRESS,
      perAddressTenant: config.SESAME_MAILS_PER_ADDRESS_TENANT,
      perAddressGlobal: config.SESAME_MAILS_PER_ADDRESS_GLOBAL,
      perIp: config.SESAME_MAILS_PER_IP,
      perProvenAddress: config.SESAME_MAILS_PER_PROVEN_ADDRESS,
      windowMs: config.SESAME_MAIL_WINDOW_S * 1000,
    }),
    flowTtlMs: config.SESAME_FLOW_TTL_S * 1000,
    codeTtlMinutes: Math.round(config.SESAME_EMAIL_CODE_TTL_S / 60),
    linkTtlMinutes: Math.round(config.SESAME_MAGIC_LINK_TTL_S / 60),
    parseAuthorize: (params) => parseAuthorizeRequest(params, authorizeDeps),
    issueCode: peers.issueCode,
    countryOf: (ip) => input.location?.lookup(ip)?.country,
    placeOf: (ip) => {
      const found = input.location?.lookup(ip);
      return found && { city: found.city, country: found.country };
    },
    record,
    recordSteps,
    pages: input.pages,
    ...(input.brands ? { brands: input.brands } : {}),
    sendMail: input.sendMail,
    deviceFacts: memoizedDeviceFacts(),
    passkeys,
    ceremonies: new PasskeyCeremonies(shortLived, passkeys, webAuthnSettings(config), now),
  };
}
