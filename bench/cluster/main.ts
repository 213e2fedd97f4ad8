/**
 * `npm run cluster`: every service as its own processes, two replicas each (CLUSTER_REPLICAS=N for another
 * count), behind HAProxy, on the infra's servers (`npm run infra -- up`; the exported SESAME_* variables win),
 * in a Mongo database `cluster` of its own. Prints the public URLs and the admin key; Ctrl-C (SIGINT) or
 * SIGTERM drains and stops every replica, then the balancer.
 */
import { type ServiceName, serviceNames, startCluster } from './cluster';
import { clusterStores } from './stores';

const perService = Number(process.env.CLUSTER_REPLICAS ?? 2);
if (!Number.isInteger(perService) || perService < 1) throw new Error('CLUSTER_REPLICAS: a count ≥ 1');
const log = (msg: string) => console.log(`[cluster] ${msg}`);

const stores = await clusterStores('cluster');
const cluster = await startCluster({
  replicas: Object.fromEntries(serviceNames.map((n) => [n, perService])) as Record<ServiceName, number>,
  env: stores.env,
  log,
});
let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log(`${signal}: draining every replica, then the balancer`);
  await cluster.stop();
  log('stopped');
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
for (const r of cluster.replicas)
  void r.exited.then((code) => {
    if (!stopping) log(`${r.name}-${r.index} exited (${code ?? r.child.signalCode})`);
  });

console.log(`
Sesame cluster: ${serviceNames.map((n) => `${n} ×${perService}`).join(', ')} behind HAProxy
  issuer (auth host)  ${cluster.urls.auth}   (/token, /revoke, /introspect, /userinfo → token; /jwks → jwks)
  admin host          ${cluster.urls.admin}
  API host            ${cluster.urls.api}   (/api/v1/interactive)
  balancer stats      ${cluster.urls.stats}
  admin key           SESAME_ADMIN_KEY=${cluster.adminKey}
  replicas            ${cluster.replicas.map((r) => `${r.name}-${r.index}:${r.ports.http} (pid ${r.child.pid})`).join(' ')}
Ctrl-C stops everything.`);
