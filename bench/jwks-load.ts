/**
 * Child process of bench/jwks.bench.ts: autocannon (programmatic API) GETting one URL, the same for the bare
 * server and for Sesame.
 *   <url> <connections> <seconds>
 * Prints autocannon's JSON result with `loadCpuUs`: this process's CPU time over the run, so the bench can
 * show whether the load generator, not the server, is what limits req/s (autocannon is one thread, and on a
 * 2-core machine it shares the cores with the server).
 */
import autocannon from 'autocannon';

const [url, connections, seconds] = process.argv.slice(2);
const cpu = process.cpuUsage();
const result = await autocannon({ url: url!, connections: Number(connections), duration: Number(seconds) });
const used = process.cpuUsage(cpu);
process.stdout.write(JSON.stringify({ ...result, loadCpuUs: used.user + used.system }));
