import { type Prisma } from '../../generated/prisma/client';

/** Style and data objects are validated JSON by the time they reach a repository. */
export const asJson = (value: object): Prisma.InputJsonObject => value;
