import { Inject, Injectable } from '@nestjs/common';
import {
  type AddMemberDto,
  type MemberResponse,
  MEMBERS_PER_PROJECT_MAX,
  PROJECTS_PER_ACCOUNT_MAX,
  type ProjectRole,
  usernameKey,
} from '@layout/contracts';
import { LimitExceededError, ResourceNotFoundError } from '../common/errors';
import {
  AccountNotFoundError,
  AlreadyAMemberError,
  ForbiddenByRoleError,
  OwnerMustRemainError,
} from './errors';
import { digestTag } from '../common/http/entity-tags';
import { type RequestConditions } from '../common/http/request-conditions';
import { Representation } from '../common/http/representation';
import { SerializedJson } from '../common/json/serialized-json';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { type Round, type Step } from '../database/unit-of-work';
import { type ProjectScope } from './project-scope';
import { type MembershipChange, membershipNotice } from './membership-notices';
import { type MembershipState, MembersRepository } from './members.repository';
import { ProjectRoles } from './project-roles';

/**
 * What a change of membership answers, and how many instances heard the notice its commit
 * sent (none when it changed nothing that an instance keeps).
 */
interface Changed<T> {
  readonly answer: T;
  readonly told?: number;
}

/** Sends, with the change's transaction, the notice of `change` of `accountIds`' memberships. */
type Tell = (round: Round, change: MembershipChange, accountIds: string[]) => () => number;

/**
 * A project's members: who they are, adding one by username, changing a role (handing the
 * project over included), removing one or leaving. The routes' policy lets in who may call each
 * (members/policy); the rules here are those a least role cannot say, checked again behind the
 * project's lock with what it finds (the owner cannot leave; only the owner removes another).
 * A change that ends a membership or changes a role answers once every instance has heard of
 * it, so that from then on none lets the account do what it no longer may.
 */
@Injectable()
export class MembersService {
  private readonly timeoutMs: number;

  constructor(
    private readonly db: Database,
    private readonly members: MembersRepository,
    private readonly roles: ProjectRoles,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.timeoutMs = config.database.timeoutMs;
  }

  async list(
    scope: ProjectScope,
    conditions: RequestConditions,
  ): Promise<Representation<MemberResponse[]>> {
    const json = (await this.members.list(this.db, scope)) ?? notFound('Project');
    const etag = digestTag('m', json);
    if (conditions.isNotModified(etag)) return Representation.notModified(etag);
    return Representation.of(new SerializedJson<MemberResponse[]>(json), { etag });
  }

  /** Adds the account `body.username` names, as `body.role`. */
  async add(scope: ProjectScope, body: AddMemberDto): Promise<Representation<MemberResponse>> {
    const target = { usernameKey: usernameKey(body.username) };
    const { answer } = await this.change(scope, target, (state, round) => {
      assertOwner(state, 'add members');
      const targetId = state.targetId ?? accountNotFound();
      if (state.targetRole !== undefined) throw new AlreadyAMemberError();
      if (state.members >= MEMBERS_PER_PROJECT_MAX) {
        throw new LimitExceededError(
          MEMBERS_PER_PROJECT_MAX,
          `A project has at most ${MEMBERS_PER_PROJECT_MAX} members`,
        );
      }
      const added = this.members.add(round, { ...scope, targetId, role: body.role });
      return round.finish(() => ({ answer: { json: added.get(), targetId } }));
    });
    return Representation.of(new SerializedJson<MemberResponse>(answer.json), {
      location: `/projects/${scope.projectId}/members/${answer.targetId}`,
    });
  }

  /**
   * Gives the member `targetId` the role `role`. `owner` hands the project over: the member
   * becomes its owner and the caller an editor, in one transaction. The owner cannot give up its
   * role otherwise.
   */
  async changeRole(
    scope: ProjectScope,
    targetId: string,
    role: ProjectRole,
  ): Promise<Representation<MemberResponse>> {
    const { answer } = await this.change(scope, { targetId }, (state, round, tell) => {
      assertOwner(state, "change members' roles");
      const current = state.targetRole ?? memberNotFound();
      const member = { projectId: scope.projectId, targetId };
      if (current === role) {
        const same = this.members.member(round, member);
        return round.finish(() => ({ answer: same.get() }));
      }
      if (targetId === scope.accountId) {
        throw new OwnerMustRemainError(
          'The owner keeps its role until it hands the project over: give another member the role owner',
        );
      }
      if (role === 'owner') {
        const handed = this.members.handOver(round, scope, targetId);
        const told = tell(round, 'changed', [targetId, scope.accountId]);
        return round.finish(() => {
          const { json, projects } = handed.get();
          if (projects > PROJECTS_PER_ACCOUNT_MAX) {
            throw new LimitExceededError(
              PROJECTS_PER_ACCOUNT_MAX,
              `An account owns at most ${PROJECTS_PER_ACCOUNT_MAX} projects`,
            );
          }
          return { answer: json, told: told() };
        });
      }
      const changed = this.members.setRole(round, { ...member, role });
      const told = tell(round, 'changed', [targetId]);
      return round.finish(() => ({ answer: changed.get(), told: told() }));
    });
    return Representation.of(new SerializedJson<MemberResponse>(answer), {});
  }

  /** Ends the membership of `targetId`: the caller's own (leaving), or the owner removing one. */
  async remove(scope: ProjectScope, targetId: string): Promise<void> {
    await this.change(scope, { targetId }, (state, round, tell) => {
      const callerRole = state.callerRole ?? notFound('Project');
      const leaving = targetId === scope.accountId;
      if (leaving && callerRole === 'owner') throw new OwnerMustRemainError();
      if (!leaving && callerRole !== 'owner') {
        throw new ForbiddenByRoleError(callerRole, 'owner', 'remove another member');
      }
      if (state.targetRole === undefined) memberNotFound();
      this.members.remove(round, { projectId: scope.projectId, targetId });
      const told = tell(round, 'removed', [targetId]);
      return round.finish(() => ({ answer: undefined, told: told() }));
    });
  }

  /**
   * One change of membership: the project locked and what `decide` needs read behind the lock,
   * then its statements; once committed, the instances that heard its notice waited for (whose
   * answers are expected from before the transaction: they may come before its commit is
   * acknowledged).
   */
  private async change<T>(
    scope: ProjectScope,
    target: { targetId: string } | { usernameKey: string },
    decide: (state: MembershipState, round: Round, tell: Tell) => Step<Changed<T>>,
  ): Promise<Changed<T>> {
    let notice = membershipNotice('changed', scope.projectId, []);
    const arrival = this.roles.expect(notice);
    const tell: Tell = (round, change, accountIds) => {
      notice = { ...notice, change, accountIds };
      const instances = this.members.tell(round, notice);
      return () => instances.get();
    };
    try {
      const changed = await this.db.transaction((round) => {
        const state = this.members.lockAndRead(round, scope, target);
        return round.next((next) => decide(state.get(), next, tell));
      });
      if (changed.told !== undefined) await arrival.wait(changed.told, this.timeoutMs);
      return changed;
    } finally {
      arrival.cancel();
    }
  }
}

/** Only the owner may change others' memberships; the lock's read says whether the caller is. */
function assertOwner(state: MembershipState, what: string): void {
  const role = state.callerRole ?? notFound('Project');
  if (role !== 'owner') throw new ForbiddenByRoleError(role, 'owner', what);
}

function notFound(what: string): never {
  throw new ResourceNotFoundError(what);
}

function memberNotFound(): never {
  notFound('Member');
}

function accountNotFound(): never {
  throw new AccountNotFoundError();
}
