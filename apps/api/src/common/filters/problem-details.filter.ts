import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { sendProblem, toProblem } from './problem';

/** The one place where errors become HTTP responses: RFC 9457 application/problem+json. */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(error: unknown, host: ArgumentsHost) {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const problem = toProblem(error, request.url.split('?')[0]);
    if (problem.unexpected !== undefined) {
      this.logger.error(
        `Unexpected error on ${request.method} ${request.routeOptions?.url ?? '?'} (request ${request.id})`,
        problem.unexpected instanceof Error
          ? problem.unexpected.stack
          : JSON.stringify(problem.unexpected),
      );
    }
    if (reply.sent) return;
    sendProblem(reply, problem);
  }
}
