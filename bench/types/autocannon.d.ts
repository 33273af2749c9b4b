// autocannon ships no type declarations (and @types/autocannon is not installed): this covers
// only the part of its programmatic API the benchmark uses.
declare module 'autocannon' {
  import { type EventEmitter } from 'node:events';

  namespace autocannon {
    /** Per-connection scratch object, reset each time a connection restarts its request list. */
    type Context = Record<string, unknown>;

    interface Request {
      method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
      path?: string;
      /** autocannon adds Content-Length to this object: never share one between requests. */
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (request: Request, context: Context) => Request | null;
      onResponse?: (
        status: number,
        body: string,
        context: Context,
        headers: Record<string, string | string[]>,
      ) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      /** Requests per second over all connections (each connection sends its share, then waits). */
      overallRate?: number;
      /**
       * With a rate, autocannon "corrects" each latency with an expected interval of
       * ceil(1 / rate) ms (1 ms), adding made-up samples; true records what was measured.
       */
      ignoreCoordinatedOmission?: boolean;
      /** Seconds. */
      duration?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      /** Sent with every request (a request's own headers start from these). */
      headers?: Record<string, string>;
      requests?: Request[];
      initialContext?: Context;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p99: number;
    }

    interface Result {
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      mismatches: number;
      resets: number;
      latency: Histogram;
      requests: Histogram & { sent: number };
      statusCodeStats: Record<string, { count: number }>;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;

  export = autocannon;
}
