import {
  type AsyncServer,
  GrpcServer,
  type GrpcStatus,
  type PromiseClient,
  createClient,
  createLogger,
  isGrpcStatus,
  notImplemented,
} from '@sesame/platform';
import { users } from '@sesame/proto';
import type { TestPki } from '@sesame/testing';

export type UsersClient = PromiseClient<users.UsersServiceClient>;
type UsersHandlers = AsyncServer<users.UsersServiceServer>;

/** A Users gRPC server on a free port of 127.0.0.1, for one test file, and the clients that call it. */
export interface UsersGrpcHarness {
  port: number;
  /**
   * A client of the server, closed by `stop`. Over mutual TLS (the server has a PKI) it presents the
   * certificate of the service `caller`, as auth's peer check sees it.
   */
  client(caller?: string): Promise<UsersClient>;
  /** Closes every client, then stops the server. */
  stop(): Promise<void>;
}

/**
 * Starts a gRPC server that `mount` fills (auth's own module, or `usersService(...)`), in plain text, or
 * over mutual TLS with auth's certificate from `pki` when one is given.
 */
export async function startUsersGrpc(
  mount: (server: GrpcServer) => void,
  pki?: TestPki,
): Promise<UsersGrpcHarness> {
  const logger = createLogger({ service: 'auth', level: 'silent' });
  const server = pki
    ? new GrpcServer({ logger }, { tls: { ...(await pki.issue('auth')), refreshMs: 60_000 } })
    : new GrpcServer({ logger });
  mount(server);
  const port = await server.start(0, '127.0.0.1');
  server.setServing(true);
  const clients: UsersClient[] = [];
  return {
    port,
    async client(caller = 'mgmt') {
      const client = pki
        ? createClient(users.UsersServiceClient, `localhost:${port}`, {
            tls: { ...(await pki.issue(caller)), refreshMs: 60_000 },
            deadlineMs: 5000,
          })
        : createClient(users.UsersServiceClient, `127.0.0.1:${port}`);
      clients.push(client);
      return client;
    },
    async stop() {
      for (const c of clients) c.close();
      await server.stop(1000);
    },
  };
}

/** Mounts the Users service with the given handlers; every other method answers UNIMPLEMENTED. */
export function usersService(handlers: { [K in keyof UsersHandlers]?: UsersHandlers[K] }) {
  return (server: GrpcServer) =>
    server.add<users.UsersServiceServer>(users.UsersServiceService, {
      removeUser: notImplemented,
      lookupUser: notImplemented,
      blockDevice: notImplemented,
      createActivationLink: notImplemented,
      createInteractiveFlow: notImplemented,
      findUsers: notImplemented,
      getUserDetail: notImplemented,
      listUserSessions: notImplemented,
      signOutEverywhere: notImplemented,
      setUserDisabled: notImplemented,
      listUsers: notImplemented,
      removePasskey: notImplemented,
      removePhoneNumber: notImplemented,
      ...handlers,
    });
}

/** For assert.rejects: the call failed with the gRPC status `code`. */
export const rejectsWith = (code: GrpcStatus) => (err: unknown) => isGrpcStatus(err, code);
