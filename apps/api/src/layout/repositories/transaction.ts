import { type SqlRunner } from '../../database/sql-runner';
import { type Prisma } from '../../generated/prisma/client';

/** A Prisma client bound to one interactive transaction; never leaves the repositories. */
export type Tx = Prisma.TransactionClient;

/** Hand-written statements inside a Prisma interactive transaction. */
export const sqlIn = (tx: Tx): SqlRunner => ({
  rows: <T>(statement: Prisma.Sql) => tx.$queryRaw<T[]>(statement),
});
