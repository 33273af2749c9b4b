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
export const READ_ID: SchemaHint = { type: 'string', readOnly: true };
/** A time, as a read shows it. */
export const READ_TIME: SchemaHint = { type: 'string', format: 'date-time', readOnly: true };

/** What a read adds to a node of any level (a project's `role` aside). */
const READ_MEMBERS: Readonly<Record<string, SchemaHint>> = {
  _id: READ_ID,
  createdAt: READ_TIME,
  updatedAt: READ_TIME,
  revision: { type: 'integer', readOnly: true },
};

/**
 * A node of a tree that a create carries: the members a read adds to any node are accepted on
 * it, whichever a read of its own level shows, and dropped (a tree put together from reads of
 * several levels posts as it is).
 */
export function AcceptsReadMembers(): ClassDecorator {
  return (target) => {
    const prototype = (target as unknown as { prototype: object }).prototype;
    for (const [member, schema] of Object.entries(READ_MEMBERS)) {
      ReadMember(schema)(prototype, member);
    }
  };
}
