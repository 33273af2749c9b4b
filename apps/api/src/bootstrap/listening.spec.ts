import { createServer } from 'node:net';
import { StartupError } from '../config/startup-error';
import { assertCanListen, whyNotListening } from './listening';

describe('assertCanListen', () => {
  it('refuses a port another program listens on, saying to set PORT', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    try {
      const refused = await assertCanListen('127.0.0.1', port).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(StartupError);
      expect((refused as Error).message).toBe(
        `Port ${port} on 127.0.0.1 is in use by another program: stop that program, or set PORT to a free port.`,
      );
    } finally {
      holder.close();
    }
    // Free again: nothing to say.
    await expect(assertCanListen('127.0.0.1', port)).resolves.toBeUndefined();
  });

  it('names the settings of the listener it was asked about', () => {
    const metrics = { host: 'METRICS_HOST', port: 'METRICS_PORT' };
    expect(
      whyNotListening(Object.assign(new Error('x'), { code: 'EADDRINUSE' }), 'h', 9464, metrics),
    ).toEqual(
      new StartupError(
        'Port 9464 on h is in use by another program: stop that program, or set METRICS_PORT to a free port.',
      ),
    );
    expect(
      whyNotListening(Object.assign(new Error('x'), { code: 'EADDRNOTAVAIL' }), 'h', 9464, metrics),
    ).toEqual(
      new StartupError(
        'METRICS_HOST h is no address of this machine: set METRICS_HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for all).',
      ),
    );
  });

  it('leaves an error it has no advice for as it is', () => {
    const odd = Object.assign(new Error('odd'), { code: 'EODD' });
    expect(whyNotListening(odd, '127.0.0.1', 3000)).toBe(odd);
    expect(whyNotListening(Object.assign(new Error('x'), { code: 'EACCES' }), 'h', 80)).toEqual(
      new StartupError(
        'Port 80 on h needs privileges this process does not have: set PORT to a port above 1023.',
      ),
    );
  });
});
