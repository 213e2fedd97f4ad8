import { describe, expect, it } from '@jest/globals';
import { loadGeneratorName, parseWrk, wrkScript } from './load-generator';

// wrk 4.1 (Debian) against a server answering every tenth request with 500, then the shell's `times`.
const report = `Running 1s test @ http://127.0.0.1:36617/
  1 threads and 2 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   223.69us  578.58us   5.77ms   92.44%
    Req/Sec    27.98k    11.03k   36.36k    81.82%
  Latency Distribution
     50%   52.00us
     75%   73.00us
     90%  448.00us
     99%    3.16ms
  30598 requests in 1.10s, 4.23MB read
  Non-2xx or 3xx responses: 3059
Requests/sec:  27853.21
Transfer/sec:      3.85MB
0m0.000000s 0m0.000000s
0m0.060000s 0m0.330000s
`;

describe("wrk's report", () => {
  it('gives req/s, requests, the 99th percentile in ms, failures and wrk’s own CPU (the children line of times)', () => {
    const run = parseWrk(report);
    expect(run.rps).toBe(27853.21);
    expect(run.total).toBe(30598);
    expect(run.p99Ms).toBeCloseTo(3.16, 5);
    expect(run.failed).toBe(3059);
    expect(run.loadCpuUs).toBeCloseTo(390_000, 0);
  });

  it('adds socket errors and reads a p99 in µs', () => {
    const run = parseWrk(
      report
        .replace('99%    3.16ms', '99%  812.00us')
        .replace(
          '  Non-2xx or 3xx responses: 3059\n',
          '  Socket errors: connect 1, read 2, write 0, timeout 4\n',
        ),
    );
    expect(run.p99Ms).toBeCloseTo(0.812, 5);
    expect(run.failed).toBe(7);
  });

  it('refuses a report without its figures rather than printing zeros', () => {
    expect(() => parseWrk('unable to connect to 127.0.0.1:1 Connection refused\n')).toThrow(/requests in/);
  });
});

describe('BENCH_LOADGEN', () => {
  it('is wrk unless autocannon is named, and anything else is refused', () => {
    expect(loadGeneratorName({})).toBe('wrk');
    expect(loadGeneratorName({ BENCH_LOADGEN: 'autocannon' })).toBe('autocannon');
    expect(() => loadGeneratorName({ BENCH_LOADGEN: 'ab' })).toThrow(
      'BENCH_LOADGEN must be wrk or autocannon, not ab',
    );
  });

  it('writes a POST as a wrk Lua script, long-string quoted so a body with ]] or quotes is sent as it is', () => {
    const script = wrkScript({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=b&c="d"]]&e=\\n',
    });
    expect(script).toBe(
      [
        'wrk.method = [[POST]]',
        'wrk.body = [=[a=b&c="d"]]&e=\\n]=]',
        'wrk.headers[ [[content-type]] ] = [[application/x-www-form-urlencoded]]',
        '',
      ].join('\n'),
    );
  });
});
