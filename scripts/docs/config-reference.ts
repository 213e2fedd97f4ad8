// `npm run docs:config [-- --check]`: writes docs/config-reference.md from the config schemas themselves (every
// variable: who reads it, its type or allowed values, its default and its `.describe()` text). --check prints
// nothing and exits 1 when the file differs from what the schemas give (config-reference.test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { storesEnv } from '../../embedded/src/data-dir';
import { launcherEnv } from '../../embedded/src/launcher';
import { mailConfigSchema } from '../../libs/mail/src/config';
import { baseConfigSchema } from '../../libs/platform/src/config';
import { peersSchema } from '../../libs/platform/src/peers';
import { smsConfigSchema } from '../../libs/sms/src/config';
import { configSchema as activityLog } from '../../services/activity-log/src/config';
import { DEV_CODE_HASH_KEY, configSchema as auth } from '../../services/auth/src/config';
import { configSchema as cibaNotifier } from '../../services/ciba-notifier/src/config';
import { DEV_KEY_ENCRYPTION_KEY, configSchema as jwks } from '../../services/jwks/src/config';
import { DEV_CLIENT_SECRET_KEYS, configSchema as mgmt } from '../../services/mgmt/src/config';
import { configSchema as token } from '../../services/token/src/config';
import { repoRoot } from './markdown';

export const referencePath = join(repoRoot, 'docs/config-reference.md');

/** What the generator reads of a zod schema (zod itself is a dependency of the packages, not of scripts/). */
export interface Schema {
  _def: unknown;
  description?: string;
  describe(description: string): Schema;
}
type Shape = Record<string, Schema>;
const services: Record<string, Shape> = {
  auth: auth.shape,
  token: token.shape,
  jwks: jwks.shape,
  mgmt: mgmt.shape,
  'activity-log': activityLog.shape,
  'ciba-notifier': cibaNotifier.shape,
};
const launcher: Shape = { ...launcherEnv.shape, ...storesEnv.shape };

/** The sections, in order: where a variable is declared once (a shared schema) or `null` for one service's own. */
const sections: Array<{ title: string; source: string; shape: Shape | null }> = [
  { title: 'Every service', source: 'libs/platform/src/config.ts', shape: baseConfigSchema.shape },
  {
    title: 'Where the other services answer (gRPC)',
    source: 'libs/platform/src/peers.ts',
    shape: peersSchema.shape,
  },
  { title: 'Mail', source: 'libs/mail/src/config.ts', shape: mailConfigSchema.shape },
  { title: 'Text messages (SMS)', source: 'libs/sms/src/config.ts', shape: smsConfigSchema.shape },
  { title: 'One service', source: 'services/<name>/src/config.ts', shape: null },
];

/** Development-only values published in the source: named, never spelled out (production refuses them). */
const developmentValues = new Set([DEV_CODE_HASH_KEY, DEV_KEY_ENCRYPTION_KEY, DEV_CLIENT_SECRET_KEYS]);

interface Def {
  typeName: string;
  description?: string;
  innerType?: Schema;
  schema?: Schema;
  in?: Schema;
  defaultValue?: () => unknown;
  values?: string[];
  checks?: Array<{ kind: string; value?: number; inclusive?: boolean; regex?: RegExp }>;
  coerce?: boolean;
}
const defOf = (s: Schema) => s._def as Def;

/** The schema a wrapper (default, optional, refinement, transform, pipeline) was made from. */
function inner(s: Schema): Schema | undefined {
  const def = defOf(s);
  return def.innerType ?? def.schema ?? def.in;
}

function defaultOf(s: Schema): unknown {
  for (let at: Schema | undefined = s; at; at = inner(at)) {
    const def = defOf(at);
    if (def.typeName === 'ZodDefault') return def.defaultValue?.();
  }
  return undefined;
}

function descriptionOf(s: Schema): string | undefined {
  for (let at: Schema | undefined = s; at; at = inner(at)) if (at.description) return at.description;
  return undefined;
}

