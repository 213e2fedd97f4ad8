export { configSchema, loadJwksConfig, type JwksConfig } from './config';
export { createJwksService, type JwksOverrides } from './service';
