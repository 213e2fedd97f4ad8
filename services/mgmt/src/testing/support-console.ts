import { type ConsoleFixture, startConsole } from './console-fixture';
import { supportData } from './support-data';
import type { MemorySupport } from './support-memory';

/**
 * The console the support tests drive: tenant Acme with a Support and an Administrator
 * (support@acme.test, admin@acme.test), `port` as its support port, filled by supportData for Acme and a second
 * tenant (`other`) whose people must never show.
 */
export async function startSupportConsole(
  port: MemorySupport,
): Promise<{ f: ConsoleFixture; other: string }> {
  const f = await startConsole(
    [
      ['support@acme.test', 'support'],
      ['admin@acme.test', 'administrator'],
    ],
    'Acme',
    { support: port },
  );
  const other = await f.h.createTenant('Other');
  supportData(port, f.tenantId, other);
  return { f, other };
}
