// `npm start`'s log lines for a person: a pino JSON line becomes `12:03:04 WARN  auth: message (key=value …)`;
// anything else (the banner) passes unchanged. Secrets never reach here: pino redacted them already.
const levels = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const standard = new Set(['level', 'time', 'pid', 'hostname', 'service', 'msg', 'err']);

/** One output line as a person reads it. */
export function prettyLine(line) {
  if (!line.startsWith('{')) return line;
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null || !('msg' in entry)) return line;
  const level = String(levels[entry.level] ?? entry.level ?? 'INFO').toUpperCase();
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 19) : '';
  const extra = Object.entries(entry)
    .filter(([key]) => !standard.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const err = entry.err?.message ? ` — ${entry.err.message}` : '';
  const service = entry.service ? `${entry.service}: ` : '';
  return `${time} ${level.padEnd(5)} ${service}${entry.msg}${err}${extra.length ? `  (${extra.join(' ')})` : ''}`;
}
