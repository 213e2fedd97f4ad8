import { z } from 'zod';

/**
 * SESAME_REDIS_URL in one of three forms (docs/operations.md, "Redis topologies"):
 *
 *   redis://[[user]:password@]host:port[/db]        one server (rediss:// for TLS), as ioredis reads it
 *   redis+sentinel://[[user]:password@]host:port,host:port,…/<master-name>[?db=0&sentinelPassword=…&tls=true]
 *   redis+cluster://[[user]:password@]host:port,host:port,…[?tls=true]
 *
 * The credentials are those of the data nodes; Sentinels that need their own password take sentinelPassword.
 * A Cluster has only database 0, so its form takes no database.
 */
export type RedisTarget =
  | { topology: 'standalone'; url: string }
  | {
      topology: 'sentinel';
      sentinels: RedisNode[];
      masterName: string;
      db: number;
      username?: string;
      password?: string;
      sentinelPassword?: string;
      tls: boolean;
    }
  | { topology: 'cluster'; nodes: RedisNode[]; username?: string; password?: string; tls: boolean };

export interface RedisNode {
  host: string;
  port: number;
}

const FORM =
  /^(redis\+sentinel|redis\+cluster):\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?#]*)(?:\/([^?#]*))?(?:\?([^#]*))?$/;

const node = z
  .string()
  .regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'each node is host:port')
  .transform((hostPort, ctx): RedisNode => {
    const at = hostPort.lastIndexOf(':');
    const port = Number(hostPort.slice(at + 1));
    if (port < 1 || port > 65535)
      ctx.addIssue({ code: 'custom', message: `port out of range in ${hostPort}` });
    return { host: hostPort.slice(0, at).replace(/^\[|\]$/g, ''), port };
  });

const nodes = z
  .string()
  .min(1, 'no host:port list')
  .transform((list) => list.split(','))
  .pipe(z.array(node).min(1));

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');
const decoded = (v: string | undefined) => (v ? decodeURIComponent(v) : undefined);

const sentinelForm = z.object({
  username: z.string().optional(),
  password: z.string().optional(),
  hosts: nodes,
  path: z
    .string({ required_error: 'the master name goes in the path: /<master-name>' })
    .regex(/^[A-Za-z0-9._-]+$/, 'the master name goes in the path: /<master-name>'),
  query: z
    .object({
      db: z.coerce.number().int().min(0).max(15).default(0),
      sentinelPassword: z.string().optional(),
      tls: flag.default('false'),
    })
    .strict(),
});

const clusterForm = z.object({
  username: z.string().optional(),
  password: z.string().optional(),
  hosts: nodes,
  path: z.literal('', {
    errorMap: () => ({ message: 'a cluster has no database or name: nothing after the hosts' }),
  }),
  query: z.object({ tls: flag.default('false') }).strict(),
});

/** Reads SESAME_REDIS_URL; throws an Error naming what is wrong (never echoing a password). */
export function parseRedisUrl(url: string): RedisTarget {
  if (/^rediss?:\/\//.test(url)) return { topology: 'standalone', url };
  const m = FORM.exec(url);
  if (!m) throw new Error('expected redis://, rediss://, redis+sentinel:// or redis+cluster://');
  const [, scheme, user, pass, hosts, path, search] = m;
  const parts = {
    username: decoded(user),
    password: decoded(pass),
    hosts,
    path: path ?? '',
    query: Object.fromEntries(new URLSearchParams(search ?? '')),
  };
  const problem = (error: z.ZodError) =>
    new Error(
      error.issues
        .map((i) => {
          const field = i.path.filter((p) => typeof p === 'string').at(-1);
          return field ? `${field}: ${i.message}` : i.message;
        })
        .join('; '),
    );
  if (scheme === 'redis+sentinel') {
    const parsed = sentinelForm.safeParse(parts);
    if (!parsed.success) throw problem(parsed.error);
    const { username, password, hosts: sentinels, path: masterName, query } = parsed.data;
    return { topology: 'sentinel', sentinels, masterName, username, password, ...query };
  }
  const parsed = clusterForm.safeParse(parts);
  if (!parsed.success) throw problem(parsed.error);
  const { username, password, hosts: clusterNodes, query } = parsed.data;
  return { topology: 'cluster', nodes: clusterNodes, username, password, tls: query.tls };
}

/** A zod refinement for config schemas: the variable, if set, is one of the three forms. */
export const redisUrlSchema = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .superRefine((v, ctx) => {
    if (v === undefined) return;
    try {
      parseRedisUrl(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
    }
  });
