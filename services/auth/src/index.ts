export { configSchema, loadAuthConfig, type AuthConfig } from './config';
export { createAuthService, type AuthOverrides } from './service';
export { createUserStore, memoryUserStore, type UserStore } from './users';
