import {
  type AsyncServer,
  type Clock,
  GrpcError,
  GrpcServer,
  GrpcStatus,
  createLogger,
  notImplemented,
} from '@sesame/platform';
import { type events, activitylogs, grants, keys, users } from '@sesame/proto';

/** An access token the fake Grants service knows. */
export interface FakeToken {
  tenantId: string;
  credentialsId: string;
  scope: string;
  /** Epoch seconds. */
  expiresAt: number;
  active?: boolean;
  /** A user's token (code or CIBA grant): its subject and the client it was issued to. */
  sub?: string;
  clientId?: string;
}

export interface FakeMembership {
  tenantId: string;
  appId: string;
  userId: string;
  alias?: string;
}

/**
 * Real gRPC servers for the peers mgmt calls (Grants, Users, Keys, ActivityLogs), backed by plain tables the
 * test fills. Until token's introspection lands these stand in for it; the wire, deadlines and status codes
 * are real.
 */
export class FakePeers {
  readonly tokens = new Map<string, FakeToken>();
  readonly memberships: FakeMembership[] = [];
  readonly blocked: users.BlockDeviceRequest[] = [];
  readonly removeCalls: users.RemoveUserRequest[] = [];
  readonly revokedGrants: grants.RevokeUserGrantsRequest[] = [];
  readonly interactiveFlows: users.CreateInteractiveFlowRequest[] = [];
  readonly activationCalls: users.CreateActivationLinkRequest[] = [];
  /** Aliases Users.CreateActivationLink answers ALREADY_EXISTS for (another user holds them). */
  readonly takenAliases = new Set<string>();
  /** Users removed from their apps: LookupUser answers NOT_FOUND for them. */
  readonly removedUsers = new Set<string>();
  /** Addresses auth refuses as over their mail limit (RESOURCE_EXHAUSTED, as auth's send limiter answers). */
  readonly limitedAddresses = new Set<string>();
  /** Users.SignOutEverywhere and Users.SetUserDisabled calls, in order. */
  readonly signOuts: users.SignOutEverywhereRequest[] = [];
  readonly disables: users.SetUserDisabledRequest[] = [];
  /** Set: Grants.RevokeUserGrants answers UNAVAILABLE (token cannot be reached) and records nothing. */
  grantsUnavailable = false;
  rotations = 0;
  /** What QueryAdminLogs answers from (the harness points it at the admin events mgmt published). */
  adminLogEvents: events.AdminEvent[] = [];
  private readonly server = new GrpcServer({
    logger: createLogger({ service: 'fake-peers', level: 'silent' }),
  });
  address = '';

  constructor(private readonly clock: Clock) {}

  async start(): Promise<this> {
    this.server.add<grants.GrantsServiceServer>(grants.GrantsServiceService, this.grants());
    this.server.add<users.UsersServiceServer>(users.UsersServiceService, this.users());
    this.server.add<keys.KeysServiceServer>(keys.KeysServiceService, this.keys());
    this.server.add<activitylogs.ActivityLogsServiceServer>(
      activitylogs.ActivityLogsServiceService,
      this.activityLogs(),
    );
    const port = await this.server.start(0, '127.0.0.1');
    this.server.setServing(true);
    this.address = `127.0.0.1:${port}`;
    return this;
  }

  stop(): Promise<void> {
    return this.server.stop(1000);
  }

  private grants(): AsyncServer<grants.GrantsServiceServer> {
    const impl: Record<string, unknown> = {};
    for (const name of Object.keys(grants.GrantsServiceService)) impl[name] = notImplemented;
    impl.introspectAccessToken = async (req: grants.IntrospectAccessTokenRequest) => {
      const token = this.tokens.get(req.accessToken);
      const live = token && token.active !== false && token.expiresAt * 1000 > this.clock.now();
      if (!token || !live) return grants.IntrospectAccessTokenResponse.create({ active: false });
      return grants.IntrospectAccessTokenResponse.create({
        active: true,
        clientId: token.credentialsId,
        ...token,
      });
    };
    impl.revokeUserGrants = async (req: grants.RevokeUserGrantsRequest) => {
      if (this.grantsUnavailable) throw new GrpcError(GrpcStatus.UNAVAILABLE, 'token is down');
      this.revokedGrants.push(req);
      return {};
    };
    return impl as AsyncServer<grants.GrantsServiceServer>;
  }

