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
  SESAME_USERS_ADDR: z.string().default(`127.0.0.1:${defaultGrpcPorts.auth}`),
  SESAME_GRANTS_ADDR: z.string().default(`127.0.0.1:${defaultGrpcPorts.token}`),
  SESAME_KEYS_ADDR: z.string().default(`127.0.0.1:${defaultGrpcPorts.jwks}`),
  SESAME_DIRECTORY_ADDR: z.string().default(`127.0.0.1:${defaultGrpcPorts.mgmt}`),
  SESAME_ACTIVITY_LOGS_ADDR: z.string().default(`127.0.0.1:${defaultGrpcPorts['activity-log']}`),
});
export type Peers = z.infer<typeof peersSchema>;
