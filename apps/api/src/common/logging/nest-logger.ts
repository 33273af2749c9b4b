import { type LoggerService } from '@nestjs/common';
import { type Level, type Logger } from 'pino';
import { StartupError } from '../../config/startup-error';

/**
 * Nest's LoggerService over pino, so that Nest's own lines and every `new Logger(context)` of
 * the application come out as the same JSON lines. Nest passes the context as the last string
 * argument, and a stack trace before it on errors.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]) {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]) {
    // Nest reports whatever fails its bootstrap, stack and all; a start refused for a reason the
    // person starting it must fix is said by main.ts instead, in its one sentence.
    if (message instanceof StartupError) return;
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]) {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]) {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]) {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]) {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]) {
    if (!this.logger.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    const rest = [...params];
    if (rest.length > 0 && typeof rest[rest.length - 1] === 'string') {
      fields.context = rest.pop();
    }
    const details: unknown[] = [];
    for (const param of rest) {
      if (param instanceof Error) fields.err = param;
      else if (typeof param === 'string' && /\n\s+at /.test(param)) fields.stack = param;
      else if (param !== undefined) details.push(param);
    }
    if (details.length > 0) fields.details = details;
    if (message instanceof Error) {
      fields.err = message;
      this.logger[level](fields, message.message);
    } else if (typeof message === 'string') {
      this.logger[level](fields, message);
    } else {
      this.logger[level]({ ...fields, details: [message, ...details] });
    }
  }
}
