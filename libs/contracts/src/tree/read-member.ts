import { Transform } from 'class-transformer';
import { Allow } from 'class-validator';
import { recordSchemaHint, type SchemaHint } from '../validation/schema-hints';

/**
 * A member that a read adds to a node (`_id`, `createdAt`, `updatedAt`, `revision`, `role`):
 * accepted in a create's body, at any depth, and dropped, so that a document read back and
 * posted makes a copy with new ids.
 */
export function ReadMember(schema: SchemaHint): PropertyDecorator {
  const allow = Allow();
  const drop = Transform(() => undefined, { toClassOnly: true });
  return (target, member) => {
    allow(target, member);
    drop(target, member);
    recordSchemaHint(target, member, schema);
  };
}

/** An id, as a read shows it. */
export const READ_ID: SchemaHint = { type: 'string' };
/** A time, as a read shows it. */
export const READ_TIME: SchemaHint = { type: 'string', format: 'date-time' };
