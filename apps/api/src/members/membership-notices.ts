import { randomUUID } from 'node:crypto';

/**
 * The channel on which every instance hears of memberships that ended or changed role: it
 * drops the roles it keeps of them and, for an ended one, ends the account's streams of the
 * project (members/project-roles.ts, layout/events/change-feed.ts).
 */
export const MEMBERSHIPS_CHANNEL = 'project_memberships';
/** Where every instance says it acted on such a notice (its nonce), for its sender to wait. */
export const MEMBERSHIPS_HEARD_CHANNEL = 'project_memberships_heard';

/** A membership ended (a removal, leaving), or its role changed. */
export type MembershipChange = 'removed' | 'changed';

export interface MembershipNotice {
  readonly change: MembershipChange;
  readonly projectId: string;
  readonly accountIds: readonly string[];
  readonly nonce: string;
}

/** A new notice of `change` of the memberships of `accountIds` in `projectId`. */
export function membershipNotice(
  change: MembershipChange,
  projectId: string,
  accountIds: readonly string[],
): MembershipNotice {
  return { change, projectId, accountIds, nonce: randomUUID() };
}

/** The notice as the changing transaction sends it (`pg_notify(channel, payload)`). */
export function membershipPayload(notice: MembershipNotice): string {
  return [notice.change, notice.projectId, notice.nonce, notice.accountIds.join(',')].join(' ');
}

/** A notice's payload read back; undefined for one this version does not know. */
export function readMembershipNotice(payload: string): MembershipNotice | undefined {
  const [change, projectId, nonce, accounts, ...rest] = payload.split(' ');
  if (change !== 'removed' && change !== 'changed') return undefined;
  if (!projectId || !nonce || !accounts || rest.length > 0) return undefined;
  return { change, projectId, nonce, accountIds: accounts.split(',') };
}

/** Whether `notice` names the membership of `accountId` in `projectId`. */
export function names(notice: MembershipNotice, projectId: string, accountId: string): boolean {
  return notice.projectId === projectId && notice.accountIds.includes(accountId);
}
