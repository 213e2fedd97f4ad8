export { configSchema, loadAuthConfig, type AuthConfig } from './config';
export { createAuthService, type AuthOverrides } from './service';
export { createUserStore, memoryUserStore, type UserStore } from './users';
export { findUsers, getUserDetail } from './grpc/support-users';
export { listUsers, removePasskey, removePhoneNumber } from './grpc/support-people';
export { createPasskeyStore, type PasskeyRepository } from './passkeys';
