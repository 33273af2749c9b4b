import { connect, createServer, type Server, type Socket } from 'node:net';

/** One statement as a server sent it: its SQL and (text-format) parameters. */
export interface CapturedStatement {
  sql: string;
  params: (string | null)[];
}

export interface WireCounters {
  /** Simple queries plus extended-protocol Syncs: each one waits for the database once. */
  roundTrips: number;
  /** Statements executed (simple queries plus Executes). */
  statements: number;
  /** Time from each round trip's last message to the database's ReadyForQuery, summed. */
  dbMs: number;
}

/**
 * A TCP proxy in front of PostgreSQL that reads the wire protocol as it passes (without
 * delaying it) to count round trips and statements, time the database's share, and capture the
 * SQL. Works for any client (Prisma's pg adapter and plain pg alike, so the service and the
 * yardstick) without logging settings on the server. Only for unencrypted connections, which is
 * what both servers use here.
 */
export class PgWireProxy {
  readonly counters: WireCounters = { roundTrips: 0, statements: 0, dbMs: 0 };
  captured: CapturedStatement[] = [];
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
    server: Server,
  ) {
    this.server = server;
  }

  static async start(target: { host: string; port: number }): Promise<PgWireProxy> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const address = server.address();
    if (typeof address !== 'object' || address === null) throw new Error('proxy has no port');
    const proxy = new PgWireProxy(target, address.port, server);
    server.on('connection', (client) => proxy.relay(client));
    return proxy;
  }

  reset(): void {
    Object.assign(this.counters, { roundTrips: 0, statements: 0, dbMs: 0 });
    this.captured = [];
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket) {
    const upstream = connect(this.target.port, this.target.host);
    // Both ends send without Nagle, as PostgreSQL and pg do: a relay that batches would add
    // delayed-ACK stalls (40 ms) to large results and distort the latencies measured through it.
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    this.sockets.add(client).add(upstream);
    const waiting: number[] = []; // start times of round trips not answered yet
    const named = new Map<string, string>(); // prepared statement name → SQL
    let lastParsed = '';
    let pending: CapturedStatement | undefined;

    const frontend = new MessageReader(true, (type, body) => {
      switch (type) {
        case SSL_REQUEST:
          backend.skipByte = true; // the server answers it with one untyped byte, S or N
          break;
        case 'Q':
          this.counters.roundTrips++;
          this.counters.statements++;
          waiting.push(performance.now());
          this.captured.push({ sql: cString(body, 0).text, params: [] });
          break;
        case 'P': {
          const name = cString(body, 0);
          lastParsed = cString(body, name.end).text;
          if (name.text !== '') named.set(name.text, lastParsed);
          break;
        }
        case 'B': {
          const portal = cString(body, 0);
          const statement = cString(body, portal.end);
          const sql = statement.text === '' ? lastParsed : (named.get(statement.text) ?? '?');
          pending = { sql, params: bindParams(body, statement.end) };
          break;
        }
        case 'E':
          this.counters.statements++;
          if (pending) this.captured.push(pending);
          pending = undefined;
          break;
        case 'S':
          this.counters.roundTrips++;
          waiting.push(performance.now());
          break;
      }
    });
    const backend = new MessageReader(false, (type) => {
      if (type === 'Z' && waiting.length > 0)
        this.counters.dbMs += performance.now() - waiting.shift()!;
    });

    client.on('data', (chunk) => {
      upstream.write(chunk);
      frontend.push(chunk);
    });
    upstream.on('data', (chunk) => {
      client.write(chunk);
      backend.push(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  }
}

/**
 * Splits a byte stream into protocol messages: a type byte and an int32 length, except the
 * frontend's first message (startup, or an SSL request followed by the startup), which has no
 * type byte.
 */
const SSL_REQUEST = 'ssl-request';

class MessageReader {
  private buffer: Buffer = Buffer.alloc(0);
  private startup: boolean;
  skipByte = false;

  constructor(
    frontend: boolean,
    private readonly onMessage: (type: string, body: Buffer) => void,
  ) {
    this.startup = frontend;
  }

  push(chunk: Buffer) {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (this.skipByte) {
        if (this.buffer.length < 1) return;
        this.buffer = this.buffer.subarray(1);
        this.skipByte = false;
      }
      if (this.startup) {
        if (this.buffer.length < 8) return;
        const length = this.buffer.readInt32BE(0);
        if (this.buffer.length < length) return;
        const code = this.buffer.readInt32BE(4);
        // An SSL or GSS request is followed by the real startup message.
        this.startup = code === 80877103 || code === 80877104;
        if (this.startup) this.onMessage(SSL_REQUEST, Buffer.alloc(0));
        this.buffer = this.buffer.subarray(length);
        continue;
      }
      if (this.buffer.length < 5) return;
      const length = this.buffer.readInt32BE(1);
      if (this.buffer.length < 1 + length) return;
      this.onMessage(String.fromCharCode(this.buffer[0]), this.buffer.subarray(5, 1 + length));
      this.buffer = this.buffer.subarray(1 + length);
    }
  }
}

function cString(buffer: Buffer, start: number): { text: string; end: number } {
  const zero = buffer.indexOf(0, start);
  return { text: buffer.toString('utf8', start, zero), end: zero + 1 };
}

/**
 * Bind: format codes, then each parameter as int32 length (-1: null) and bytes. A binary
 * parameter (pg sends Buffers so, as bytea) is kept in bytea's text form, \x and hex, so that
 * the statement can be EXPLAINed with it.
 */
function bindParams(body: Buffer, start: number): (string | null)[] {
  let at = start;
  const formatCount = body.readInt16BE(at);
  const formats: number[] = [];
  for (let i = 0; i < formatCount; i++) formats.push(body.readInt16BE(at + 2 + 2 * i));
  at += 2 + 2 * formatCount;
  const count = body.readInt16BE(at);
  at += 2;
  const params: (string | null)[] = [];
  for (let i = 0; i < count; i++) {
    const length = body.readInt32BE(at);
    at += 4;
    if (length < 0) {
      params.push(null);
      continue;
    }
    const binary = (formatCount === 1 ? formats[0] : (formats[i] ?? 0)) === 1;
    const bytes = body.subarray(at, at + length);
    params.push(binary ? `\\x${bytes.toString('hex')}` : bytes.toString('utf8'));
    at += length;
  }
  return params;
}
