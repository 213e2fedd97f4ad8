// Minimal typing for the parts of autocannon's programmatic API the benchmarks use (it ships no types).
declare module 'autocannon' {
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (req: Request) => Request;
    /** Called with each answer to this request (status, body text). */
    onResponse?: (status: number, body: string) => void;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    requests?: Request[];
    /** One request for every call, when `requests` is not given. */
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Histogram {
    average: number;
    total: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
