import { SetPresenceDto } from '../presence/set-presence.dto';
import { validateBody } from '../validation/validate-body';
import { AddMemberDto } from './add-member.dto';
import { ChangeMemberRoleDto } from './change-member-role.dto';
import { hasRole } from './project-role';

const ID = '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87';

describe('the roles', () => {
  it('rank viewer, editor, owner', () => {
    expect(hasRole('owner', 'editor')).toBe(true);
    expect(hasRole('editor', 'editor')).toBe(true);
    expect(hasRole('viewer', 'editor')).toBe(false);
    expect(hasRole('editor', 'owner')).toBe(false);
  });
});

describe('AddMemberDto and ChangeMemberRoleDto', () => {
  it('add an editor or a viewer by username, and change to any role', async () => {
    expect((await validateBody(AddMemberDto, { username: 'grace', role: 'viewer' })).ok).toBe(true);
    expect((await validateBody(ChangeMemberRoleDto, { role: 'owner' })).ok).toBe(true);
  });

  it.each([
    [{ username: 'grace', role: 'owner' }, '/role'],
    [{ username: '', role: 'editor' }, '/username'],
    [{ role: 'editor' }, '/username'],
    [{ username: 'grace', role: 'editor', admin: true }, '/admin'],
  ])('refuses %j at %s', async (body, pointer) => {
    const checked = await validateBody(AddMemberDto, body);
    expect(checked.errors?.map((error) => error.pointer)).toEqual([pointer]);
  });
});

describe('SetPresenceDto', () => {
  it.each([
    {},
    { location: null },
    { location: `/projects/${ID}`, state: 'editing' },
    { location: `/projects/${ID}/blocks/${ID}/rows/${ID}/columns/${ID}/contents/${ID}` },
    { state: 'viewing' },
  ])('accepts %j', async (body) => {
    expect((await validateBody(SetPresenceDto, body)).ok).toBe(true);
  });

  it.each([
    [{ location: '/projects' }, '/location'],
    [{ location: `/projects/${ID}/rows/${ID}` }, '/location'],
    [{ location: `/projects/${ID}/blocks` }, '/location'],
    [{ location: `/projects/${ID.toUpperCase()}` }, '/location'],
    [{ location: 3 }, '/location'],
    [{ state: 'away' }, '/state'],
    [{ state: null }, '/state'],
  ])('refuses %j at %s', async (body, pointer) => {
    const checked = await validateBody(SetPresenceDto, body);
    expect(checked.errors?.map((error) => error.pointer)).toEqual([pointer]);
  });
});
