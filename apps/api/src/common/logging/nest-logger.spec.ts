import { type Logger, pino } from 'pino';
import { StartupError } from '../../config/startup-error';
import { PinoNestLogger } from './nest-logger';

function capture(level = 'trace'): {
  logger: PinoNestLogger;
  lines: () => Record<string, unknown>[];
} {
  const written: string[] = [];
  const root: Logger = pino({ level }, { write: (line: string) => void written.push(line) });
  return {
    logger: new PinoNestLogger(root),
    lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('PinoNestLogger', () => {
  it('maps Nest’s levels to pino’s and the last string argument to the context', () => {
    const { logger, lines } = capture();
    logger.log('Mapped {/projects, GET} route', 'RouterExplorer');
    logger.warn('careful');
    logger.debug('details', 'Database');
    logger.verbose('chatter', 'Database');
    logger.fatal('gone', 'Main');
    expect(lines()).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'Mapped {/projects, GET} route',
        context: 'RouterExplorer',
      }),
      expect.objectContaining({ level: 40, msg: 'careful' }),
      expect.objectContaining({ level: 20, msg: 'details', context: 'Database' }),
      expect.objectContaining({ level: 10, msg: 'chatter', context: 'Database' }),
      expect.objectContaining({ level: 60, msg: 'gone', context: 'Main' }),
    ]);
    expect(lines()[1]).not.toHaveProperty('context');
  });

  it('keeps the stack trace of an error apart from the context', () => {
    const { logger, lines } = capture();
    const error = new Error('boom');
    logger.error('Unexpected error on GET /projects', error.stack, 'Errors');
    logger.error(error, 'Errors');
    const [withStack, withError] = lines();
    expect(withStack).toMatchObject({ level: 50, context: 'Errors', stack: error.stack });
    expect(withError).toMatchObject({ level: 50, context: 'Errors', msg: 'boom' });
    expect(withError.err).toMatchObject({ message: 'boom', type: 'Error' });
  });

  it('writes objects as details', () => {
    const { logger, lines } = capture();
    logger.log({ event: 'started' }, 'Main');
    expect(lines()[0]).toMatchObject({ context: 'Main', details: [{ event: 'started' }] });
  });

  it('writes nothing below the configured level', () => {
    const { logger, lines } = capture('warn');
    logger.log('hidden');
    logger.debug('hidden');
    logger.warn('shown');
    expect(lines()).toEqual([expect.objectContaining({ msg: 'shown' })]);
  });

  it('leaves a refused start to main.ts, and writes every other error', () => {
    const { logger, lines } = capture();
    logger.error(new StartupError('Port 3000 is in use: set PORT'), 'ExceptionHandler');
    logger.error(new Error('a defect'), 'ExceptionHandler');
    expect(lines()).toEqual([
      expect.objectContaining({ level: 50, msg: 'a defect', context: 'ExceptionHandler' }),
    ]);
  });
});
