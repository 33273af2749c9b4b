import { type DestinationStream, type Logger, pino } from 'pino';
import { type LogLevel } from '../../config/app-config';
import { currentRequest } from './request-context';

/**
 * Never written, wherever they appear in a logged object: credentials, tokens, headers that carry
 * them, and bodies (sign-up and token bodies hold passwords; no body is logged on purpose).
 */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers.cookie',
  'body',
  '*.body',
];

/**
 * The process's JSON logger: one line per event, ISO time, level as a word, and the request id
 * (plus the account, once known) of the request being served.
 */
export function createRootLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin: () => {
        const request = currentRequest();
        return request ? { requestId: request.id, accountId: request.user?.id } : {};
      },
    },
    destination,
  );
}
