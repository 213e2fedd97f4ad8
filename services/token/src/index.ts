export { configSchema, loadTokenConfig, type TokenConfig } from './config';
export { createTokenService, type TokenOverrides } from './service';
