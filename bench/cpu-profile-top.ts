/**
 * The top frames of a V8 CPU profile (node --cpu-prof) by self time, as docs/performance.md lists them:
 *
 *   node --import tsx bench/cpu-profile-top.ts <file.cpuprofile | directory (its largest profile)> [count]
 *
 * Idle time is left out of the percentages: they are shares of the time the process was busy.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface Profile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

export function topFrames(file: string, count: number): Array<{ share: number; frame: string }> {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const timeOf = new Map<number, number>();
  profile.samples.forEach((id, i) => timeOf.set(id, (timeOf.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const self = new Map<string, number>();
  let busy = 0;
  for (const { id, callFrame } of profile.nodes) {
    const time = timeOf.get(id) ?? 0;
    if (callFrame.functionName === '(idle)') continue;
    busy += time;
    const where = callFrame.url
      ? ` ${callFrame.url.split('/').slice(-2).join('/')}:${callFrame.lineNumber + 1}`
      : '';
    const frame = `${callFrame.functionName || '(anonymous)'}${where}`;
    self.set(frame, (self.get(frame) ?? 0) + time);
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, time]) => ({ share: time / Math.max(1, busy), frame }));
}

if (process.argv[1]?.endsWith('cpu-profile-top.ts')) {
  const target = process.argv[2];
  if (!target) {
    console.error('usage: node --import tsx bench/cpu-profile-top.ts <file or directory> [count]');
    process.exit(2);
  }
  const file = statSync(target).isDirectory()
    ? readdirSync(target)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(target, f))
        .sort((a, b) => statSync(b).size - statSync(a).size)[0]!
    : target;
  for (const { share, frame } of topFrames(file, Number(process.argv[3] ?? 25)))
    console.log(`${(share * 100).toFixed(1).padStart(5)}%  ${frame}`);
}
