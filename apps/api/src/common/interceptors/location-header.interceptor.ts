import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';

/** Adds `Location: <collection path>/<_id>` to the 201 answer of a create. */
@Injectable()
export class LocationHeaderInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    return next.handle().pipe(
      map((created: unknown) => {
        const id = (created as { _id?: unknown } | null)?._id;
        if (typeof id === 'string') {
          const collection = request.url.split('?')[0].replace(/\/+$/, '');
          void reply.header('location', `${collection}/${encodeURIComponent(id)}`);
        }
        return created;
      }),
    );
  }
}
