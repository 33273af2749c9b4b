import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { BatchDto, BatchResponse } from '@layout/contracts';
import { type AuthenticatedAccount } from '../../common/auth/authenticated-account';
import { ConditionalWrite } from './conditional-write.decorator';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { Conditions, type RequestConditions } from '../../common/http/request-conditions';
import { Idempotency, type IdempotencyRequest } from '../../common/http/idempotency';
import { type Representation } from '../../common/http/representation';
import {
  ApiChangedResponse,
  ApiIdempotencyKey,
  ApiProblems,
  ApiProtected,
  BODY_PROBLEMS,
} from '../../openapi/decorators';
import { ProjectPath } from '../params/layout-paths.params';
import { BatchService } from '../services/batch.service';
import { BATCH_EXAMPLE } from './batch.examples';

@ApiTags('projects')
@ApiProtected()
@Controller('projects/:projectId/batch')
export class BatchController {
  constructor(private readonly batches: BatchService) {}

  @Post()
  @HttpCode(200)
  @ConditionalWrite()
  @ApiIdempotencyKey()
  @ApiOperation({
    summary: 'Apply a batch of writes',
    description:
      "Several of this project's writes as one: creates, updates, deletes, moves and copies of " +
      'its nodes (1 to 100, the body at most 1 MiB), in order, each checked as if it were sent ' +
      'alone at its turn (its body, row widths, limits, its own `ifMatch`), in one transaction ' +
      'that makes one revision (`batch` in the history), one change event and one undo step. ' +
      'A create or a copy may name the node it makes with `ref`; later operations use `$<ref>` ' +
      'in place of its id, in their path and in `blockId`, `rowId`, `columnId` and ' +
      '`contents[]._id`. All or nothing: a refused operation changes nothing and the answer is ' +
      'its own problem with `operationIndex`. `If-Match` is compared with the project’s tag. ' +
      'It counts as one request against the budget.',
  })
  @ApiChangedResponse(
    BatchResponse,
    BATCH_EXAMPLE,
    "Each operation's result, in order, and the revision the batch made.",
  )
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'rowWidthExceeded', 'limitExceeded')
  apply(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Body() body: BatchDto,
    @Conditions() conditions: RequestConditions,
    @Idempotency() idempotency: IdempotencyRequest | undefined,
  ): Promise<Representation<BatchResponse>> {
    return this.batches.apply({ accountId: account.id, ...path }, body, conditions, idempotency);
  }
}
