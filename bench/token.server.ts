/**
 * Child process of bench/token.bench.ts: one server under test per process, so its CPU and RSS are its
 * own. Prints one JSON line ({url, grpcAddr?}) once it serves, then runs until stdin closes. With
 * OTEL_EXPORTER_OTLP_ENDPOINT (and the sampler variables) in its environment it traces, as a service's main
 * would (bench/token.bench.ts's traced token).
 *   token <keysAddr> <directoryAddr> [redisUrl]   the token service as a pod runs it (runStandalone); with
 *                                                 BENCH_VERIFICATION_KEY (a public ES256 JWK) a request that
 *                                                 carries x-bench-verify is one ES256 verification longer
 *                                                 (verifyInline)
 *   token-durable <keysAddr> <directoryAddr> <dataDir>
 *                                                 the same on the durable engine in dataDir, as the embedded
 *                                                 default keeps it (tokens in its KV, events on its bus)
 *   oidc-provider                                 oidc-provider 9: client_credentials, opaque tokens,
 *                                                 client_secret_post, its in-memory adapter
 *   bare                                          a node:http hello-world
 *   static <file>                                 node:http answering every request with one recorded response
 *                                                 (JSON {headers: flat [name, value, …], body}), as it is
 */
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type IncomingMessage, Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EmbeddedStore } from '@sesame/embedded-store';
import { createEmbeddedEventBus } from '@sesame/events';
import { baseConfigSchema, loadConfig, runStandalone, tracingConfigOf } from '@sesame/platform';
import { startTracing } from '@sesame/platform/tracing';
import { eventually } from '@sesame/testing';
import { createTokenService, loadTokenConfig } from '@sesame/token-service';

const OIDC_PROVIDER_CLIENT = { id: 'bench-credentials', secret: 'bench-api-secret-0123456789abcdef' };

const [role, ...args] = process.argv.slice(2);
// Started before the service is built, as a service's main does (libs/platform/src/main.ts).
const otel = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('OTEL_')));
const tracingConfig = tracingConfigOf(loadConfig(baseConfigSchema, otel), role ?? 'bench');
const tracing = tracingConfig ? await startTracing(tracingConfig) : undefined;

async function token(keysAddr: string, directoryAddr: string, redisUrl?: string, dataDir?: string) {
  if (process.env.BENCH_VERIFICATION_KEY) verifyInline(process.env.BENCH_VERIFICATION_KEY);
  const config = loadTokenConfig({
    SESAME_ENV: 'test',
    LOG_LEVEL: 'silent',
    SESAME_AUTH_URL: 'https://auth.bench.test',
    SESAME_KEYS_ADDR: keysAddr,
    SESAME_DIRECTORY_ADDR: directoryAddr,
    SESAME_CODE_TTL_S: '900',
    ...(redisUrl ? { SESAME_REDIS_URL: redisUrl } : {}),
  });
  const store = dataDir ? EmbeddedStore.open({ dir: dataDir }) : undefined;
  const overrides = store ? { embedded: store, bus: createEmbeddedEventBus(store) } : {};
  const running = await runStandalone(await createTokenService(config, overrides), {
    httpPort: 0,
    grpcPort: 0,
    host: '127.0.0.1',
    shutdownTimeoutMs: 1000,
  });
  const base = `http://127.0.0.1:${running.httpPort}`;
  const ready = await eventually(
    () => fetch(`${base}/readyz`).then((r) => r.status),
    (s) => s === 200,
    10_000,
  );
  if (ready !== 200) throw new Error('token did not become ready');
  return {
    url: `${base}/token`,
    grpcAddr: `127.0.0.1:${running.grpcPort}`,
  };
}

/**
 * bench/token-dpop.bench.ts's in-server anchor: a request carrying `x-bench-verify: <compact ES256 JWS>` has
 * that JWS verified (node:crypto, the key imported once, as the DPoP and client assertion verifiers do) before
 * token's own handler runs; an invalid one is answered 400. So a row of requests with the header is the same
 * row as without it plus one signature verification on the same request path, at the same rate, with the same
 * sockets and wakeups: their difference is what one verification costs where a proof's or an assertion's is
 * paid. Every node:http server of the process gets it (token has one public listener).
 */
function verifyInline(jwk: string): void {
  const key = {
    key: createPublicKey({ key: JSON.parse(jwk), format: 'jwk' }),
    dsaEncoding: 'ieee-p1363' as const,
  };
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') {
      const [req, res] = args as [IncomingMessage, ServerResponse];
      const jws = req.headers['x-bench-verify'];
      if (typeof jws === 'string') {
        const dot = jws.lastIndexOf('.');
        const data = Buffer.from(jws.slice(0, dot));
        if (!verify('sha256', data, key, Buffer.from(jws.slice(dot + 1), 'base64url'))) {
          res.writeHead(400).end();
          return true;
        }
      }
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
}

async function oidcProvider() {
  const { default: Provider } = await import('oidc-provider');
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_PROVIDER_CLIENT.id,
        client_secret: OIDC_PROVIDER_CLIENT.secret,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    scopes: ['svc_admin_api'],
    features: { clientCredentials: { enabled: true }, devInteractions: { enabled: false } },
    ttl: { ClientCredentials: 3600 },
  });
  server.on('request', provider.callback());
  return { url: `${issuer}/token` };
}

async function bare() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('hello world');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

/** The same bytes every time: what answering with that page costs node:http alone, without producing it. */
async function staticPage(file: string) {
  const { headers, body } = JSON.parse(readFileSync(file, 'utf8')) as { headers: string[]; body: string };
  const server = createServer((_req, res) => {
    res.writeHead(200, [...headers, 'Content-Length', String(Buffer.byteLength(body))]);
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

const serving =
  role === 'static'
    ? await staticPage(args[0]!)
    : role === 'token'
      ? await token(args[0]!, args[1]!, args[2])
      : role === 'token-durable'
        ? await token(args[0]!, args[1]!, undefined, args[2]!)
        : role === 'oidc-provider'
          ? await oidcProvider()
          : await bare();
process.stdout.write(`${JSON.stringify(serving)}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  await tracing?.shutdown(); // the last batch of spans reaches the collector
  process.exit(0);
});
