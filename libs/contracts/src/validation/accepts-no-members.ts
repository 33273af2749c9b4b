import { Allow } from 'class-validator';

/**
 * For a class that has no members at all. With forbidUnknownValues, class-validator rejects an
 * instance of a class it holds no rules for; this gives the class one rule under a symbol, which
 * is never an own string key of an instance, so every member a client sends stays unknown.
 */
export function AcceptsNoMembers(): ClassDecorator {
  return (target) => {
    Allow()((target as { prototype: object }).prototype, Symbol('accepts no members'));
  };
}
