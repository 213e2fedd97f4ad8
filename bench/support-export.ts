/**
 * The export legs of bench/support.bench.ts: every record of a tenant through the support port, then the same
 * export as the CSV download, each with the RSS growth of this process (which also holds the store the bench
 * loaded, so the figure is the export's own). Run through support.bench.ts.
 */
import { type ServerResponse, createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PerformanceObserver, constants as perf } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { type SupportPort, streamExport } from '@sesame/mgmt-service';
import { rssOf } from './support';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Export: every record of the tenant through the port; the RSS of this process (server and client) sampled. */
export async function measureExport(port: SupportPort, tenant: string, records: number) {
  // The figure is the export as it runs in production: no collection forced during it (with --expose-gc one
  // runs before it, for a clean baseline). SUPPORT_FORCE_GC=1 (with --expose-gc) adds a full collection every
  // 100,000 records and keeps the RSS after it apart: what the export holds, as opposed to garbage the
  // collector has not reclaimed yet. That is a diagnosis only: forced collections hide the growth a real
  // export makes (at 1,000,000 records, before the fixes in docs/performance.md: about 60 MB with them, 830 MB without).
  const forceGc = process.env.SUPPORT_FORCE_GC === '1' ? globalThis.gc : undefined;
  globalThis.gc?.();
  const rssBefore = rssOf(process.pid);
  let rssPeak = rssBefore;
  let rssAfterGcPeak = rssBefore;
  // After each forced collection: what the heap still holds, and the memory outside it (Buffers: gRPC frames).
  const memBefore = process.memoryUsage();
  let heapAfterGcPeak = memBefore.heapUsed;
  let externalAfterGcPeak = memBefore.external;
  let heapTotalAfterGcPeak = memBefore.heapTotal;
  // The peak of each stretch of 100,000 records (between forced collections): where a growth happened.
  const stretchPeaks: number[] = [];
  let stretchPeak = rssBefore;
  const sampler = setInterval(() => {
    const rss = rssOf(process.pid);
    rssPeak = Math.max(rssPeak, rss);
    stretchPeak = Math.max(stretchPeak, rss);
  }, 50);
  // The collections V8 ran on its own (the forced ones every 100,000 records are counted apart): many young ones
  // and few full ones mean the export's objects die young; full ones mean they were promoted to the old space.
  const collections = { young: 0, full: 0, forced: 0 };
  const gcWatch = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === perf.NODE_PERFORMANCE_GC_MINOR) collections.young++;
      else if (kind === perf.NODE_PERFORMANCE_GC_MAJOR) collections.full++;
    }
  });
  gcWatch.observe({ entryTypes: ['gc'] });
  const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
  let newSpacePeak = newSpace();
  const exportStarted = performance.now();
  let exported = 0;
  for await (const batch of port.exportFlows(tenant, {})) {
    for (const record of batch) if (record.id) exported++;
    if (forceGc && exported % 100_000 === 0) {
      newSpacePeak = Math.max(newSpacePeak, newSpace());
      stretchPeaks.push(stretchPeak - rssBefore);
      stretchPeak = rssBefore;
      forceGc();
      collections.forced++;
      rssAfterGcPeak = Math.max(rssAfterGcPeak, rssOf(process.pid));
      const mem = process.memoryUsage();
      heapAfterGcPeak = Math.max(heapAfterGcPeak, mem.heapUsed);
      externalAfterGcPeak = Math.max(externalAfterGcPeak, mem.external);
      heapTotalAfterGcPeak = Math.max(heapTotalAfterGcPeak, mem.heapTotal);
    }
  }
  clearInterval(sampler);
  gcWatch.disconnect();
  rssPeak = Math.max(rssPeak, rssOf(process.pid));
  const exportSeconds = (performance.now() - exportStarted) / 1000;
  console.log(
    `export of ${exported} records: ${exportSeconds.toFixed(1)} s (${(exported / exportSeconds).toFixed(0)} records/s); ` +
      `RSS ${mb(rssBefore)} before, peak ${mb(rssPeak)}: growth ${mb(rssPeak - rssBefore)}` +
      (forceGc
        ? `; after a full GC every 100k records, peak growth ${mb(rssAfterGcPeak - rssBefore)} ` +
          `(heap used ${mb(heapAfterGcPeak - memBefore.heapUsed)}, heap committed ${mb(heapTotalAfterGcPeak - memBefore.heapTotal)}, ` +
          `outside the heap ${mb(externalAfterGcPeak - memBefore.external)})`
        : '') +
      `; V8's own collections during the export: ${collections.young} young, ${collections.full - collections.forced} full; ` +
      `young generation up to ${mb(newSpacePeak)}`,
  );
  const growth = rssPeak - rssBefore;
  console.log(
    `export RSS growth ${mb(growth)} (goal: under 100 MB${forceGc ? ', with forced collections: not the figure' : ''}): ` +
      (growth < 100 * 1024 * 1024 ? 'met' : 'MISSED'),
  );
  if (stretchPeaks.length)
    console.log(`RSS growth, peak of each 100,000 records: ${stretchPeaks.map((b) => mb(b)).join(', ')}`);
  if (exported !== records) throw new Error(`exported ${exported} of ${records}`);
}

/**
 * The same export as the console's and the admin API's **Export CSV** send it: mgmt's streamExport writing
 * the port's batches into an HTTP response, read to the end by a client in this process. The response is
 * node's; express adds only `status` and `set` to it, given here the same way.
 */
export async function measureDownload(port: SupportPort, tenant: string, records: number) {
  const server = createServer((_req, res) => {
    const response = Object.assign(res, {
      status(code: number) {
        res.statusCode = code;
        return response;
      },
      set(headers: Record<string, string>) {
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
        return response;
      },
    }) as ServerResponse & { status: (c: number) => unknown; set: (h: Record<string, string>) => unknown };
    void streamExport(response as never, 'csv', port.exportFlows(tenant, {}), 'sign-ins', Date.now());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  globalThis.gc?.();
  const rssBefore = rssOf(process.pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssOf(process.pid));
  }, 50);
  const started = performance.now();
  const { lines, bytes } = await new Promise<{ lines: number; bytes: number }>((resolve, reject) => {
    get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, (res) => {
      let lines = 0;
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on('end', () => resolve({ lines, bytes }));
      res.on('error', reject);
    }).on('error', reject);
  });
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, rssOf(process.pid));
  server.close();
  const seconds = (performance.now() - started) / 1000;
  const growth = rssPeak - rssBefore;
  console.log(
    `CSV download of ${lines - 1} records (${mb(bytes)}): ${seconds.toFixed(1)} s; RSS ${mb(rssBefore)} before, ` +
      `peak ${mb(rssPeak)}: growth ${mb(growth)} (goal: under 100 MB): ${growth < 100 * 1024 * 1024 ? 'met' : 'MISSED'}`,
  );
  if (lines - 1 !== records) throw new Error(`downloaded ${lines - 1} of ${records} records`);
}
