// `npm test`: installs what is missing, starts the real servers (scripts/infra), then runs typecheck, lint,
// unit, integration and e2e tests, and ends with one summary line `N passed, M failed`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reportDir = join(root, '.sesame/test-reports');
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)}s`;
const log = (msg) => console.log(`\n[test ${elapsed()}] ${msg}`);
const only = process.argv.slice(2); // optional phase names (typecheck lint unit integration e2e) and --coverage

const boot = spawnSync(process.execPath, [join(root, 'scripts/bootstrap.mjs')], { stdio: 'inherit' });
if (boot.status !== 0) process.exit(boot.status ?? 1);

function findTests(predicate) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.') || entry.name === 'gen') continue;
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (predicate(entry.name)) out.push(relative(root, p));
    }
  };
  for (const top of [
    'libs',
    'services',
    'embedded',
    'cli',
    'e2e',
    'bench',
    'scripts',
    'charts',
    'examples',
  ]) {
    if (existsSync(join(root, top))) walk(join(root, top));
  }
  return out.sort();
}

const isInt = (n) => n.endsWith('.int.test.ts');
const isE2e = (n) => n.endsWith('.e2e.test.ts');
// The HA topology's tests (*.ha.test.ts) run only in `npm run test:ha` (scripts/test-ha.mjs).
const isHa = (n) => n.endsWith('.ha.test.ts');
const isUnit = (n) => n.endsWith('.test.ts') && !isInt(n) && !isE2e(n) && !isHa(n);
// Tests that stop and restart a shared server run alone, after the others.
const isDisruptive = (n) => /outage/.test(n);

const results = [];
function run(label, cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function check(label, cmd, args) {
  log(`${label}: ${cmd} ${args.join(' ')}`);
  const code = await run(label, cmd, args);
  results.push({ label, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 });
}

const jestBin = join(root, 'node_modules/jest/bin/jest.js');
const coverage = only.includes('--coverage');
const phases = only.filter((a) => !a.startsWith('--'));

// One Jest project per phase (jest.config.mjs, whose patterns pick the same files as findTests above). Jest loads the TypeScript tests as native ES modules, which
// needs --experimental-vm-modules on the node that runs Jest; its worker processes inherit the flag, the
// processes the tests themselves start do not.
async function jestTests(label, files, env, workers) {
  if (files.length === 0) {
    log(`${label}: no test files`);
    return;
  }
  log(`${label}: ${files.length} files`);
  const json = join(reportDir, `${label}.json`);
  const code = await run(
    label,
    process.execPath,
    [
      '--experimental-vm-modules',
      ...(process.allowedNodeEnvironmentFlags.has('--disable-warning')
        ? ['--disable-warning=ExperimentalWarning']
        : []),
      jestBin,
      '--selectProjects',
      label,
      `--maxWorkers=${workers}`,
      '--json',
      `--outputFile=${json}`,
      ...(coverage ? ['--coverage', `--coverageDirectory=${join(root, 'coverage', label)}`] : []),
    ],
    env,
  );
  const report = existsSync(json) ? JSON.parse(readFileSync(json, 'utf8')) : null;
  const passed = report?.numPassedTests ?? 0;
  // A file that fails to load (syntax, a throwing import, a failing hook) counts as a failure of its own.
  let failed = (report?.numFailedTests ?? 0) + (report?.numRuntimeErrorTestSuites ?? 0);
  if (code !== 0 && failed === 0) failed = 1; // Jest itself failed (bad config, crash)
  results.push({ label, passed, failed });
}

rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
if (coverage) rmSync(join(root, 'coverage'), { recursive: true, force: true });
const want = (phase) => phases.length === 0 || phases.includes(phase);

let serverEnv = {};
let startedOwnServers = false;
if (want('integration') || want('e2e')) {
  const useExisting =
    process.env.SESAME_REDIS_URL && process.env.SESAME_KAFKA_BROKERS && process.env.SESAME_MONGO_URL;
  const infra = await import(join(root, 'scripts/infra/index.mjs'));
  if (useExisting) {
    log('using the servers named by SESAME_REDIS_URL, SESAME_KAFKA_BROKERS, SESAME_MONGO_URL');
    // Mail tests read back what an SMTP server received, which only the tests' own server can tell them.
    if (process.env.SESAME_SMTP_URL && process.env.SESAME_TEST_MAILBOX_URL) {
      log('using the SMTP server named by SESAME_SMTP_URL, read through SESAME_TEST_MAILBOX_URL');
    } else {
      log(
        'starting the test SMTP server (scripts/infra): SESAME_SMTP_URL and SESAME_TEST_MAILBOX_URL not both set',
      );
      await infra.start('smtp', { log: (m) => console.log(`[infra] ${m}`) });
      const { SESAME_SMTP_URL, SESAME_TEST_MAILBOX_URL } = infra.env();
      serverEnv = { SESAME_SMTP_URL, SESAME_TEST_MAILBOX_URL };
    }
  } else {
    log('starting real servers (scripts/infra)');
    await infra.up({ log: (m) => console.log(`[infra] ${m}`) });
    serverEnv = infra.env();
    startedOwnServers = true;
  }
  const { ensureHelm } = await import(join(root, 'scripts/tools/helm.mjs'));
  const tools = { log: (m) => console.log(`[tools] ${m}`) };
  serverEnv.SESAME_HELM_BIN = ensureHelm(tools);
  // The chart tests' checker (rendered manifests decoded into Kubernetes' own Go types) and promtool.
  const { ensureManifestCheck } = await import(join(root, 'scripts/tools/manifest-check.mjs'));
  const { ensurePromtool } = await import(join(root, 'scripts/tools/promtool.mjs'));
  serverEnv.SESAME_MANIFEST_CHECK_BIN = ensureManifestCheck(tools);
  serverEnv.SESAME_PROMTOOL_BIN = ensurePromtool(tools);
  // The hosted-page tests drive Debian's chromium (apt-get install on the first run on a machine).
  if (want('e2e')) {
    const { ensureChromium } = await import(join(root, 'scripts/tools/chromium.mjs'));
    serverEnv.SESAME_CHROMIUM_BIN = await ensureChromium(tools);
    // The standard-RP test's second relying party: Authlib (Python) in a venv of its own, installed by pip.
    const { ensurePythonRp } = await import(join(root, 'scripts/tools/python-rp.mjs'));
    serverEnv.SESAME_PYTHON_RP_BIN = ensurePythonRp(tools);
  }
}

if (want('typecheck'))
  await check('typecheck', join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json', '--noEmit']);
if (want('lint')) {
  await check('lint', join(root, 'node_modules/.bin/biome'), ['check', '.']);
  await check('proto-lint', join(root, 'node_modules/.bin/buf'), ['lint', 'proto']);
}
if (want('unit')) await jestTests('unit', findTests(isUnit), {}, 2);
if (want('integration')) {
  const all = findTests(isInt);
  await jestTests(
    'integration',
    all.filter((f) => !isDisruptive(f)),
    serverEnv,
    2,
  );
  if (startedOwnServers) await jestTests('integration-outage', all.filter(isDisruptive), serverEnv, 1);
  else
    log(
      'integration-outage: not run: these tests stop and restart the broker, so they only run on the servers npm test starts itself',
    );
}
if (want('e2e')) await jestTests('e2e', findTests(isE2e), serverEnv, 1);

if (coverage) (await import(join(root, 'scripts/coverage-report.mjs'))).mergeCoverage(root);

console.log('\n──── summary ────');
for (const r of results) console.log(`${r.label.padEnd(20)} ${r.passed} passed, ${r.failed} failed`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`(typecheck and lint count as one check each; total wall time ${elapsed()})`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
