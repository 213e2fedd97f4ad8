// MongoDB wire protocol: FerretDB 1.24.2 with the SQLite backend.
// Built once from source with Go (scripts/infra/ferretdb/go.mod + go.sum) and cached.
//
// No option makes it use an index or push a query down (checked in its 1.24.2 sources, 2026-11): the SQLite
// backend hands SQLite only a filter that is exactly {_id: <string or ObjectId>}, a $natural sort of a capped
// collection, and a limit of a find with no filter, sort or skip; every other find reads and decodes every
// row of the collection and filters, sorts and limits in Go (the indexes it creates are never read). Its only
// pushdown flags are the experimental --test-disable-pushdown and --test-enable-nested-pushdown. A CPU
// profile of such a scan is 65% JSON decoding of the rows and 3% SQLite, so SQLite pragmas (cache_size,
// mmap_size through --sqlite-url) cannot help either. docs/performance.md ("Support") has the figures.
//
// Why vendoring: FerretDB's cmd/ferretdb panics at startup unless
// build/version/version.txt (generated in FerretDB's own release process, empty in
// the published module) holds "v<major>.<minor>.<patch>". We `go mod vendor` into a
// scratch dir, write that file into the vendored copy, and build with -mod=vendor.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CACHE_DIR, INFRA_DIR, InfraError, RUNTIME_DIR, mkdirp, ports, which } from './lib.mjs';
import { mongoHello } from './probes.mjs';
import { run, step } from './proc.mjs';

export const FERRETDB_VERSION = '1.24.2';
const PKG = 'github.com/FerretDB/FerretDB/cmd/ferretdb';
const home = path.join(CACHE_DIR, `ferretdb-${FERRETDB_VERSION}`);
export const FERRETDB_BIN = path.join(home, 'ferretdb');
const srcDir = path.join(INFRA_DIR, 'ferretdb');
const dataDir = path.join(RUNTIME_DIR, 'mongo');
const stateDir = path.join(RUNTIME_DIR, 'mongo-state');

function goBin() {
  const go = which('go') || ['/usr/local/go/bin/go', '/usr/lib/go/bin/go'].find((p) => fs.existsSync(p));
  if (!go) {
    throw new InfraError(
      'Go (1.22 or newer) is required once, to build FerretDB; install it and re-run ' +
        `(or place a FerretDB ${FERRETDB_VERSION} binary at ${FERRETDB_BIN})`,
    );
  }
  return go;
}

async function build({ log, logFile }) {
  const go = goBin();
  const work = mkdirp(path.join(home, `build-${process.pid}`));
  const tmpBin = path.join(home, `ferretdb.tmp-${process.pid}`);
  // GOFLAGS is cleared so a user-level -mod=... cannot interfere; CGO is not needed (pure-Go SQLite).
  const env = { GOFLAGS: '', GOWORK: 'off', CGO_ENABLED: '0' };
  try {
    for (const f of ['go.mod', 'go.sum', 'tools.go'])
      fs.copyFileSync(path.join(srcDir, f), path.join(work, f));
    await step(log, `go mod vendor (FerretDB ${FERRETDB_VERSION} sources)`, () =>
      run(go, ['mod', 'vendor'], { cwd: work, env, logFile, log, what: 'go mod vendor' }),
    );
    const versionDir = path.join(work, 'vendor', 'github.com', 'FerretDB', 'FerretDB', 'build', 'version');
    if (!fs.existsSync(versionDir))
      throw new InfraError(`go mod vendor did not produce ${versionDir}`, { logFile });
    fs.writeFileSync(path.join(versionDir, 'version.txt'), `v${FERRETDB_VERSION}\n`);
    fs.writeFileSync(path.join(versionDir, 'package.txt'), 'sesame-infra\n');
    await step(log, 'go build ferretdb (first time only, takes a few minutes)', () =>
      run(go, ['build', '-mod=vendor', '-trimpath', '-buildvcs=false', '-o', tmpBin, PKG], {
        cwd: work,
        env,
        logFile,
        log,
        what: 'go build ferretdb',
      }),
    );
    const version = execFileSync(tmpBin, ['--version'], { encoding: 'utf8' });
    if (!version.includes(`v${FERRETDB_VERSION}`))
      throw new InfraError(`built ferretdb reports unexpected version:\n${version}`, { logFile });
    fs.renameSync(tmpBin, FERRETDB_BIN);
    log(`  ferretdb cached at ${FERRETDB_BIN}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(tmpBin, { force: true });
  }
}

export default {
  name: 'mongo',
  port: () => ports().mongo,
  extraPorts: () => [],
  matches: (argv) => path.basename(argv[0]) === 'ferretdb' && argv.includes(`--state-dir=${stateDir}`),
  startTimeoutMs: 30_000,
  stopTimeoutMs: 10_000,

  async install({ log, logFile }) {
    if (!fs.existsSync(FERRETDB_BIN)) await build({ log, logFile });
  },

  async prepare() {
    mkdirp(dataDir);
    mkdirp(stateDir);
    return {
      cmd: FERRETDB_BIN,
      args: [
        '--handler=sqlite',
        `--sqlite-url=file:${dataDir}/`,
        `--listen-addr=127.0.0.1:${ports().mongo}`,
        '--debug-addr=-',
        '--telemetry=disable',
        `--state-dir=${stateDir}`,
        '--log-level=warn',
      ],
      cwd: stateDir,
    };
  },

  ready: async () => (await mongoHello(ports().mongo)) !== null,
};
