import { Body, Controller, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PresenceResponse, SetPresenceDto } from '@layout/contracts';
import { type AuthenticatedAccount } from '../../common/auth/authenticated-account';
import { CurrentAccount } from '../../common/decorators/current-account.decorator';
import { Conditions, type RequestConditions } from '../../common/http/request-conditions';
import { type Representation } from '../../common/http/representation';
import { PRESENCE_EXAMPLE } from './layout.examples';
import {
  ApiNoContentResponse,
  ApiProblems,
  ApiProtected,
  ApiTaggedRead,
  BODY_PROBLEMS,
} from '../../openapi/decorators';
import { ProjectPath } from '../params/layout-paths.params';
import { PresenceService } from '../services/presence.service';

@ApiTags('presence')
@ApiProtected()
@Controller('projects/:projectId/presence')
export class PresenceController {
  constructor(private readonly presence: PresenceService) {}

  @Get()
  @ApiOperation({
    summary: 'Who has the project open, and where',
    description:
      'Every account present in the project, once, ordered by `since`: an account is present ' +
      'while it has an event stream of the project open (`GET /projects/<p>/events`), on any ' +
      'instance, with where it said it is (`location`, `null` until said or once its node was ' +
      'deleted or moved away) and what it does (`viewing` or `editing`). The same as the ' +
      '`data` of the stream’s `event: presence`. Presence is kept outside the history: it ' +
      'changes no revision and no tag; a dead instance’s accounts are gone within 30 s.',
  })
  @ApiTaggedRead(PresenceResponse, PRESENCE_EXAMPLE, 'Who is present.')
  @ApiProblems('notFound')
  read(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<PresenceResponse>> {
    return this.presence.read({ accountId: account.id, ...path }, conditions);
  }

  @Put()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Say where you are in the project',
    description:
      '`location`: the path of the project or of a block, row, column or content in it (400 ' +
      'for any other), or `null`; `state`: `viewing`, or `editing` (an editor or the owner: a ' +
      'viewer gets 403). Members left out keep their value. Every stream of the project, on ' +
      'every instance, receives the new presence within a second. It lasts while the caller ' +
      'has a stream of the project open (say it once the stream is open; it is kept a few ' +
      'seconds for one about to open).',
  })
  @ApiNoContentResponse('Said; no body.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'forbiddenByRole')
  async set(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: ProjectPath,
    @Body() body: SetPresenceDto,
  ): Promise<void> {
    await this.presence.set({ accountId: account.id, ...path }, body);
  }
}
