/** Request DTOs whose members are all optional, and whose request may carry no body at all. */
const OMITTABLE = new WeakSet<object>();

/**
 * For a body whose members are all optional (a move, a copy): a request without a body means
 * the same as `{}`, as it would to a person reading the operation.
 */
export function BodyMayBeOmitted(): ClassDecorator {
  return (target) => {
    OMITTABLE.add(target);
  };
}

/** Whether a request of `cls` may come without a body (see BodyMayBeOmitted). */
export function bodyMayBeOmitted(cls: object): boolean {
  return OMITTABLE.has(cls);
}
