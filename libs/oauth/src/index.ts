export * from './errors';
export * from './vocabulary';
export * from './limits';
export * from './client-credentials';
export * from './authenticate-client';
export * from './passkey-authenticators';
export * from './client-assertion';
export * from './client-jwks';
