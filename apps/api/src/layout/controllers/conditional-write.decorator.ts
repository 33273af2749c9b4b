import { applyDecorators, UseGuards } from '@nestjs/common';
import { IfMatchRequiredGuard } from '../../common/guards/if-match-required.guard';
import { ApiIfMatch } from '../../openapi/decorators';

/** A change that honours `If-Match` (and, with REQUIRE_IF_MATCH, insists on it). */
export const ConditionalWrite = () =>
  applyDecorators(UseGuards(IfMatchRequiredGuard), ApiIfMatch());
