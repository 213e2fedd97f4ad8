// Jaeger all-in-one v1.76.0 (OTLP receiver, in-memory storage, the query HTTP API): the collector of Sesame's
// traces (docs/operations.md, Tracing). Optional: `infra up --with jaeger` (not part of `--topology ha`).
// The Go module carries no UI assets (Jaeger's release process builds them from the jaeger-ui repository), so
// the UI is a placeholder page unless SESAME_INFRA_JAEGER_UI names a directory holding a built Jaeger UI
// (its index.html and static/), which the query server then serves (--query.static-files).
// Built once from source with Go (scripts/infra/jaeger/go.mod + go.sum, a tools module: Jaeger's own go.mod
// has a replace directive for sarama, which only the main module's go.mod can apply) and cached, as FerretDB.
//
// Ports (SESAME_INFRA_JAEGER_PORT, default 16686): the query UI/API there, then +1 query gRPC, +2 admin,
// +3 collector HTTP, +4 collector gRPC, +5 OTLP gRPC, +6 OTLP HTTP (where services send: OTEL_EXPORTER_OTLP_ENDPOINT).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CACHE_DIR, INFRA_DIR, InfraError, RUNTIME_DIR, mkdirp, which } from './lib.mjs';
import { portOpen } from './probes.mjs';
import { run, step } from './proc.mjs';

export const JAEGER_VERSION = '1.76.0';
const PKG = 'github.com/jaegertracing/jaeger/cmd/all-in-one';
const home = path.join(CACHE_DIR, `jaeger-${JAEGER_VERSION}`);
export const JAEGER_BIN = path.join(home, 'jaeger-all-in-one');
const srcDir = path.join(INFRA_DIR, 'jaeger');
const stateDir = path.join(RUNTIME_DIR, 'jaeger');

/** The query port and the ones after it (see the header). */
export function jaegerPorts() {
  const raw = process.env.SESAME_INFRA_JAEGER_PORT;
  const query = raw === undefined || raw === '' ? 16686 : Number(raw);
  if (!Number.isInteger(query) || query < 1 || query > 65529)
    throw new InfraError(`SESAME_INFRA_JAEGER_PORT must be a port number up to 65529, got "${raw}"`);
  return {
    query,
    queryGrpc: query + 1,
    admin: query + 2,
    collectorHttp: query + 3,
    collectorGrpc: query + 4,
    otlpGrpc: query + 5,
    otlpHttp: query + 6,
  };
}

/** The directory of a built Jaeger UI from SESAME_INFRA_JAEGER_UI, or undefined (the placeholder page). */
export function jaegerUiDir() {
  const dir = process.env.SESAME_INFRA_JAEGER_UI;
  if (dir === undefined || dir === '') return undefined;
  const abs = path.resolve(dir);
  if (!fs.existsSync(path.join(abs, 'index.html')))
    throw new InfraError(
      `SESAME_INFRA_JAEGER_UI must name a built Jaeger UI (a directory with index.html), got "${dir}"`,
    );
  return abs;
}

/** What a test or an operator needs: the UI/API and the OTLP/HTTP base URL to give OTEL_EXPORTER_OTLP_ENDPOINT. */
export function jaegerEnv() {
  const p = jaegerPorts();
  return {
    SESAME_JAEGER_URL: `http://127.0.0.1:${p.query}`,
    SESAME_JAEGER_OTLP_URL: `http://127.0.0.1:${p.otlpHttp}`,
  };
}

function goBin() {
  const go = which('go') || ['/usr/local/go/bin/go', '/usr/lib/go/bin/go'].find((p) => fs.existsSync(p));
  if (!go)
    throw new InfraError(
      `Go (1.24 or newer) is required once, to build Jaeger; install it and re-run (or place a Jaeger ${JAEGER_VERSION} all-in-one binary at ${JAEGER_BIN})`,
    );
  return go;
}

async function build({ log, logFile }) {
  const go = goBin();
  const work = mkdirp(path.join(home, `build-${process.pid}`));
  const tmpBin = path.join(home, `jaeger.tmp-${process.pid}`);
  const env = { GOFLAGS: '', GOWORK: 'off', CGO_ENABLED: '0' };
  try {
    for (const f of ['go.mod', 'go.sum', 'tools.go'])
      fs.copyFileSync(path.join(srcDir, f), path.join(work, f));
    await step(
      log,
      `go build jaeger all-in-one ${JAEGER_VERSION} (first time only, takes several minutes)`,
      () =>
        run(go, ['build', '-trimpath', '-buildvcs=false', '-o', tmpBin, PKG], {
          cwd: work,
          env,
          logFile,
          log,
          what: 'go build jaeger',
        }),
    );
    execFileSync(tmpBin, ['version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    fs.renameSync(tmpBin, JAEGER_BIN);
    log(`  jaeger cached at ${JAEGER_BIN}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(tmpBin, { force: true });
  }
}

export default {
  name: 'jaeger',
  port: () => jaegerPorts().query,
  extraPorts: () => Object.values(jaegerPorts()).slice(1),
  matches: (argv) =>
    path.basename(argv[0]) === 'jaeger-all-in-one' &&
    argv.includes(`--admin.http.host-port=127.0.0.1:${jaegerPorts().admin}`),
  startTimeoutMs: 30_000,
  stopTimeoutMs: 10_000,

  async install({ log, logFile }) {
    if (!fs.existsSync(JAEGER_BIN)) await build({ log, logFile });
  },

  async prepare() {
    mkdirp(stateDir);
    const p = jaegerPorts();
    const at = (port) => `127.0.0.1:${port}`;
    const ui = jaegerUiDir();
    return {
      cmd: JAEGER_BIN,
      args: [
        `--query.http-server.host-port=${at(p.query)}`,
        `--query.grpc-server.host-port=${at(p.queryGrpc)}`,
        `--admin.http.host-port=${at(p.admin)}`,
        `--collector.http-server.host-port=${at(p.collectorHttp)}`,
        `--collector.grpc-server.host-port=${at(p.collectorGrpc)}`,
        '--collector.otlp.enabled=true',
        `--collector.otlp.grpc.host-port=${at(p.otlpGrpc)}`,
        `--collector.otlp.http.host-port=${at(p.otlpHttp)}`,
        '--memory.max-traces=50000',
        '--log-level=warn',
        ...(ui ? [`--query.static-files=${ui}`] : []),
      ],
      env: { SPAN_STORAGE_TYPE: 'memory' },
      cwd: stateDir,
    };
  },

  ready: async () => (await portOpen(jaegerPorts().query)) && (await portOpen(jaegerPorts().otlpHttp)),
};
