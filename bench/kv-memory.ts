/**
 * Heap bytes per access token the embedded default's in-memory KV keeps, without the noise of RSS: sets
 * `count` tokens as AccessTokenStore stores them (`access:<sha256 hex>` → the api grant's JSON, one value per
 * second of issue at `perSecond` tokens/s), collecting garbage before and after.
 *
 *   node --expose-gc --import tsx bench/kv-memory.ts [count=200000] [perSecond=5000] [module of a KV adapter]
 */
import { createHash, randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';

const count = Number(process.argv[2] ?? 200_000);
const perSecond = Number(process.argv[3] ?? 5000);
const modulePath = process.argv[4];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('run with node --expose-gc');
  process.exit(2);
}
const { MemoryKeyValueStore } = (
  modulePath ? await import(pathToFileURL(modulePath).href) : await import('../libs/kv/src/memory')
) as typeof import('../libs/kv/src/memory');

const store = new MemoryKeyValueStore();
const used = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
};
const start = Math.floor(Date.now() / 1000);
const before = used();
for (let i = 0; i < count; i++) {
  const hash = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('hex');
  const grant = {
    kind: 'api',
    tenantId: 'f3b0c6de-2a41-4c71-9d1f-6a0e0f0c8b21',
    clientId: 'cred_6c1f5d0e9b7a4e2f8a3d',
    credentialsId: 'cred_6c1f5d0e9b7a4e2f8a3d',
    scope: 'svc_admin_api',
    expiresAt: start + 3600 + Math.floor(i / perSecond),
  };
  await store.set(`access:${hash}`, JSON.stringify(grant), { ttlMs: 3_600_000 });
}
const after = used();
console.log(
  `${count} tokens: ${((after - before) / count).toFixed(0)} heap bytes per token (${(((after - before) / 1024 / 1024) * (100_000 / count)).toFixed(1)} MiB per 100k)`,
);
await store.close();
