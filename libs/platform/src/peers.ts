import { z } from 'zod';

/** Default gRPC ports on one machine; in Kubernetes each service listens on its own pod's port. */
export const defaultGrpcPorts = {
  auth: 50051,
  token: 50052,
  jwks: 50053,
  mgmt: 50054,
  'activity-log': 50055,
  'ciba-notifier': 50056,
} as const;
export type ServiceName = keyof typeof defaultGrpcPorts;

/** Where each gRPC contract is served (host:port), named after the contract, not the service. */
export const peersSchema = z.object({
  SESAME_USERS_ADDR: z
    .string()
    .default(`127.0.0.1:${defaultGrpcPorts.auth}`)
    .describe('host:port of the Users gRPC contract (served by auth).'),
  SESAME_GRANTS_ADDR: z
    .string()
    .default(`127.0.0.1:${defaultGrpcPorts.token}`)
    .describe('host:port of the Grants gRPC contract (served by token).'),
  SESAME_KEYS_ADDR: z
    .string()
    .default(`127.0.0.1:${defaultGrpcPorts.jwks}`)
    .describe('host:port of the Keys gRPC contract (served by jwks).'),
  SESAME_DIRECTORY_ADDR: z
    .string()
    .default(`127.0.0.1:${defaultGrpcPorts.mgmt}`)
    .describe('host:port of the Directory gRPC contract (served by mgmt).'),
  SESAME_ACTIVITY_LOGS_ADDR: z
    .string()
    .default(`127.0.0.1:${defaultGrpcPorts['activity-log']}`)
    .describe('host:port of the ActivityLogs gRPC contract (served by activity-log).'),
});
export type Peers = z.infer<typeof peersSchema>;
