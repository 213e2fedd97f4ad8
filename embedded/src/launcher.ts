import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { type DemoSeed, SAMPLE_APP_URL } from './seed';
import { OPS_FILE } from './store-files';

/** `npm start`'s own variables (the services read theirs through their config modules). */
export const launcherEnv = z.object({
  PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(8080)
    .describe('0 lets the OS pick a free port; the URL printed says which.'),
  OPS_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(0)
    .describe(
      'The ops port (/metrics of every service, health, readiness); 0: one the OS picks, printed at start.',
    ),
  HOST: z
    .string()
    .trim()
    .min(1)
    .default('127.0.0.1')
    .describe('Loopback by default: the demo data and the admin API are for this machine only.'),
  LOG_LEVEL: z
    .string()
    .default('info')
    .describe("Least severe level of the launcher's own log lines (the services read theirs too)."),
  SESAME_DEMO_FILE: z
    .string()
    .describe('Where the demo credentials and the admin key are kept (tests point it elsewhere).'),
  SESAME_LOG_FORMAT: z
    .enum(['pretty', 'json'])
    .optional()
    .describe(
      'How npm start writes: `pretty` (human lines), `json` (pino JSON lines). Unset: pretty on a terminal, JSON when stdout is not one (a pipe, a file, a log collector).',
    ),
  SESAME_ADMIN_KEY: z
    .string()
    .optional()
    .describe(
      'The bootstrap admin key; unset: the one kept in the demo file, else a new random one written there (mode 0600).',
    ),
  SESAME_HTTPS: z
    .enum(['0', '1', 'true', 'false', ''])
    .default('')
    .transform((v) => v === '1' || v === 'true')
    .describe('`1` or `true`: as `npm start -- --https` (the public port over TLS with the local CA).'),
  SESAME_TLS_DIR: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe(
      'Where --https keeps its CA and server certificate (default: `tls/` beside the demo file, .sesame/tls).',
    ),
});
export type LauncherEnv = z.infer<typeof launcherEnv>;

/** True for names and addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** The warning `npm start` prints when HOST exposes it beyond this machine; undefined on loopback. */
export function exposureWarning(host: string): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  return `HOST=${host} exposes the demo platform beyond this machine: anyone who can reach the port can use its demo credentials and sign in; keep the admin key in the demo file secret`;
}

/** What the demo file holds: the demo data, the admin key, and this start's URL (the sample app's issuer). */
export type DemoFile = DemoSeed & { adminKey: string; issuer: string };

/**
 * The banner's next step: the sample app (examples/rp), which reads the issuer and the demo client from the
 * demo file, listens on the demo application's redirect URI and signs in through this platform.
 */
export function sampleAppBanner(demoFile: string): string[] {
  return [
    `  next step: run \`npm run example\` in another terminal, open ${SAMPLE_APP_URL} and click Sign in`,
    `             (the sample app reads the issuer and the demo client from ${demoFile}; docs/example-app.md)`,
  ];
}

/**
 * The admin key of this checkout: SESAME_ADMIN_KEY when set, else the one kept in the demo file by an
 * earlier start, else a new random one (written with the demo data, mode 0600, on this start).
 */
export function adminKeyFor(env: Pick<LauncherEnv, 'SESAME_ADMIN_KEY' | 'SESAME_DEMO_FILE'>): string {
  if (env.SESAME_ADMIN_KEY) return env.SESAME_ADMIN_KEY;
  return readAdminKey(env.SESAME_DEMO_FILE) ?? randomBytes(32).toString('base64url');
}

/** The adminKey of a demo file, or undefined when there is no readable one. */
export function readAdminKey(file: string): string | undefined {
  try {
    const parsed = z
      .object({ adminKey: z.string().min(8) })
      .safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data.adminKey : undefined;
  } catch {
    return undefined;
  }
}

const demoFileSchema = z.object({
  tenantId: z.string().min(1),
  appId: z.string().min(1),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  redirectUri: z.string().min(1),
  credentialsId: z.string().min(1),
  apiSecret: z.string().min(1),
  ownerEmail: z.string().min(1),
});

/** The demo data an earlier start wrote (without its admin key), or undefined when there is no valid file. */
export function readDemoFile(file: string): DemoSeed | undefined {
  try {
    const parsed = demoFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Where the running platform's ops port is, for `npm run sesame -- backup` (mode 0600: a local detail). */
export function writeOpsFile(dataDir: string, ops: { pid: number; opsUrl: string }): void {
  const file = join(dataDir, OPS_FILE);
  writeFileSync(file, `${JSON.stringify(ops)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** Writes the demo data with the admin key, readable by this user only (also when the file existed). */
export function writeDemoFile(file: string, demo: DemoFile): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/**
 * Where this start listens, for the CLI (cli/src/discovery.ts): `platform.json` beside the demo file, written on
 * every start (the port may differ each time) and removed on a clean stop; the pid lets a reader skip the
 * file of a start that was killed.
 */
export function platformFileOf(demoFile: string): string {
  return join(dirname(demoFile), 'platform.json');
}

export function writePlatformFile(
  demoFile: string,
  platform: { adminUrl: string; issuer: string; pid: number },
) {
  const file = platformFileOf(demoFile);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(platform, null, 2)}\n`, { mode: 0o600 });
}

/** Removes the platform file on stop, unless another start has written its own since. */
export function removePlatformFile(demoFile: string, pid: number): void {
  const file = platformFileOf(demoFile);
  try {
    if ((JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid === pid) rmSync(file);
  } catch {
    // Already gone or unreadable: nothing to clean up.
  }
}
