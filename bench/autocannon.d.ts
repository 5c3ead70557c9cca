// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request | null;
    }
    interface Histogram {
      p50: number;
      p99: number;
      average: number;
      max: number;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      amount?: number;
      requests?: Request[];
    }
    interface Result {
      duration: number;
      requests: Histogram & { total: number };
      latency: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
