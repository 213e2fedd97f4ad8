export * from './actions';
export { FLOW_EVENT_TYPE, UndecodableFlowEvent, decodeFlowEvent, encodeFlowEvent } from './codec';
export {
  type FlowEvents,
  type FlowEventsOptions,
  InvalidFlowEvent,
  createFlowEvents,
  toFlowEventFacts,
} from './publisher';
export {
  type DeviceInfoFacts,
  type FlowEventFacts,
  type FlowEventInput,
  type LocationFacts,
  flowEventInputSchema,
  flowEventWireSchema,
} from './schema';
export * from './funnel';
export { flowIds, newFlowId } from './flow-id';
