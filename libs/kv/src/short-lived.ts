import { MemoryKeyValueStore } from './memory';
import type { KeyValueStore } from './port';
import { SqliteKeyValueStore } from './sqlite';

/**
 * Where a service keeps its short-lived state — auth: sign-in flows, email codes, magic and QR links, passkey
 * ceremonies and the send throttles; token: the failed-client-authentication counters — minutes of life,
 * tied to a browser mid-flow or a client mid-retry. On the embedded
 * engine (one process, `npm start`) it stays in memory and is lost on a restart, as issue 36 allows: a
 * person mid-sign-in starts again. Writing it to the engine cost a committed transaction per flow step
 * (about half of the engine's commits per sign-in; for token, two reads of the engine per grant) for state no
 * restart needs. Sessions, registration and
 * enrollment links and everything a person owns stay on the engine. On Redis (several pods) and in memory
 * it is the service's one store, as before.
 */
export function shortLivedKeyValueStore(kv: KeyValueStore): KeyValueStore {
  return kv instanceof SqliteKeyValueStore ? new MemoryKeyValueStore() : kv;
}
