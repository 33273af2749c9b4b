import { randomBytes } from 'node:crypto';

/** RFC 9562 UUIDv7 (48-bit millisecond time, then random), like the ids Prisma generates. */
export function uuid7(): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Date.now(), 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Path ids of another shape cannot name anything: the caller answers 404, as the service does. */
export function allUuids(ids: readonly string[]): boolean {
  return ids.every((id) => UUID.test(id));
}
