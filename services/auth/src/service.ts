// Over 300 lines on purpose: auth's composition root, one place that wires its stores, peers, routes and
// consumers (each piece lives in its own module; splitting the wiring would only scatter it).
import type { EmbeddedStore } from '@sesame/embedded-store';
import { type EventBus, type EventConsumer, evictOnAdminEvents } from '@sesame/events';
import { createFlowEvents } from '@sesame/flow-events';
import { AuthFailureThrottle, shortLivedKeyValueStore } from '@sesame/kv';
import { DevOutbox, type MailSender, createMailSender, devMailRouter } from '@sesame/mail';
import {
  ClientJwks,
  clientAssertionVerifier,
  dpopNonces,
  dpopVerifier,
  signedCibaRequestVerifier,
} from '@sesame/oauth';
import {
  type Logger,
  type ServiceModule,
  createLogger,
  createMetrics,
  kindOf,
  systemClock,
} from '@sesame/platform';
import { users } from '@sesame/proto';
import { openStores, registerEventMetrics } from '@sesame/runtime';
import { DevSmsOutbox, type SmsSender, createSmsSender, devSmsRouter } from '@sesame/sms';
import express from 'express';
import { brandRouter } from './branding/brand-routes';
import { BRAND_PATH } from './branding/brand-urls';
import { cacheBrands } from './branding/brands';
import { buildHostedDeps } from './build-hosted-deps';
import { CibaLinks, Sealer, mountAuthorizeCiba } from './ciba';
import { cacheClients, clientCacheEvictions } from './client-cache';
import type { AuthConfig } from './config';
import { closeLocationLookup, openLocationLookup } from './devices';
import { EnrollmentFlows } from './flow/flow-store';
import { MobileLinks } from './flow/qr-links';
import { createActivationLink } from './grpc/create-activation-link';
import { createInteractiveFlow } from './grpc/create-interactive-flow';
import { listUsers, removePasskey, removePhoneNumber } from './grpc/support-people';
import { findUsers, getUserDetail } from './grpc/support-users';
import { userSessionsGrpc } from './grpc/user-sessions';
import { usersGrpc } from './grpc/users-grpc';
import { hostedRouter } from './hosted-router';
import { cibaHostedParts } from './journeys/ciba';
import { EnrollmentLinks } from './journeys/enrollment/links';
import { mountEnrollmentPages } from './journeys/enrollment/routes';
import { mountLogout } from './journeys/logout/routes';
import { RegistrationLinks } from './journeys/registration/links';
import { mountRegistrationPages } from './journeys/registration/routes';
import { fastAuthorizeRoute } from './journeys/sign-in/authorize-fast';
import { activationMailLimiter, cibaSmsLimiter } from './message-limits';
import { ASSETS_PATH, assetFiles, assetsRouter, createPageRenderer } from './pages';
import { notFoundHandler, welcomePage } from './pages/not-found';
import { mountPar } from './par/par-route';
import { type PasskeyRepository, createPasskeyStore } from './passkeys';
import { type AuthPeers, grpcPeers } from './peers';
import { mountDiscovery } from './routes/discovery';
import { mountSessionFeedback } from './routes/session-feedback';
import { type UserStore, createUserStore } from './users';

export interface AuthOverrides {
  logger?: Logger;
  /** Shared in-memory bus of the embedded launcher. */
  bus?: EventBus;
  /**
   * The embedded launcher's durable engine: without a Mongo URL, people, memberships and passkeys live in it (and
   * the KV, without a Redis URL); without it either, in memory.
   */
  embedded?: EmbeddedStore;
  /** User store (users, app memberships); defaults to Mongo when configured, else the engine, else in-memory. */
  userStore?: UserStore;
  /** Passkeys; defaults to Mongo when configured, else the engine, else in-memory. */
  passkeys?: PasskeyRepository;
  /** Replaces the Directory, Keys and Grants clients (tests). */
  peers?: AuthPeers;
  /** Replaces the mail sender the config picks (tests read a DevOutbox). */
  mail?: MailSender;
  /** Replaces the SMS sender the config picks (tests read a DevSmsOutbox). */
  sms?: SmsSender;
}

