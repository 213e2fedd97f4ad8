// Generated contracts (see proto/). Namespaced per package so message names never collide.
export * as common from './gen/sesame/common/v1/common';
export * as directory from './gen/sesame/directory/v1/directory';
export * as users from './gen/sesame/users/v1/users';
export * as grants from './gen/sesame/grants/v1/grants';
export * as keys from './gen/sesame/keys/v1/keys';
export * as activitylogs from './gen/sesame/activitylogs/v1/activitylogs';
export * as events from './gen/sesame/events/v1/events';
export { topics } from './topics';
export { type MessageEncoder, reusingWriter } from './reusing-writer';
