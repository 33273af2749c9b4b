import { type Prisma } from '../generated/prisma/client';

/**
 * Runs hand-written statements (built with Prisma.sql, so every value is a bound parameter) and
 * answers their rows as node-postgres parses them. The repositories' documents, locks and hot
 * writes take one, so that the same SQL runs on the pool or inside either kind of transaction.
 */
export interface SqlRunner {
  rows<T>(statement: Prisma.Sql): Promise<T[]>;
}
