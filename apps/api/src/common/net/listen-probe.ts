import { createServer } from 'node:net';

/**
 * Why listening on `host`:`port` would fail now (EADDRINUSE, EACCES, EADDRNOTAVAIL, ...), found
 * by listening there for a moment; undefined when it would succeed.
 */
export async function listenError(
  host: string,
  port: number,
): Promise<NodeJS.ErrnoException | undefined> {
  const probe = createServer();
  const error = await new Promise<NodeJS.ErrnoException | undefined>((done) => {
    probe.once('error', done);
    probe.listen({ port, host, exclusive: true }, () => done(undefined));
  });
  if (error === undefined) await new Promise((done) => probe.close(done));
  return error;
}