export async function createAuthService(
  config: AuthConfig,
  overrides: AuthOverrides = {},
): Promise<ServiceModule> {
  const logger = overrides.logger ?? createLogger({ service: 'auth', level: config.LOG_LEVEL });
  const metrics = createMetrics('auth');
  const mail = overrides.mail ?? createMailSender(config, logger);
  const sms = overrides.sms ?? createSmsSender(config, logger);
  const stores = await openStores('auth', config, { kv: true, events: true, mongo: true }, logger, {
    bus: overrides.bus,
    embedded: overrides.embedded,
  });
  if (!stores.kv || !stores.bus) throw new Error('auth needs its KV store and event bus');
  registerEventMetrics(metrics.registry, stores.bus);
  const userStore = overrides.userStore ?? createUserStore(stores.mongo, stores.kv, stores.embedded);
  const remotePeers = overrides.peers ?? grpcPeers(config);
  const clients = cacheClients(remotePeers.getClient, config.SESAME_DIRECTORY_CACHE_MS);
  const peers: AuthPeers = { ...remotePeers, getClient: clients.getClient };
  const brands = cacheBrands(
    remotePeers.getBranding,
    assetFiles().get('sesame.css')!.body,
    config.SESAME_DIRECTORY_CACHE_MS,
    (err) => logger.warn({ err }, 'branding not read: pages and mails show the default design'),
  );
  // Every admin event empties both caches: a changed app or branding counts on the next page.
  const directoryCaches = {
    clear() {
      clients.clear();
      brands.clear();
    },
  };
  const bus = stores.bus;
  const location = await openLocationLookup().catch((err) => {
    logger.warn({ err }, 'no IP-location database: activity records carry no location');
    return undefined;
  });
  const flowEvents = createFlowEvents({ publisher: stores.bus.publisher, logger });
  const registrationLinks = new RegistrationLinks(stores.kv, config.SESAME_CODE_HASH_KEY);
  const mailLimits = activationMailLimiter(stores.kv, config);
  const clientJwks = new ClientJwks(systemClock);
  const hosted = buildHostedDeps({
    clientJwks,
    config,
    logger,
    kv: stores.kv,
    shortLivedKv: shortLivedKeyValueStore(stores.kv),
    users: userStore,
    passkeys: overrides.passkeys ?? createPasskeyStore(stores.mongo, stores.embedded),
    peers,
    events: flowEvents,
    location,
    pages: createPageRenderer(),
    sendMail: (m) => mail.send(m),
    brands,
  });
  hosted.sendSms = (m) => sms.send(m);
  const assertions = clientAssertionVerifier({
    clock: systemClock,
    jwks: clientJwks,
    replays: stores.kv,
    // FAPI 2.0 asks for the issuer; RFC 7523 names the token endpoint. Both are accepted (docs/fapi.md).
    audiences: [config.SESAME_AUTH_URL, new URL('/token', config.SESAME_AUTH_URL).href],
  });
  const dpop = dpopVerifier({
    clock: systemClock,
    replays: stores.kv,
    ...(config.SESAME_DPOP_NONCE_SECRET
      ? { nonces: dpopNonces(config.SESAME_DPOP_NONCE_SECRET, systemClock) }
      : {}),
  });
  const authFailures = new AuthFailureThrottle(
    stores.kv,
    {
      perClientAndIp: config.SESAME_AUTH_FAILURES_PER_CLIENT_IP,
      perIp: config.SESAME_AUTH_FAILURES_PER_IP,
      windowMs: config.SESAME_AUTH_FAILURE_WINDOW_S * 1000,
    },
    logger,
  );
  const mtls = {
    keys: clientJwks,
    forwarded: {
      cert: config.SESAME_TLS_CLIENT_CERT_HEADER,
      verify: config.SESAME_TLS_CLIENT_VERIFY_HEADER,
    },
  };
  const ciba = cibaHostedParts({
    ...hosted,
    grants: peers,
    authFailures,
    assertions,
    mtls,
    verifySignedCibaRequest: signedCibaRequestVerifier({
      clock: systemClock,
      jwks: clientJwks,
      replays: stores.kv,
      issuer: config.SESAME_AUTH_URL,
    }),
    cibaLinks: new CibaLinks(stores.kv, config.SESAME_CODE_HASH_KEY),
    sealer: new Sealer(config.SESAME_CODE_HASH_KEY),
    sendSms: (m) => sms.send(m),
    smsLimits: cibaSmsLimiter(stores.kv, config),
    cibaExpiresInS: config.SESAME_CIBA_EXPIRES_IN_S,
  });
  const enrollmentLinks = new EnrollmentLinks(stores.kv, {
    hashKey: config.SESAME_CODE_HASH_KEY,
    ttlMs: config.SESAME_ENROLLMENT_LINK_TTL_S * 1000,
  });
  const enrollmentDeps = {
    ...hosted,
    enrollmentLinks,
    enrollmentFlows: new EnrollmentFlows(stores.kv),
    enrollmentMobileLinks: new MobileLinks(stores.kv, {
      ttlMs: config.SESAME_QR_OPEN_TIMEOUT_S * 1000,
      memoryMs: config.SESAME_FLOW_TTL_S * 1000,
      prefix: 'enroll-mobile-link',
    }),
    getClient: peers.getClient,
  };
  const enrollment = { mountPages: (router: express.Router) => mountEnrollmentPages(router, enrollmentDeps) };
  const deps = { ...hosted, ciba, enrollment };

  let evictions: Promise<EventConsumer | undefined> | undefined;

  const routes = express.Router();
  // The sign-in's pages first (the requests express serves most); none of the routes below shares a path with
  // them, and their errors stay in the hosted router (its own error page), as when it was mounted last.
  routes.use(hostedRouter(deps));
  const discovery = mountDiscovery(routes, config);
  routes.use(ASSETS_PATH, assetsRouter());
  routes.use(BRAND_PATH, brandRouter(brands));
  // The development outbox is readable only in development: anywhere else mail goes out over SMTP.
  const outbox = mail instanceof DevOutbox && kindOf(config) === 'development';
  if (outbox) routes.use(devMailRouter(mail));
  // A development setup's root URL says where to go: the console, the discovery document, the outbox.
  if (kindOf(config) === 'development') routes.get('/', welcomePage(hosted, config.SESAME_ADMIN_URL, outbox));
  if (sms instanceof DevSmsOutbox && kindOf(config) === 'development') routes.use(devSmsRouter(sms));
  mountAuthorizeCiba(routes, ciba.deps);
  mountPar(routes, {
    authUrl: config.SESAME_AUTH_URL,
    peers,
    authFailures,
    assertions,
    mtls,
    authorize: hosted.authorizeDeps,
    pushed: hosted.pushedRequests,
    dpop,
  });
  mountRegistrationPages(routes, { ...hosted, registrationLinks, kv: stores.kv });
  mountSessionFeedback(routes, { peers, users: userStore, events: flowEvents, logger });
  mountLogout(routes, {
    issuer: config.SESAME_AUTH_URL,
    logger,
    sessions: hosted.sessions,
    pages: hosted.pages,
    brands,
    kv: stores.kv,
    getClient: peers.getClient,
    verifySignature: (jws) => peers.verifySignature(jws),
    signLogoutToken: (request) => peers.signLogoutToken(request),
    publisher: stores.bus.publisher,
    now: Date.now,
  });
  return {
    name: 'auth',
    logger,
    metrics,
    routes,
    notFound: notFoundHandler(hosted),
    fastRoutes: [discovery],
    // A browser's first GET /authorize ahead of express; anything else it hands to the routes above.
    rawRoutes: [fastAuthorizeRoute(deps, { config, metrics })],
    grpc: (server) =>
      server.add<users.UsersServiceServer>(users.UsersServiceService, {
        ...usersGrpc(userStore),
        findUsers: findUsers(userStore),
        getUserDetail: getUserDetail(userStore, hosted.passkeys),
        ...userSessionsGrpc({
          users: userStore,
          sessions: hosted.sessions,
          ...(location ? { location } : {}),
          backchannel: {
            issuer: config.SESAME_AUTH_URL,
            logger,
            getClient: peers.getClient,
            signLogoutToken: (request) => peers.signLogoutToken(request),
            publisher: bus.publisher,
            now: Date.now,
          },
        }),
        listUsers: listUsers(userStore, hosted.passkeys),
        removePasskey: removePasskey(userStore, hosted.passkeys),
        removePhoneNumber: removePhoneNumber(userStore),
        createInteractiveFlow: createInteractiveFlow({
          users: userStore.users,
          links: enrollmentLinks,
          authUrl: config.SESAME_AUTH_URL,
        }),
        createActivationLink: createActivationLink({
          links: registrationLinks,
          memberships: userStore.memberships,
          users: userStore.users,
          events: flowEvents,
          sendMail: (m) => mail.send(m),
          mailLimits,
          logger,
          authUrl: config.SESAME_AUTH_URL,
          now: Date.now,
          brands,
        }),
      }),
    readiness: stores.readiness,
    start: async () => {
      // Not awaited: joining a consumer group waits for Kafka, and /authorize must not wait for it. Until the
      // consumer runs, the cache TTL alone bounds how long an admin change can lag.
      if (config.SESAME_DIRECTORY_CACHE_MS > 0)
        evictions = evictOnAdminEvents(bus, directoryCaches, logger, clientCacheEvictions).catch(
          (err: unknown) => {
            logger.warn({ err }, 'admin events consumer did not start; the client cache relies on its TTL');
            return undefined;
          },
        );
    },
    stop: async () => {
      await (await evictions)?.stop();
      peers.close();
      closeLocationLookup();
      await mail.close();
      await sms.close();
      await stores.close();
    },
  };
}
