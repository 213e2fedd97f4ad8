/** Device and location facts about the request that starts a flow (spec 2.2 svc_info, 2.4 activity log). */
export { type DeviceFacts, describeDevice, deviceFromUserAgent, memoizedDeviceFacts } from './user-agent';
export { isHandheld } from './handheld';
export {
  LOCATION_SOURCE,
  type LocationFacts,
  type LocationLookup,
  closeLocationLookup,
  openLocationLookup,
} from './location';
