/**
 * Test-only entry (package export `@sesame/mgmt-service/testing/support`): mgmt in-process with an in-memory
 * support port and its sample people and flows, for the CLI's `logs` tests. Never imported by production code.
 */
export { type MgmtHarness, startMgmt } from './mgmt-harness';
export { flowOf, supportData } from './support-data';
export { MemorySupport } from './support-memory';
