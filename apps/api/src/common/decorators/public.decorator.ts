import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'layout:isPublic';

/** Opens a route to callers without a bearer token; every other route requires one. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
