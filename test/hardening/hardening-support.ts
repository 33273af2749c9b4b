import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../apps/api/src/bootstrap/create-app';
import { loadConfig } from '../../apps/api/src/config/load-config';

export interface StartOptions {
  /** Collects the JSON log lines; none are written otherwise. */
  logLines?: string[];
  /** `::` listens on IPv6 and IPv4 both, so that tests can call from two addresses. */
  host?: string;
}

/**
 * Like startTestApp, with the hardening knobs the shared harness does not offer: captured log
 * output and the interface to listen on. `env` is the whole configuration besides the database.
 */
export async function startHardenedApp(
  env: Record<string, string>,
  { logLines, host = '127.0.0.1' }: StartOptions = {},
): Promise<NestFastifyApplication> {
  const url = process.env.LAYOUT_TEST_DATABASE_URL;
  if (!url) throw new Error('LAYOUT_TEST_DATABASE_URL is not set: run through the e2e project');
  const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', ...env });
  const app = await createApp(
    config,
    logLines ? { logDestination: { write: (line: string) => void logLines.push(line) } } : false,
  );
  await app.listen({ port: 0, host });
  return app;
}

export function portOf(app: NestFastifyApplication): number {
  const address = app.getHttpServer().address();
  if (!address || typeof address === 'string') throw new Error('the app is not listening');
  return address.port;
}

export const PASSWORD = 'correct horse battery staple';

/**
 * A TCP relay to a server (Redis here) that a test can cut, as a network outage would: `cut`
 * stops accepting and drops every open connection.
 */
export async function startRelay(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    port: address.port,
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** A loopback port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
