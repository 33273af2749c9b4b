/**
 * An account's reads of one path in many parallel loops, in a process of its own
 * (`startGreedyReads`): the large answers it receives would otherwise share an event loop with
 * the test that measures another account's latency. Each loop sends its next request as soon
 * as its last answer has arrived, on one kept-alive connection. The bodies of 200 answers are
 * only counted, never decoded; the others' (problems) are read.
 *
 * Run as `node --import tsx greedy-reads.ts`, with its order as JSON in GREEDY_READS; prints
 * what it counted as one JSON line when its time is up.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { repoRoot } from './build';

export interface GreedyOrder {
  port: number;
  token: string;
  path: string;
  loops: number;
  durationMs: number;
}

export interface GreedyCounts {
  /** Answers by status. */
  statuses: Record<string, number>;
  /** Lengths of the 200 answers' bodies, each once. */
  okLengths: number[];
  /** The other answers: status, problem type, Retry-After. */
  others: { status: number; type: string; retryAfter: string | undefined }[];
  /** Requests that got no answer. */
  errors: string[];
}

function readOnce(order: GreedyOrder, agent: Agent, counts: GreedyCounts): Promise<void> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: order.port,
        path: order.path,
        headers: { authorization: `Bearer ${order.token}` },
        agent,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let length = 0;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          length += chunk.length;
          if (status !== 200) chunks.push(chunk);
        });
        res.on('error', (error) => {
          counts.errors.push(error.message);
          resolve();
        });
        res.on('end', () => {
          counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
          if (status === 200) {
            if (!counts.okLengths.includes(length)) counts.okLengths.push(length);
          } else {
            counts.others.push({
              status,
              type: typeOf(Buffer.concat(chunks).toString('utf8')),
              retryAfter: res.headers['retry-after'],
            });
          }
          resolve();
        });
      },
    );
    req.on('error', (error) => {
      counts.errors.push(error.message);
      resolve();
    });
    req.end();
  });
}

function typeOf(text: string): string {
  try {
    const type = (JSON.parse(text) as { type?: unknown }).type;
    return typeof type === 'string' ? type : '?';
  } catch {
    return '?';
  }
}

async function main(order: GreedyOrder): Promise<GreedyCounts> {
  const counts: GreedyCounts = { statuses: {}, okLengths: [], others: [], errors: [] };
  const until = Date.now() + order.durationMs;
  await Promise.all(
    Array.from({ length: order.loops }, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        while (Date.now() < until) await readOnce(order, agent, counts);
      } finally {
        agent.destroy();
      }
    }),
  );
  return counts;
}

/** The loops running in a child process. */
export interface GreedyReads {
  /** What they counted, once their time is up. */
  readonly counted: Promise<GreedyCounts>;
  /** Stops them at once (a test that failed meanwhile). */
  stop(): void;
}

/** Starts `order`'s loops in a child process. */
export function startGreedyReads(order: GreedyOrder): GreedyReads {
  const root = repoRoot();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'test', 'resilience', 'support', 'greedy-reads.ts')],
    {
      cwd: root,
      env: { ...process.env, GREEDY_READS: JSON.stringify(order) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const counted = new Promise<GreedyCounts>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const last = output.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(last) as GreedyCounts);
      } catch {
        reject(new Error(`the greedy reads exited (${code ?? signal}) without counts: ${output}`));
      }
    });
  });
  return {
    counted,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

const given = process.env.GREEDY_READS;
if (given !== undefined) {
  void main(JSON.parse(given) as GreedyOrder).then((counts) => {
    process.stdout.write(`${JSON.stringify(counts)}\n`);
  });
}
