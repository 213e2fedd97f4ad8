// HAProxy, the load balancer of `npm run cluster`, the drills and the token scaling bench: Debian's `haproxy`
// package and the libraries it needs that a base image lacks, fetched with `apt-get download` into the cache
// and unpacked with `dpkg -x` under .sesame/tools/haproxy (no root, nothing installed system-wide). A haproxy
// already on PATH is used as it is.
import fs from 'node:fs';
import path from 'node:path';
import { CACHE_DIR, InfraError, REPO_ROOT, mkdirp, which } from './lib.mjs';
import { run, step } from './proc.mjs';

const TOOLS_DIR = path.join(REPO_ROOT, '.sesame', 'tools', 'haproxy');
const DEB_DIR = path.join(CACHE_DIR, 'debs');
// haproxy 2.6 (bookworm) links these two, absent from a minimal system; the rest (libssl3, libpcre2, libc)
// is there already.
const PACKAGES = ['haproxy', 'liblua5.3-0', 'libopentracing-c-wrapper0', 'libopentracing1'];

const libDirs = () =>
  ['usr/lib/x86_64-linux-gnu', 'usr/lib/aarch64-linux-gnu', 'usr/lib'].map((d) => path.join(TOOLS_DIR, d));

/** The haproxy binary and the environment it runs with ({ bin, env }); fetched and unpacked once. */
export async function ensureHaproxy({ log = () => {} } = {}) {
  const system = which('haproxy');
  if (system) return { bin: system, env: {} };
  const bin = path.join(TOOLS_DIR, 'usr', 'sbin', 'haproxy');
  const env = { LD_LIBRARY_PATH: libDirs().join(':') };
  if (fs.existsSync(bin)) return { bin, env };
  if (!which('apt-get') || !which('dpkg'))
    throw new InfraError('haproxy is not on PATH and apt-get/dpkg are unavailable to fetch it');
  const logFile = path.join(REPO_ROOT, '.sesame', 'infra', 'logs', 'haproxy-install.log');
  mkdirp(DEB_DIR);
  await step(log, `apt-get download ${PACKAGES.join(' ')}`, async () => {
    const missing = PACKAGES.filter((p) => !fs.readdirSync(DEB_DIR).some((f) => f.startsWith(`${p}_`)));
    if (missing.length)
      await run('apt-get', ['download', ...missing], {
        cwd: DEB_DIR,
        logFile,
        log,
        what: 'apt-get download',
      });
  });
  mkdirp(TOOLS_DIR);
  for (const pkg of PACKAGES) {
    const deb = fs.readdirSync(DEB_DIR).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
    if (!deb) throw new InfraError(`apt-get download left no ${pkg} package in ${DEB_DIR}`, { logFile });
    await run('dpkg', ['-x', path.join(DEB_DIR, deb), TOOLS_DIR], { logFile, what: `dpkg -x ${deb}` });
  }
  if (!fs.existsSync(bin)) throw new InfraError(`no ${bin} after unpacking haproxy`, { logFile });
  return { bin, env };
}

/**
 * An HAProxy configuration in the shape of the chart (charts/sesame/templates/ingress.yaml and services.yaml):
 * `http` frontends route the public hosts' paths to the services as the Ingress does, one backend per
 * service; `grpc` frontends are one TCP address per gRPC contract, as a ClusterIP Service is (L4: the mTLS
 * between services stays end to end, a channel is balanced when it connects). Each replica is checked by
 * GET /readyz on its ops port; a replica that is down or draining leaves the rotation within ~0.5 s.
 *
 * spec: { http: [{ port, routes: [{ path, exact?, backend }], fallback? }], grpc: { [service]: port },
 *         replicas: { [service]: [{ http, grpc, ops }] }, statsPort? }
 */
export function haproxyConfig(spec) {
  const lines = [
    'global',
    '  maxconn 4096',
    '  log stderr format short local0 warning',
    'defaults',
    '  log global',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // A check's whole answer may take this long (a probe's timeoutSeconds): without it HAProxy allows only
    // `inter` (250 ms), and on a busy machine every replica of a service is marked down at once.
    '  timeout check 5s',
    '  timeout tunnel 1h',
    '  retries 2',
    // A connection refused (a killed replica the checks have not caught yet) is tried on another replica;
    // a request a replica received is never sent twice (a code redeemed twice would be refused).
    '  option redispatch 1',
    // HAProxy's own 502/503/504 (no replica ready, one died mid-answer) answer 503 with Retry-After, as the
    // services do when a store is down, so a client backs off instead of treating it as a server fault.
    ...[502, 503, 504].map((s) => `  errorfile ${s} ${spec.errorFile}`),
  ];
  if (spec.statsPort)
    lines.push(
      'listen stats',
      '  mode http',
      `  bind 127.0.0.1:${spec.statsPort}`,
      '  stats enable',
      '  stats uri /',
    );
  const server = (svc, i, r, port) =>
    `  server ${svc}-${i} 127.0.0.1:${port} check port ${r.ops} inter 250 fall 3 rise 2 observe layer4 error-limit 1 on-error mark-down`;
  const check = [
    '  option httpchk',
    '  http-check send meth GET uri /readyz',
    '  http-check expect status 200',
  ];
  for (const [i, fe] of spec.http.entries()) {
    lines.push(`frontend http-${i}`, '  mode http', `  bind 127.0.0.1:${fe.port}`, '  option forwardfor');
    // One request per client connection. On a kept-alive client connection, HAProxy answers nothing when the
    // replica dies with the request in flight (it closes the client connection so that the client may retry,
    // which a fetch reports as "other side closed"); on a connection's first request it answers 502, which the
    // errorfile below turns into a 503 with Retry-After.
    lines.push('  option httpclose');
    lines.push('  http-request set-header X-Forwarded-Proto http');
    for (const [j, r] of fe.routes.entries()) {
      lines.push(`  acl r${j} ${r.exact ? 'path' : 'path_beg'} ${r.path}`);
      lines.push(`  use_backend http-${r.backend} if r${j}`);
    }
    lines.push(`  default_backend ${fe.fallback ? `http-${fe.fallback}` : 'not-found'}`);
  }
  // A path the Ingress does not route (the API host's other paths): 404, as ingress-nginx's default backend.
  lines.push('backend not-found', '  mode http', '  http-request return status 404');
  const usedHttp = new Set(spec.http.flatMap((fe) => [...fe.routes.map((r) => r.backend), fe.fallback]));
  for (const svc of usedHttp) {
    if (!svc) continue;
    lines.push(
      `backend http-${svc}`,
      '  mode http',
      '  balance roundrobin',
      '  retry-on conn-failure',
      ...check,
    );
    for (const [i, r] of spec.replicas[svc].entries()) lines.push(server(svc, i, r, r.http));
  }
  for (const [svc, port] of Object.entries(spec.grpc)) {
    lines.push(
      `listen grpc-${svc}`,
      '  mode tcp',
      `  bind 127.0.0.1:${port}`,
      '  balance leastconn',
      ...check,
    );
    for (const [i, r] of spec.replicas[svc].entries()) lines.push(server(svc, i, r, r.grpc));
  }
  return `${lines.join('\n')}\n`;
}

/** The body HAProxy answers for its own 502/503/504: a 503 the client may retry after a second. */
export const retryAfterErrorFile = [
  'HTTP/1.1 503 Service Unavailable',
  'content-type: application/json',
  'retry-after: 1',
  'cache-control: no-store',
  'connection: close',
  '',
  '{"error":"temporarily_unavailable","error_description":"no replica could answer; retry"}',
  '',
].join('\r\n');
