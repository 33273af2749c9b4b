import { RequestValidationError } from '../common/errors';
import {
  decodeProjectListCursor,
  encodeProjectListCursor,
  projectListKeyOf,
} from './project-list-cursor';

const ACCOUNT = '0190a6f0-0000-7000-8000-000000000001';
const KEY = {
  createdAt: '2026-11-22T10:15:30.123000Z',
  id: '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87',
};

const encodeJson = (payload: unknown) =>
  Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
const payloadOf = (cursor: string) =>
  JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, string>;

describe('project list cursor', () => {
  const cursor = encodeProjectListCursor(ACCOUNT, KEY);

  it('is base64url of a small JSON that decodes back to the key, for its account', () => {
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor.length).toBeLessThan(200);
    expect(payloadOf(cursor)).toEqual({ t: KEY.createdAt, i: KEY.id, k: expect.any(String) });
    expect(decodeProjectListCursor(ACCOUNT, cursor)).toEqual(KEY);
    expect(projectListKeyOf(ACCOUNT, cursor)).toEqual(KEY);
  });

  it('is the same for the same key and account, and differs across accounts', () => {
    expect(encodeProjectListCursor(ACCOUNT, { ...KEY })).toBe(cursor);
    const other = encodeProjectListCursor('0190a6f0-0000-7000-8000-000000000002', KEY);
    expect(other).not.toBe(cursor);
    expect(decodeProjectListCursor(ACCOUNT, other)).toBeUndefined();
  });

  it('refuses a changed key (the check no longer matches)', () => {
    const payload = payloadOf(cursor);
    expect(
      decodeProjectListCursor(
        ACCOUNT,
        encodeJson({ ...payload, t: '2026-11-22T10:15:30.124000Z' }),
      ),
    ).toBeUndefined();
    expect(
      decodeProjectListCursor(
        ACCOUNT,
        encodeJson({ ...payload, i: '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a88' }),
      ),
    ).toBeUndefined();
    expect(decodeProjectListCursor(ACCOUNT, encodeJson({ ...payload, k: 'x' }))).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'ab+c/'],
    ['with padding', `${cursor}==`],
    ['a character outside the alphabet', `${cursor.slice(0, 5)}.${cursor.slice(5)}`],
    ['truncated', cursor.slice(0, -3)],
    ['one more character', `${cursor}A`],
    ['not JSON', Buffer.from('hello').toString('base64url')],
    ['JSON but not an object', encodeJson([KEY.createdAt, KEY.id])],
    ['null', encodeJson(null)],
    ['too long', 'A'.repeat(513)],
  ])('refuses a cursor that is %s', (_what, bad) => {
    expect(decodeProjectListCursor(ACCOUNT, bad)).toBeUndefined();
  });

  // Well-formed and correctly checked, but values PostgreSQL would refuse: never a 500.
  it.each([
    ['a 31st of February', { ...KEY, createdAt: '2026-02-31T10:15:30.123000Z' }],
    ['hour 24', { ...KEY, createdAt: '2026-11-22T24:00:00.000000Z' }],
    ['year 0', { ...KEY, createdAt: '0000-01-01T00:00:00.000000Z' }],
    ['milliseconds only', { ...KEY, createdAt: '2026-11-22T10:15:30.123Z' }],
    ['an offset', { ...KEY, createdAt: '2026-11-22T10:15:30.123000+01:00' }],
    ['an id that is no UUID', { ...KEY, id: 'p1' }],
    ['an upper-case id', { ...KEY, id: KEY.id.toUpperCase() }],
  ])('refuses a key with %s, even when its check matches', (_what, key) => {
    expect(decodeProjectListCursor(ACCOUNT, encodeProjectListCursor(ACCOUNT, key))).toBeUndefined();
  });

  it('refuses members beyond the key', () => {
    const payload = payloadOf(cursor);
    expect(decodeProjectListCursor(ACCOUNT, encodeJson({ ...payload, x: 1 }))).toBeUndefined();
  });

  it('answers 400 at /cursor for one it refuses', () => {
    let thrown: unknown;
    try {
      projectListKeyOf(ACCOUNT, 'nonsense');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RequestValidationError);
    expect((thrown as RequestValidationError).errors).toEqual([
      { pointer: '/cursor', detail: "must be the cursor of a previous page's Link header" },
    ]);
  });
});
