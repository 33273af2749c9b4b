import { randomBytes } from 'node:crypto';
import { Agent, type IncomingHttpHeaders, request } from 'node:http';

/**
 * What became of one HTTP request, from the client's side:
 * - `answered`: a complete response arrived (every byte its framing announced);
 * - `not-sent`: the connection failed before the request was handed to the network (refused,
 *   or reset while connecting): the server cannot have seen it;
 * - `cut`: the request was handed to the network, then the connection ended or failed without a
 *   complete response. A server that shuts down gracefully never does this.
 */
export type Outcome =
  | {
      kind: 'answered';
      status: number;
      headers: IncomingHttpHeaders;
      text: string;
      body: any;
      reusedSocket: boolean;
      startedAt: number;
      endedAt: number;
    }
  | {
      kind: 'not-sent' | 'cut';
      code: string;
      message: string;
      reusedSocket: boolean;
      startedAt: number;
      endedAt: number;
    };

export interface SendOptions {
  port: number;
  method: string;
  /** Sent as is: already encoded. */
  path: string;
  headers?: Record<string, string>;
  /** A string or Buffer is sent as is; anything else is JSON-encoded (with its content type). */
  body?: unknown;
  agent?: Agent | false;
  /** Past this, the request is abandoned and reported as `cut` with code TIMEOUT. */
  timeoutMs?: number;
}

export function send(options: SendOptions): Promise<Outcome> {
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | Buffer | undefined;
  if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) payload = options.body;
  else if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  // Node sends a GET or DELETE body without framing unless told its length.
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  const startedAt = Date.now();
  return new Promise((resolve) => {
    let sent = false;
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const req = request({
      host: '127.0.0.1',
      port: options.port,
      method: options.method,
      path: options.path,
      headers,
      agent: options.agent ?? false,
      // Large enough for any response header this service could send back (it echoes Origin).
      maxHeaderSize: 256 * 1024,
    });
    const fail = (error: NodeJS.ErrnoException) =>
      settle({
        kind: sent ? 'cut' : 'not-sent',
        code: error.code ?? 'ERROR',
        message: error.message,
        reusedSocket: req.reusedSocket,
        startedAt,
        endedAt: Date.now(),
      });
    // 'finish': the last byte of the request was handed to the operating system.
    req.on('finish', () => {
      sent = true;
    });
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A response cut short (fewer bytes than Content-Length, an unfinished chunked body)
      // emits 'aborted'/'error' instead of 'end'.
      res.on('error', fail);
      res.on('aborted', () =>
        fail(Object.assign(new Error('response aborted'), { code: 'ABORTED' })),
      );
      res.on('end', () => {
        if (!res.complete) {
          fail(Object.assign(new Error('response incomplete'), { code: 'INCOMPLETE' }));
          return;
        }
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any;
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          body = undefined;
        }
        settle({
          kind: 'answered',
          status: res.statusCode ?? 0,
          headers: res.headers,
          text,
          body,
          reusedSocket: req.reusedSocket,
          startedAt,
          endedAt: Date.now(),
        });
      });
    });
    if (options.timeoutMs !== undefined) {
      const timer = setTimeout(() => {
        fail(
          Object.assign(new Error(`no response within ${options.timeoutMs} ms`), {
            code: 'TIMEOUT',
          }),
        );
        req.destroy();
      }, options.timeoutMs);
      req.on('close', () => clearTimeout(timer));
    }
    req.end(payload);
  });
}

/** One line about an outcome, for failure messages; times are relative to `origin`. */
export function describeOutcome(outcome: Outcome, origin?: number): string {
  const took = `took ${outcome.endedAt - outcome.startedAt} ms`;
  const when = origin === undefined ? took : `sent at +${outcome.startedAt - origin} ms, ${took}`;
  const socket = outcome.reusedSocket ? 'reused connection' : 'new connection';
  if (outcome.kind === 'answered') {
    return `${outcome.status} ${outcome.text.slice(0, 300)} (${socket}, ${when})`;
  }
  return `${outcome.kind}: ${outcome.code} ${outcome.message} (${socket}, ${when})`;
}

/** A small JSON client for setting data up through a running service. */
export class JsonClient {
  constructor(
    readonly port: number,
    private readonly agent: Agent | false = false,
    private readonly timeoutMs = 15_000,
  ) {}

  async call(method: string, path: string, body?: unknown, token?: string) {
    const outcome = await send({
      port: this.port,
      method,
      path,
      body,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      agent: this.agent,
      timeoutMs: this.timeoutMs,
    });
    if (outcome.kind !== 'answered') {
      throw new Error(`${method} ${path}: ${outcome.kind} (${outcome.code} ${outcome.message})`);
    }
    return outcome;
  }

  /** Like call, but insists on `status` and returns the parsed body. */
  async expect(status: number, method: string, path: string, body?: unknown, token?: string) {
    const outcome = await this.call(method, path, body, token);
    if (outcome.status !== status) {
      throw new Error(
        `${method} ${path}: expected ${status}, got ${outcome.status} ${outcome.text}`,
      );
    }
    return outcome.body;
  }

  /** A new account and a bearer token for it. */
  async newAccount(
    prefix = 'resilience',
  ): Promise<{ token: string; username: string; password: string }> {
    const username = `${prefix}-${randomBytes(6).toString('hex')}`;
    const password = 'correct horse battery staple';
    await this.expect(201, 'POST', '/accounts', { username, password });
    const { token } = await this.expect(200, 'POST', '/accounts/auth/token', {
      username,
      password,
    });
    return { token, username, password };
  }

  /** project > block > row, with no column yet; returns the row's columns path and ids. */
  async newRow(token: string) {
    const project = await this.expect(201, 'POST', '/projects', { title: 'Resilience' }, token);
    const projectPath = `/projects/${project._id}`;
    const block = await this.expect(
      201,
      'POST',
      `${projectPath}/blocks`,
      { description: 'b' },
      token,
    );
    const blockPath = `${projectPath}/blocks/${block._id}`;
    const row = await this.expect(201, 'POST', `${blockPath}/rows`, {}, token);
    const rowPath = `${blockPath}/rows/${row._id}`;
    return { projectId: project._id as string, rowId: row._id as string, rowPath };
  }

  /** A new row with one column of `size`; returns the paths of the column and its contents. */
  async newColumn(token: string, size = 6) {
    const { projectId, rowPath } = await this.newRow(token);
    const column = await this.expect(201, 'POST', `${rowPath}/columns`, { size }, token);
    const columnPath = `${rowPath}/columns/${column._id}`;
    return {
      projectId,
      columnId: column._id as string,
      columnPath,
      contentsPath: `${columnPath}/contents`,
    };
  }
}

/**
 * Fails with every problem listed (and `context`, such as the service's log) when there is any.
 * Clearer than a deep-equality diff of long lists.
 */
export function expectNone(what: string, problems: readonly string[], context = ''): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, 40).join('\n  ');
  const more = problems.length > 40 ? `\n  … and ${problems.length - 40} more` : '';
  throw new Error(
    `${what} (${problems.length}):\n  ${shown}${more}${context ? `\n\n${context}` : ''}`,
  );
}
