import { context, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { DomainError } from '../common/errors';
import { type TracedUnit, type UnitOfWorkTracer } from '../database/transaction-observers';

/** The span of a unit of work lists its statements' names under this attribute. */
export const STATEMENTS_ATTRIBUTE = 'layout.statements';

/**
 * A span per unit of work, the child of its caller's (its request's): its statements are its
 * children (the pg instrumentation's spans, named after the prepared statements), and so are the
 * BEGIN and COMMIT of a transaction it opened. It lists the names of its statements, in the
 * order sent (a start of a group that ran again sends them again), and never their values. A
 * refusal (a rule of the service) leaves the span's status unset, as for any answer the
 * service meant; anything else marks it failed, with the error's class and no message.
 */
export class UnitOfWorkSpans implements UnitOfWorkTracer {
  constructor(private readonly tracer: Tracer) {}

  begin(): TracedUnit {
    const span = this.tracer.startSpan('unit of work', {
      kind: SpanKind.INTERNAL,
      attributes: { 'db.system.name': 'postgresql' },
    });
    const unit = trace.setSpan(context.active(), span);
    const statements: string[] = [];
    return {
      within: (start) => context.with(unit, start),
      noting: (send) => (statement, params) => {
        statements.push(statement.name);
        return send(statement, params);
      },
      end: (error) => {
        span.setAttribute(STATEMENTS_ATTRIBUTE, statements);
        if (error !== undefined) {
          const type = error instanceof Error ? error.constructor.name : typeof error;
          span.setAttribute('error.type', type);
          if (!(error instanceof DomainError)) span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
      },
    };
  }
}
