import { jest } from '@jest/globals';
import { type ProjectRole } from '@layout/contracts';
import { type Database } from '../database/database';
import {
  type DatabaseNotifications,
  type NotificationListener,
} from '../notifications/notifications';
import {
  MEMBERSHIPS_CHANNEL,
  MEMBERSHIPS_HEARD_CHANNEL,
  membershipNotice,
  membershipPayload,
} from './membership-notices';
import { type MembersRepository } from './members.repository';
import { ProjectRoles } from './project-roles';

/** Notifications that deliver what the test says, and record what this instance sends. */
function notifications() {
  const listeners = new Map<string, NotificationListener>();
  const sent: [string, string][] = [];
  let listening = true;
  const fake = {
    subscribe: (channel: string, listener: NotificationListener) => {
      listeners.set(channel, listener);
      return () => listeners.delete(channel);
    },
    isListening: () => listening,
    send: (channel: string, payload: string) => {
      sent.push([channel, payload]);
      return Promise.resolve(true);
    },
  };
  return {
    fake: fake as unknown as DatabaseNotifications,
    deliver: (channel: string, payload: string) => listeners.get(channel)?.message(payload),
    restart: () => listeners.get(MEMBERSHIPS_CHANNEL)?.listening?.(),
    stopListening: () => (listening = false),
    sent,
  };
}

describe('ProjectRoles', () => {
  let role: ProjectRole | undefined;
  let roleOf: jest.Mock<() => Promise<ProjectRole | undefined>>;
  let bus: ReturnType<typeof notifications>;
  let roles: ProjectRoles;

  beforeEach(() => {
    role = 'editor';
    roleOf = jest.fn(() => Promise.resolve(role));
    bus = notifications();
    roles = new ProjectRoles({} as Database, { roleOf } as unknown as MembersRepository, bus.fake);
    roles.onModuleInit();
  });

  it('looks a role up once, and again once a notice names the membership, which it confirms', async () => {
    expect(await roles.of('a1', 'p1')).toBe('editor');
    expect(await roles.of('a1', 'p1')).toBe('editor');
    expect(roleOf).toHaveBeenCalledTimes(1);
    role = 'viewer';
    const notice = membershipNotice('changed', 'p1', ['a1']);
    bus.deliver(MEMBERSHIPS_CHANNEL, membershipPayload(notice));
    expect(bus.sent).toEqual([[MEMBERSHIPS_HEARD_CHANNEL, notice.nonce]]);
    expect(await roles.of('a1', 'p1')).toBe('viewer');
    expect(roleOf).toHaveBeenCalledTimes(2);
  });

  it('keeps the roles of other memberships through a notice, and none of a non-member', async () => {
    await roles.of('a1', 'p1');
    await roles.of('a2', 'p1');
    bus.deliver(MEMBERSHIPS_CHANNEL, membershipPayload(membershipNotice('removed', 'p1', ['a2'])));
    await roles.of('a1', 'p1');
    expect(roleOf).toHaveBeenCalledTimes(2);
    role = undefined;
    expect(await roles.of('a3', 'p1')).toBeUndefined();
    expect(await roles.of('a3', 'p1')).toBeUndefined();
    expect(roleOf).toHaveBeenCalledTimes(4);
  });

  it('drops everything on a notice it cannot read, or when listening starts again, and keeps nothing while deaf', async () => {
    await roles.of('a1', 'p1');
    bus.deliver(MEMBERSHIPS_CHANNEL, 'something new');
    await roles.of('a1', 'p1');
    bus.restart();
    await roles.of('a1', 'p1');
    expect(roleOf).toHaveBeenCalledTimes(3);
    bus.stopListening();
    await roles.of('a1', 'p1');
    await roles.of('a1', 'p1');
    expect(roleOf).toHaveBeenCalledTimes(5);
  });
});
