import { hash } from 'node:crypto';
import { PAGE_CURSOR_DETAIL, PAGE_CURSOR_MAX_LENGTH } from '@layout/contracts';
import { RequestValidationError } from '../common/errors';

/**
 * Where a page of `GET /projects` starts: right after the project with this sort key (the
 * list's order is creation time, then id).
 */
export interface ProjectListKey {
  /** `created_at` as PostgreSQL renders it to the microsecond, in UTC: `2026-11-22T10:15:30.123000Z`. */
  readonly createdAt: string;
  /** The project's id (a UUID, lower case). */
  readonly id: string;
}

// The cursor is base64url (no padding) of `{"t":createdAt,"i":id,"k":check}`. The check binds the
// key to the account the page was given to: a cursor of another account's list, or one with a
// changed byte, is refused. There is no server secret to sign with, so a client that knows the
// scheme could forge a cursor for its own list; all it gets is its own projects from a point of
// its choosing, which it may read anyway. The values are checked so that PostgreSQL always
// accepts them.
const CREATED_AT = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CHECK_LENGTH = 22; // 132 bits of SHA-256, base64url

function checkOf(accountId: string, key: ProjectListKey): string {
  return hash('sha256', `projects\n${accountId}\n${key.createdAt}\n${key.id}`, 'base64url').slice(
    0,
    CHECK_LENGTH,
  );
}

/** A valid, canonical time: a real calendar date from 1970 on (what the column can hold). */
function isCreatedAt(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = CREATED_AT.exec(value);
  if (!match || Number(match[1]) < 1970) return false;
  const millis = `${value.slice(0, 23)}Z`;
  const time = new Date(millis);
  return !Number.isNaN(time.getTime()) && time.toISOString() === millis;
}

/** The cursor that makes the next page of `accountId`'s list start after `key`. */
export function encodeProjectListCursor(accountId: string, key: ProjectListKey): string {
  const payload = { t: key.createdAt, i: key.id, k: checkOf(accountId, key) };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/**
 * The key a cursor names, or undefined when it is not one this service gave to this account:
 * malformed, changed, or given to another account.
 */
export function decodeProjectListCursor(
  accountId: string,
  cursor: string,
): ProjectListKey | undefined {
  if (cursor.length === 0 || cursor.length > PAGE_CURSOR_MAX_LENGTH) return undefined;
  const bytes = Buffer.from(cursor, 'base64url');
  // Node skips characters outside the alphabet and ignores stray bits: only the canonical
  // encoding of the bytes is the cursor.
  if (bytes.toString('base64url') !== cursor) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const { t, i, k, ...rest } = payload as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || !isCreatedAt(t) || typeof i !== 'string' || !UUID.test(i)) {
    return undefined;
  }
  const key: ProjectListKey = { createdAt: t, id: i };
  return k === checkOf(accountId, key) ? key : undefined;
}

/** As decodeProjectListCursor, but a cursor that names nothing answers 400 at `/cursor`. */
export function projectListKeyOf(accountId: string, cursor: string): ProjectListKey {
  const key = decodeProjectListCursor(accountId, cursor);
  if (key === undefined) {
    throw new RequestValidationError([{ pointer: '/cursor', detail: PAGE_CURSOR_DETAIL }]);
  }
  return key;
}
