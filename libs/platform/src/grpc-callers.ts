import * as grpc from '@grpc/grpc-js';
import type { ServiceName } from './peers';

/**
 * Who may call which gRPC method: the one table, mirroring ARCHITECTURE §1 (who reads from whom). A caller
 * is named by the subject CN of its client certificate, verified against the cluster CA. A method missing
 * here is refused to everyone; grpc.health.v1 is open to all (probes carry no certificate).
 */
export const grpcCallers: Readonly<Record<string, readonly ServiceName[]>> = {
  // Users (auth): mgmt's admin and management APIs.
  '/sesame.users.v1.UsersService/RemoveUser': ['mgmt'],
  '/sesame.users.v1.UsersService/LookupUser': ['mgmt'],
  '/sesame.users.v1.UsersService/BlockDevice': ['mgmt'],
  // Interactive init (spec 4.9) on mgmt's api_url asks auth for the enrollment URL.
  '/sesame.users.v1.UsersService/CreateInteractiveFlow': ['mgmt'],
  '/sesame.users.v1.UsersService/CreateActivationLink': ['mgmt'],
  // Support: finding a person of a tenant and reading their devices and memberships.
  '/sesame.users.v1.UsersService/FindUsers': ['mgmt'],
  '/sesame.users.v1.UsersService/GetUserDetail': ['mgmt'],
  '/sesame.users.v1.UsersService/ListUserSessions': ['mgmt'],
  '/sesame.users.v1.UsersService/SignOutEverywhere': ['mgmt'],
  '/sesame.users.v1.UsersService/SetUserDisabled': ['mgmt'],
  // Support (issue 38): the list of people, removing a passkey or a phone number.
  '/sesame.users.v1.UsersService/ListUsers': ['mgmt'],
  '/sesame.users.v1.UsersService/RemovePasskey': ['mgmt'],
  '/sesame.users.v1.UsersService/RemovePhoneNumber': ['mgmt'],
  // Grants (token): auth drives the person and hands grants to token; mgmt checks management tokens, auth
  // checks the access tokens of session feedback.
  '/sesame.grants.v1.GrantsService/IssueCode': ['auth'],
  '/sesame.grants.v1.GrantsService/StartBackchannel': ['auth'],
  '/sesame.grants.v1.GrantsService/MarkBackchannelOpened': ['auth'],
  '/sesame.grants.v1.GrantsService/CompleteBackchannel': ['auth'],
  '/sesame.grants.v1.GrantsService/DenyBackchannel': ['auth'],
  '/sesame.grants.v1.GrantsService/IntrospectAccessToken': ['mgmt', 'auth'],
  // mgmt ends a removed user's (or a blocked device's) refresh tokens and access tokens.
  '/sesame.grants.v1.GrantsService/RevokeUserGrants': ['mgmt'],
  // Keys (jwks): the private signing key goes to token only.
  '/sesame.keys.v1.KeysService/WatchSigningKey': ['token'],
  '/sesame.keys.v1.KeysService/DecryptRequestObject': ['auth'],
  '/sesame.keys.v1.KeysService/RotateKeys': ['mgmt'],
  // RP-Initiated Logout: auth checks id_token_hints and has back-channel logout tokens signed.
  '/sesame.keys.v1.KeysService/VerifySignature': ['auth'],
  '/sesame.keys.v1.KeysService/SignLogoutToken': ['auth'],
  // Directory (mgmt): clients for /authorize (auth) and /token (token); auth authenticates CIBA clients.
  '/sesame.directory.v1.DirectoryService/GetClient': ['auth', 'token'],
  '/sesame.directory.v1.DirectoryService/AuthenticateClient': ['auth', 'token'],
  '/sesame.directory.v1.DirectoryService/AuthenticateApiCredentials': ['token'],
  // Pages and mails in an app's brand: auth renders them, mgmt owns the branding.
  '/sesame.directory.v1.DirectoryService/GetBranding': ['auth'],
  // ActivityLogs (activity-log): the management API's log queries.
  '/sesame.activitylogs.v1.ActivityLogsService/QueryActivityLogs': ['mgmt'],
  '/sesame.activitylogs.v1.ActivityLogsService/QueryAdminLogs': ['mgmt'],
  // Support (the console's Users and Activity pages, the admin API, the CLI) through mgmt.
  '/sesame.activitylogs.v1.ActivityLogsService/ListFlows': ['mgmt'],
  '/sesame.activitylogs.v1.ActivityLogsService/GetFlow': ['mgmt'],
  '/sesame.activitylogs.v1.ActivityLogsService/ExportFlows': ['mgmt'],
  // Support (issue 38): counting and erasing the sign-in attempts of a typed address.
  '/sesame.activitylogs.v1.ActivityLogsService/CountFlows': ['mgmt'],
  '/sesame.activitylogs.v1.ActivityLogsService/EraseFlows': ['mgmt'],
  '/sesame.activitylogs.v1.ActivityLogsService/ListAttemptedEmails': ['mgmt'],
};

const OPEN_PREFIX = '/grpc.health.v1.Health/';

/** The refusal for a call, or undefined when the caller may make it. */
export function authorizeCall(
  path: string,
  auth: { sslPeerCertificate?: { subject?: { CN?: string | string[] } } },
): { code: grpc.status; details: string } | undefined {
  if (path.startsWith(OPEN_PREFIX)) return undefined;
  // Set only when the peer presented a certificate that chains to our CA (grpc-js: socket.authorized).
  const caller = auth.sslPeerCertificate?.subject?.CN;
  if (!caller)
    return {
      code: grpc.status.UNAUTHENTICATED,
      details: 'a client certificate from the cluster CA is required',
    };
  const allowed = grpcCallers[path] ?? [];
  if (!(allowed as readonly string[]).includes(String(caller)))
    return { code: grpc.status.PERMISSION_DENIED, details: `${String(caller)} may not call ${path}` };
  return undefined;
}

/**
 * Server interceptor enforcing grpcCallers on every method (unary and streaming) before any handler runs.
 * Installed only when mTLS is configured: a plaintext server (the embedded default, loopback only) has no
 * caller identity to check.
 */
export const authorizeCallers: grpc.ServerInterceptor = (method, call) =>
  new grpc.ServerInterceptingCall(call, {
    start: (next) => {
      next({
        onReceiveMetadata: (metadata, mdNext) => {
          const refusal = authorizeCall(method.path, call.getAuthContext());
          if (refusal) call.sendStatus({ ...refusal, metadata: new grpc.Metadata() });
          else mdNext(metadata);
        },
      });
    },
  });
