import { Module } from '@nestjs/common';
import { MembersController } from './members.controller';
import { MembersRepository } from './members.repository';
import { MembersService } from './members.service';
import { ProjectRoles } from './project-roles';
import { RolePolicyGuard } from './policy/role-policy.guard';

/**
 * A project's members and their roles: the routes that manage them, the roles each operation
 * needs (policy/operation-policy.ts) and the guard that applies them to every route, and the
 * roles each instance keeps, which a change of membership makes every instance drop.
 */
@Module({
  controllers: [MembersController],
  providers: [MembersRepository, MembersService, ProjectRoles, RolePolicyGuard],
  exports: [ProjectRoles, RolePolicyGuard],
})
export class MembersModule {}
