import { type DynamicModule, Global, Module } from '@nestjs/common';
import { UNIT_OF_WORK_TRACER } from '../database/transaction-observers';
import { type Tracing } from './tracing';

/** The units of work's spans for Database, when tracing was started (main.ts); else nothing. */
@Global()
@Module({})
export class TracingModule {
  static forRoot(tracing: Tracing | undefined): DynamicModule {
    if (tracing === undefined) return { module: TracingModule };
    return {
      module: TracingModule,
      providers: [{ provide: UNIT_OF_WORK_TRACER, useValue: tracing.units }],
      exports: [UNIT_OF_WORK_TRACER],
    };
  }
}
