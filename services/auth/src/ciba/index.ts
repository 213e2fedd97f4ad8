export { mountAuthorizeCiba } from './authorize-ciba';
export { CibaLinks } from './links';
export { Sealer } from './sealed-id';
export type { CibaDeps } from './deps';
export type { CibaHooks } from '../web/deps';
