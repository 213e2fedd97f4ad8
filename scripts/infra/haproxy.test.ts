import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';

const { haproxyConfig, retryAfterErrorFile } = (await import(
  join(dirname(fileURLToPath(import.meta.url)), 'haproxy.mjs')
)) as { haproxyConfig: (spec: unknown) => string; retryAfterErrorFile: string };

const replicas = {
  auth: [
    { http: 1001, grpc: 2001, ops: 3001 },
    { http: 1002, grpc: 2002, ops: 3002 },
  ],
  token: [{ http: 1011, grpc: 2011, ops: 3011 }],
  mgmt: [{ http: 1021, grpc: 2021, ops: 3021 }],
};
const cfg = haproxyConfig({
  errorFile: '/tmp/e.http',
  http: [
    { port: 8000, routes: [{ path: '/token', exact: true, backend: 'token' }], fallback: 'auth' },
    { port: 8002, routes: [{ path: '/api/v1/interactive', backend: 'mgmt' }] },
  ],
  grpc: { auth: 9001 },
  replicas,
});
/** The lines of one section (from its header to the next unindented line). */
const section = (header: string) => {
  const lines = cfg.split('\n');
  const start = lines.indexOf(header);
  assert.ok(start >= 0, `no section "${header}" in:\n${cfg}`);
  const end = lines.findIndex((l, i) => i > start && l !== '' && !l.startsWith(' '));
  return lines.slice(start + 1, end < 0 ? undefined : end).map((l) => l.trim());
};

describe('haproxyConfig: the chart’s Ingress and Services as HAProxy sections', () => {
  it('routes an exact path to its service and the rest of the host to the fallback, as the Ingress does', () => {
    assert.deepEqual(section('frontend http-0').slice(0, 8), [
      'mode http',
      'bind 127.0.0.1:8000',
      'option forwardfor',
      'option httpclose',
      'http-request set-header X-Forwarded-Proto http',
      'acl r0 path /token',
      'use_backend http-token if r0',
      'default_backend http-auth',
    ]);
  });

  it('answers 404 for a path the API host does not route, and matches its prefix with path_beg', () => {
    const api = section('frontend http-1');
    assert.ok(api.includes('acl r0 path_beg /api/v1/interactive'));
    assert.ok(api.includes('default_backend not-found'));
    assert.deepEqual(section('backend not-found'), ['mode http', 'http-request return status 404']);
  });

  it('checks every replica with GET /readyz on its ops port, in HTTP backends and TCP gRPC listeners', () => {
    const auth = section('backend http-auth');
    assert.ok(auth.includes('http-check send meth GET uri /readyz'));
    assert.ok(
      auth.includes(
        'server auth-1 127.0.0.1:1002 check port 3002 inter 250 fall 3 rise 2 observe layer4 error-limit 1 on-error mark-down',
      ),
    );
    const grpc = section('listen grpc-auth');
    assert.deepEqual(grpc.slice(0, 3), ['mode tcp', 'bind 127.0.0.1:9001', 'balance leastconn']);
    assert.ok(grpc.some((l) => l.startsWith('server auth-0 127.0.0.1:2001 check port 3001 ')));
  });

  it('answers its own errors as 503 with Retry-After, and retries only connections that failed', () => {
    assert.ok(cfg.includes('errorfile 502 /tmp/e.http'));
    assert.ok(section('defaults').includes('timeout check 5s'), 'a slow /readyz is not a down replica');
    assert.ok(section('backend http-token').includes('retry-on conn-failure'));
    assert.ok(!cfg.includes('empty-response'), 'a request a replica received is never replayed');
    // On a kept-alive client connection a replica dying mid-request would be answered by a bare close.
    assert.ok(section('frontend http-1').includes('option httpclose'), 'one request per client connection');
    assert.match(retryAfterErrorFile, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
    assert.match(retryAfterErrorFile, /\r\nretry-after: 1\r\n/);
  });
});
