// `node --import tsx scripts/docs/jaeger-screenshot.ts [traceId]`: the picture of a sign-in's trace in
// docs/operations.md ("Tracing"). Opens one trace in Jaeger's UI (SESAME_JAEGER_URL; a Jaeger started with
// SESAME_INFRA_JAEGER_UI, since the binary built from the Go module has only a placeholder page) in Debian's
// chromium, saves docs/images/jaeger-signin-trace.png and prints the trace's spans as an indented list.
// Without a trace id it takes the newest trace of activity-log that has spans of auth, token, mgmt, jwks and
// activity-log (the one e2e/traces-jaeger.ha.test.ts leaves behind).
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '@sesame/testing/browser';
import { repoRoot } from './markdown';

interface Span {
  spanID: string;
  operationName: string;
  processID: string;
  startTime: number;
  duration: number;
  references: Array<{ refType: string; spanID: string }>;
}
interface Trace {
  traceID: string;
  spans: Span[];
  processes: Record<string, { serviceName: string }>;
}

const SERVICES = ['auth', 'token', 'mgmt', 'jwks', 'activity-log'];
const jaegerUrl = process.env.SESAME_JAEGER_URL;
if (!jaegerUrl) {
  console.error('SESAME_JAEGER_URL is not set: eval "$(npm run -s infra -- env --with jaeger)"');
  process.exit(2);
}

const services = (t: Trace) => new Set(t.spans.map((s) => t.processes[s.processID]!.serviceName));

async function findTrace(id: string | undefined): Promise<Trace> {
  if (id) {
    const res = await fetch(`${jaegerUrl}/api/traces/${id}`);
    if (res.status !== 200) throw new Error(`trace ${id}: Jaeger answered ${res.status}`);
    return ((await res.json()) as { data: Trace[] }).data[0]!;
  }
  const res = await fetch(`${jaegerUrl}/api/traces?service=activity-log&limit=50&lookback=1h`);
  const all = ((await res.json()) as { data: Trace[] }).data
    .filter((t) => SERVICES.every((s) => services(t).has(s)))
    .sort(
      (a, b) => Math.min(...b.spans.map((s) => s.startTime)) - Math.min(...a.spans.map((s) => s.startTime)),
    );
  if (!all[0])
    throw new Error(`no trace of the last hour spans ${SERVICES.join(', ')}: run the traces test first`);
  return all[0];
}

/** The spans as a tree, children in start order: `service  operation  (duration)`. */
function spanList(t: Trace): string[] {
  const byParent = new Map<string, Span[]>();
  const ids = new Set(t.spans.map((s) => s.spanID));
  for (const s of t.spans) {
    const parent = s.references.find((r) => r.refType === 'CHILD_OF' && ids.has(r.spanID))?.spanID ?? '';
    byParent.set(parent, [...(byParent.get(parent) ?? []), s]);
  }
  const lines: string[] = [];
  const walk = (parent: string, depth: number) => {
    for (const s of (byParent.get(parent) ?? []).sort((a, b) => a.startTime - b.startTime)) {
      const service = t.processes[s.processID]!.serviceName;
      lines.push(
        `${'  '.repeat(depth)}${service}: ${s.operationName} (${(s.duration / 1000).toFixed(1)} ms)`,
      );
      walk(s.spanID, depth + 1);
    }
  };
  walk('', 0);
  return lines;
}

const trace = await findTrace(process.argv[2]);
const out = join(repoRoot, 'docs/images/jaeger-signin-trace.png');
mkdirSync(join(repoRoot, 'docs/images'), { recursive: true });
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.goto(`${jaegerUrl}/trace/${trace.traceID}`);
  // The timeline's rows: one per span, once the trace has loaded.
  await page
    .locator('.span-row')
    .nth(trace.spans.length - 1)
    .waitFor({ timeout: 30_000 });
  await page.screenshot({ path: out });
} finally {
  await browser.close();
}
console.log(`trace ${trace.traceID}: ${trace.spans.length} spans of ${[...services(trace)].join(', ')}`);
for (const line of spanList(trace)) console.log(line);
console.log(`screenshot: ${out} (${Math.round(statSync(out).size / 1024)} KB)`);
