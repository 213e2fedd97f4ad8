import type { Logger } from '@sesame/platform';
import { sampleAppBanner } from './launcher';
import { trustBanner } from './local-tls';
import { SAMPLE_APP_URL } from './seed';

/** How `npm start` writes: human lines on a terminal, pino JSON lines for a log collector or a pipe. */
export type LogFormat = 'pretty' | 'json';

/** SESAME_LOG_FORMAT when set, else pretty on a terminal and JSON anywhere else (a pipe, a file, a collector). */
export function logFormat(setting: LogFormat | undefined, isTTY: boolean): LogFormat {
  return setting ?? (isTTY ? 'pretty' : 'json');
}

/** What a start tells its reader: where things are and what to open next. */
export interface StartFacts {
  url: string;
  readyMs: number;
  opsUrl: string;
  grpcAddresses: Record<string, string>;
  /** Store servers given by SESAME_* URLs (Redis, Kafka, Mongo); the rest is embedded or in memory. */
  servers: string[];
  dataDir?: string;
  /** Where the demo data, its secrets and the admin key are kept (mode 0600). */
  demoFile: string;
  /** False when the store has data from an earlier start whose demo file is gone. */
  demoKept: boolean;
  outboxUrl?: string;
  /** `--https`: the local CA that signed the server certificate (local-tls.ts), to be trusted once. */
  caFile?: string;
  /** The demo tenant's Owner (not a secret): who signs in to the Console. */
  ownerEmail?: string;
  /** Printed only with --show-secrets (pretty format): the admin key and the demo file's secrets. */
  secrets?: Record<string, string>;
}

const grpcLine = (addresses: Record<string, string>) =>
  Object.entries(addresses)
    .map(([name, address]) => `${name}=${address}`)
    .join(' ');

function storesLines(servers: string[], dir: string | undefined): string[] {
  const rest = dir ? `embedded (SQLite) at ${dir}` : 'in-memory';
  const head = servers.length ? `${servers.join(', ')} from SESAME_* URLs, ${rest} for the rest` : rest;
  if (!dir) return [`  stores: ${head} (nothing is kept after a stop)`];
  return [
    `  stores: ${head}`,
    '           the data is kept across restarts; start fresh: npm start -- --fresh (or npm run reset)',
  ];
}

/** The human banner: what runs where, then what to open next; secrets only when asked. */
export function prettyBanner(facts: StartFacts): string {
  const { url, opsUrl } = facts;
  const grpc = grpcLine(facts.grpcAddresses);
  const secrets = facts.secrets
    ? [
        `  secrets (--show-secrets; also in ${facts.demoFile}):`,
        ...Object.entries(facts.secrets).map(([k, v]) => `    ${k.padEnd(14)} ${v}`),
      ]
    : [
        `  secrets:   the admin key and the demo tenant's ids and secrets are in ${facts.demoFile} (mode 0600);`,
        '             npm start -- --show-secrets prints them',
      ];
  return [
    '',
    `Sesame is running on ${url} (ready in ${facts.readyMs} ms)`,
    ...storesLines(facts.servers, facts.dataDir),
    `  discovery: ${url}/.well-known/openid-configuration`,
    `  health:    ${url}/healthz  ${url}/readyz  ${url}/ops/<service>/readyz`,
    `  metrics:   ${opsUrl}/metrics  ${opsUrl}/ops/<service>/metrics (ops port only)`,
    ...(facts.caFile ? trustBanner(facts.caFile) : []),
    `  gRPC:      ${grpc}`,
    ...(facts.demoKept
      ? secrets
      : [
          `  the store has data from an earlier start, but ${facts.demoFile} is gone: the demo credentials are not shown`,
          ...(facts.secrets ? secrets : []),
        ]),
    '',
    'Open next:',
    `  console:     ${url}/console/  (sign in as ${facts.ownerEmail ?? 'the demo Owner'} with an emailed code)`,
    ...(facts.outboxUrl ? [`  mail outbox: ${facts.outboxUrl}  (the codes and links Sesame mails)`] : []),
    ...(facts.demoKept ? sampleAppBanner(facts.demoFile) : []),
    '',
  ].join('\n');
}

/** The same facts as one pino JSON line (never a secret): its message still names the URL. */
export function logBanner(logger: Logger, facts: StartFacts): void {
  logger.info(
    {
      url: facts.url,
      readyMs: facts.readyMs,
      console: `${facts.url}/console/`,
      ...(facts.ownerEmail ? { ownerEmail: facts.ownerEmail } : {}),
      discovery: `${facts.url}/.well-known/openid-configuration`,
      opsUrl: facts.opsUrl,
      // One string, as on the human line: a `token` key would be redacted like a secret field.
      grpc: grpcLine(facts.grpcAddresses),
      stores: { servers: facts.servers, dataDir: facts.dataDir ?? null },
      demoFile: facts.demoFile,
      ...(facts.outboxUrl ? { outbox: facts.outboxUrl } : {}),
      ...(facts.caFile ? { caFile: facts.caFile } : {}),
      ...(facts.demoKept ? { sampleApp: SAMPLE_APP_URL } : {}),
    },
    `Sesame is running on ${facts.url}`,
  );
}
