import { GrpcStatus, type GrpcTlsFiles, createClient, isGrpcStatus } from '@sesame/platform';
import { directory } from '@sesame/proto';
import type { ClientDirectory } from './directory';

const isRejection = (err: unknown) =>
  isGrpcStatus(err, GrpcStatus.UNAUTHENTICATED) ||
  isGrpcStatus(err, GrpcStatus.NOT_FOUND) ||
  isGrpcStatus(err, GrpcStatus.INVALID_ARGUMENT);

async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (err) {
    if (isRejection(err)) return null;
    throw err;
  }
}

/** The Directory gRPC of mgmt behind the ClientDirectory port. */
export function grpcDirectory(address: string, tls?: GrpcTlsFiles): ClientDirectory & { close(): void } {
  const client = createClient(directory.DirectoryServiceClient, address, { deadlineMs: 2000, tls });
  return {
    async getClient(clientId) {
      return (await orNull(client.getClient({ clientId })))?.client ?? null;
    },
    async authenticateClient(clientId, clientSecret) {
      return (await orNull(client.authenticateClient({ clientId, clientSecret })))?.client ?? null;
    },
    async authenticateApiCredentials(credentialsId, secret) {
      const res = await orNull(client.authenticateApiCredentials({ credentialsId, secret }));
      return res ? { tenantId: res.tenantId, credentialsId: res.credentialsId } : null;
    },
    close: () => client.close(),
  };
}