  private users(): AsyncServer<users.UsersServiceServer> {
    return {
      // Support's look-ups have their own tests (support/grpc-support.test.ts).
      findUsers: notImplemented,
      getUserDetail: notImplemented,
      listUsers: notImplemented,
      removePasskey: notImplemented,
      removePhoneNumber: notImplemented,
      removeUser: async (req) => {
        this.removeCalls.push(req);
        const byAlias = req.identifierType === users.UserIdentifierType.USER_IDENTIFIER_TYPE_ALIAS;
        const matches = (m: FakeMembership) =>
          m.tenantId === req.tenantId &&
          (byAlias ? m.alias === req.identifier : m.userId === req.identifier) &&
          (req.scope === users.RemovalScope.REMOVAL_SCOPE_TENANT || m.appId === req.appId);
        const doomed = this.memberships.filter(matches);
        if (!doomed.length) throw new GrpcError(GrpcStatus.NOT_FOUND, 'user not found');
        for (const m of doomed) this.memberships.splice(this.memberships.indexOf(m), 1);
        return { userId: doomed[0]!.userId, removedMemberships: doomed.length };
      },
      // Every user is a member, but for those removed (removedUsers) and the unknown gone-user.
      lookupUser: async (req) => {
        if (this.removedUsers.has(req.identifier) || req.identifier === 'gone-user')
          throw new GrpcError(GrpcStatus.NOT_FOUND, 'user not found');
        return { userId: req.identifier, email: '', memberships: [] };
      },
      createInteractiveFlow: async (req) => {
        this.interactiveFlows.push(req);
        if (req.userId === 'gone-user') throw new GrpcError(GrpcStatus.NOT_FOUND, 'user not found');
        return {
          url: `https://auth.example/enroll/link-${this.interactiveFlows.length}`,
          expiresAt: this.clock.now() + 300_000,
        };
      },
      createActivationLink: async (req) => {
        if (req.aliasValue && this.takenAliases.has(req.aliasValue)) {
          throw new GrpcError(GrpcStatus.ALREADY_EXISTS, 'alias taken');
        }
        if (this.limitedAddresses.has(req.userEmail)) {
          throw new GrpcError(
            GrpcStatus.RESOURCE_EXHAUSTED,
            'too many registration mails for this address; retry after 840 s',
          );
        }
        this.activationCalls.push(req);
        return {
          channels: [{ channelType: 'email', target: req.userEmail, status: 'sent' }],
          flowId: `flow-${this.activationCalls.length}`,
          expiresAt: this.clock.now() + 1_800_000,
        };
      },
      listUserSessions: notImplemented,
      signOutEverywhere: async (req) => {
        if (!this.isMember(req)) throw new GrpcError(GrpcStatus.NOT_FOUND, 'user not found');
        this.signOuts.push(req);
        return { endedSessions: 2, notifiedClientIds: ['client-a'] };
      },
      setUserDisabled: async (req) => {
        if (!this.isMember(req)) throw new GrpcError(GrpcStatus.NOT_FOUND, 'user not found');
        this.disables.push(req);
        return { changedAt: this.clock.now() };
      },
      blockDevice: async (req) => {
        if (!this.memberships.some((m) => m.tenantId === req.tenantId && m.userId === req.userId)) {
          throw new GrpcError(GrpcStatus.NOT_FOUND, 'user not found');
        }
        this.blocked.push(req);
        return { changedAt: this.clock.now() };
      },
    };
  }

  private isMember(req: { tenantId: string; userId: string }): boolean {
    return this.memberships.some((m) => m.tenantId === req.tenantId && m.userId === req.userId);
  }

  private keys(): AsyncServer<keys.KeysServiceServer> {
    const impl: Record<string, unknown> = {};
    for (const name of Object.keys(keys.KeysServiceService)) impl[name] = notImplemented;
    impl.rotateKeys = async () => {
      this.rotations++;
      return {
        signingKid: `sig-${this.rotations}`,
        encryptionKid: `enc-${this.rotations}`,
        activatesAt: this.clock.now() + 2000,
      };
    };
    return impl as AsyncServer<keys.KeysServiceServer>;
  }

  private activityLogs(): AsyncServer<activitylogs.ActivityLogsServiceServer> {
    const impl: Record<string, unknown> = {};
    for (const name of Object.keys(activitylogs.ActivityLogsServiceService)) {
      impl[name] = async () => ({ activityLogs: [], events: [], total: 0, count: 0 });
    }
    // Support's reads have their own tests (support/grpc-support.test.ts); here they are not served.
    impl.listFlows = notImplemented;
    impl.getFlow = notImplemented;
    impl.exportFlows = (call: { emit(event: 'error', status: { code: number; details: string }): void }) =>
      call.emit('error', { code: GrpcStatus.UNIMPLEMENTED, details: 'not served by the test peers' });
    impl.queryAdminLogs = async (req: activitylogs.QueryAdminLogsRequest) => {
      const found = this.adminLogEvents.filter(
        (e) => e.tenantId === req.tenantId && e.timestampMs >= req.fromTime && e.timestampMs <= req.toTime,
      );
      const page = found.slice(req.skip, req.skip + req.take);
      return { events: page, count: page.length, total: found.length };
    };
    return impl as AsyncServer<activitylogs.ActivityLogsServiceServer>;
  }
}
