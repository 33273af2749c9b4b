import { type Prisma } from '../../generated/prisma/client';

/** A Prisma client bound to one interactive transaction; never leaves the repositories. */
export type Tx = Prisma.TransactionClient;
