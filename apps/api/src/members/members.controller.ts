import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AddMemberDto, ChangeMemberRoleDto, MemberResponse } from '@layout/contracts';
import { type AuthenticatedAccount } from '../common/auth/authenticated-account';
import { CurrentAccount } from '../common/decorators/current-account.decorator';
import { Conditions, type RequestConditions } from '../common/http/request-conditions';
import { type Representation } from '../common/http/representation';
import { MEMBER_EXAMPLES } from './members.examples';
import {
  ApiCreatedJsonResponse,
  ApiNoContentResponse,
  ApiOkJsonResponse,
  ApiProblems,
  ApiProtected,
  ApiTaggedRead,
  BODY_PROBLEMS,
} from '../openapi/decorators';
import { MemberPath, MembersPath } from './member-path.params';
import { MembersService } from './members.service';

const EDITOR = MEMBER_EXAMPLES[1];

@ApiTags('members')
@ApiProtected()
@Controller('projects/:projectId/members')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @Get()
  @ApiOperation({
    summary: "List a project's members",
    description:
      'Every member with its account, its role and when it was added: the owner first, then ' +
      'by the time they were added. A project has at most 100 members.',
  })
  @ApiTaggedRead([MemberResponse], MEMBER_EXAMPLES, 'The members.')
  @ApiProblems('notFound')
  list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: MembersPath,
    @Conditions() conditions: RequestConditions,
  ): Promise<Representation<MemberResponse[]>> {
    return this.members.list({ accountId: account.id, ...path }, conditions);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Add a member',
    description:
      'Adds the account with `username` (compared regardless of case) as an `editor` or a ' +
      '`viewer`. An unknown username answers 404 `/problems/account-not-found`, a member 409 ' +
      '`/problems/already-a-member`; a project has at most 100 members (409 ' +
      '`/problems/limit-exceeded`). The project, its revision and its tags do not change.',
  })
  @ApiCreatedJsonResponse(MemberResponse, EDITOR, 'The new member.', { tagged: false })
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'accountNotFound', 'alreadyAMember', 'limitExceeded')
  add(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: MembersPath,
    @Body() body: AddMemberDto,
  ): Promise<Representation<MemberResponse>> {
    return this.members.add({ accountId: account.id, ...path }, body);
  }

  @Put(':accountId')
  @ApiOperation({
    summary: "Change a member's role",
    description:
      'Gives the member the role `role`, at once on every instance: a member made `viewer` ' +
      'cannot write from its next request on (and its presence says `viewing`). `owner` hands ' +
      'the project over: the member becomes its owner and the owner an `editor`, in one ' +
      'transaction (the project then counts among the new owner’s 10 000). The owner keeps its ' +
      'own role until it hands the project over (409 `/problems/owner-must-remain`).',
  })
  @ApiOkJsonResponse(MemberResponse, { ...EDITOR, role: 'viewer' }, 'The member, with its role.')
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'ownerMustRemain', 'limitExceeded')
  changeRole(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: MemberPath,
    @Body() body: ChangeMemberRoleDto,
  ): Promise<Representation<MemberResponse>> {
    const { accountId, ...project } = path;
    return this.members.changeRole({ accountId: account.id, ...project }, accountId, body.role);
  }

  @Delete(':accountId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove a member, or leave',
    description:
      'Ends the membership of the account: any member may remove itself (leave); only the owner ' +
      'removes another (403 `/problems/forbidden-by-role` for the rest), and the owner cannot ' +
      'leave (409 `/problems/owner-must-remain`: hand the project over first). From the answer ' +
      'on, on every instance, the project does not exist for that account (404) and its event ' +
      'streams of it have ended.',
  })
  @ApiNoContentResponse('Removed; no body.')
  @ApiProblems('notFound', 'forbiddenByRole', 'ownerMustRemain')
  async remove(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: MemberPath,
  ): Promise<void> {
    const { accountId, ...project } = path;
    await this.members.remove({ accountId: account.id, ...project }, accountId);
  }
}