/** The value the environment must hold, in words: allowed values, a number's bounds, a string's form. */
export function typeOf(s: Schema): string {
  const def = defOf(s);
  const next = inner(s);
  if (def.typeName === 'ZodEnum') return (def.values ?? []).map((v) => `\`${v}\``).join(', ');
  if (def.typeName === 'ZodNumber') {
    const checks = def.checks ?? [];
    const integer = checks.some((c) => c.kind === 'int');
    const min = checks.find((c) => c.kind === 'min');
    const max = checks.find((c) => c.kind === 'max');
    const low = min ? (min.inclusive ? min.value : (min.value ?? 0) + 1) : undefined;
    const kind = integer ? 'integer' : 'number';
    if (low !== undefined && max) return `${kind} ${low}–${max.value}`;
    if (low !== undefined) return `${kind} ≥ ${low}`;
    return kind;
  }
  if (def.typeName === 'ZodString') {
    const checks = def.checks ?? [];
    if (checks.some((c) => c.kind === 'url')) return 'URL';
    const min = checks.find((c) => c.kind === 'min');
    return min && (min.value ?? 0) > 1 ? `string, at least ${min.value} characters` : 'string';
  }
  if (next) return typeOf(next);
  return 'string';
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
function renderDefault(value: unknown): string {
  if (value === undefined) return 'unset';
  if (developmentValues.has(value as string)) return 'a development-only value (refused in production)';
  if (value === '') return 'empty';
  return `\`${cell(String(value))}\``;
}

interface Row {
  name: string;
  readers: string[];
  type: string;
  defaults: string;
  description: string;
}

/** One variable across the schemas that read it; a default that differs per reader is given per reader. */
function rowOf(name: string, readers: Array<[string, Schema]>): Row {
  const descriptions = readers.map(([, s]) => descriptionOf(s)).filter(Boolean) as string[];
  if (!descriptions.length) {
    throw new Error(`${name} has no description: add .describe('…') where its schema is declared`);
  }
  const defaults = readers.map(([reader, s]) => [reader, renderDefault(defaultOf(s))] as const);
  const same = defaults.every(([, d]) => d === defaults[0]?.[1]);
  return {
    name,
    readers: readers.map(([reader]) => reader),
    type: typeOf(readers[0]![1]),
    defaults: same ? defaults[0]![1] : defaults.map(([reader, d]) => `${reader}: ${d}`).join('<br>'),
    description: descriptions[0]!,
  };
}

const readersCell = (readers: string[]) =>
  readers.length === Object.keys(services).length ? 'all six' : readers.join(', ');

function table(rows: Row[], withReaders: boolean): string[] {
  const head = withReaders
    ? ['| Variable | Read by | Type | Default | Description |', '| --- | --- | --- | --- | --- |']
    : ['| Variable | Type | Default | Description |', '| --- | --- | --- | --- |'];
  return [
    ...head,
    ...rows.map((r) =>
      withReaders
        ? `| \`${r.name}\` | ${readersCell(r.readers)} | ${cell(r.type)} | ${r.defaults} | ${cell(r.description)} |`
        : `| \`${r.name}\` | ${cell(r.type)} | ${r.defaults} | ${cell(r.description)} |`,
    ),
  ];
}

/** Every variable a service reads, grouped by the schema that declares it. */
export function configRows(): Array<{ title: string; source: string; rows: Row[] }> {
  const readers = new Map<string, Array<[string, Schema]>>();
  for (const [service, shape] of Object.entries(services))
    for (const [name, schema] of Object.entries(shape))
      readers.set(name, [...(readers.get(name) ?? []), [service, schema]]);
  const shared = sections.flatMap((s) => (s.shape ? Object.keys(s.shape) : []));
  return sections.map(({ title, source, shape }) => {
    const names = shape ? Object.keys(shape) : [...readers.keys()].filter((n) => !shared.includes(n)).sort();
    // A shared variable's description is the shared schema's; a service may narrow only its default.
    const rows = names.map((name) =>
      rowOf(name, shape ? withShared(readers.get(name) ?? [], shape[name]!) : (readers.get(name) ?? [])),
    );
    return { title, source, rows };
  });
}

function withShared(readers: Array<[string, Schema]>, declared: Schema) {
  return readers.map(([reader, s]) => [
    reader,
    descriptionOf(s) ? s : s.describe(descriptionOf(declared) ?? ''),
  ]) as Array<[string, Schema]>;
}

export function renderConfigReference(): string {
  const lines = [
    '# Configuration reference',
    '',
    '<!-- Generated by `npm run docs:config` (scripts/docs/config-reference.ts) from the config schemas: edit a',
    "     variable's `.describe()` text where its schema is declared, then re-run. -->",
    '',
    'Every environment variable the six services and `npm start` read, generated from the zod schemas that',
    'parse them, so it cannot drift from the code. Each service parses its environment once at start; a wrong',
    'value stops it with a message naming the variable (exit code 78). `npm start` runs all six services in one',
    'process and hands them its environment, so every variable below applies to it too; how the pieces fit',
    'together (stores, environments, using servers you already run) is in [configuration.md](configuration.md).',
    '',
    'Durations carry their unit in the name (`_MS`, `_S`, `_H`, `_DAYS`). "unset" means the variable is',
    'optional and has no default; what its absence means is in its description.',
  ];
  for (const { title, source, rows } of configRows()) {
    lines.push('', `## ${title}`, '', `Declared in \`${source}\`.`, '', ...table(rows, true));
  }
  const launcherRows = Object.entries(launcher).map(([name, s]) => rowOf(name, [['npm start', s]]));
  lines.push(
    '',
    '## `npm start` only',
    '',
    'Read by the launcher (`embedded/src/launcher.ts`, `embedded/src/data-dir.ts`) before the services start.',
    '',
    ...table(launcherRows, false),
  );
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = renderConfigReference();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(referencePath, 'utf8');
    } catch {}
    if (current !== text) {
      process.stderr.write('docs/config-reference.md is stale: run npm run docs:config\n');
      process.exit(1);
    }
  } else {
    writeFileSync(referencePath, text);
  }
}
