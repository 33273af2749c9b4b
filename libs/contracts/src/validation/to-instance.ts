import { ClassTransformOptions, plainToInstance, Transform } from 'class-transformer';
import { isPlainObject } from './plain-object';

export type Constructor<T extends object> = new () => T;

/**
 * The member as the client sent it. class-transformer hands a transform a copy from which it has
 * already dropped some keys (`__proto__`, `constructor`, ...); reading the source keeps them
 * visible, so that they are reported instead of silently lost.
 */
export function sourceMember(source: unknown, key: string): unknown {
  return isPlainObject(source) && Object.hasOwn(source, key) ? source[key] : undefined;
}

export function toInstance<T extends object>(
  cls: Constructor<T>,
  value: unknown,
  options: ClassTransformOptions,
): unknown {
  return isPlainObject(value) ? plainToInstance(cls, value, options) : value;
}

/**
 * Builds the class instance of an object member, so that its own rules apply. Anything else is
 * left as sent for the member's rules to reject. (class-transformer's @Type is not used: it
 * needs reflect-metadata, which a browser app may not load.)
 */
export function ToInstanceOf<T extends object>(cls: () => Constructor<T>): PropertyDecorator {
  return Transform(
    ({ obj, key, options }: { obj: unknown; key: string; options: ClassTransformOptions }) =>
      toInstance(cls(), sourceMember(obj, key), options),
    { toClassOnly: true },
  );
}

/** Like ToInstanceOf, for each element of a list member. */
export function ToInstancesOf<T extends object>(cls: () => Constructor<T>): PropertyDecorator {
  return Transform(
    ({ obj, key, options }: { obj: unknown; key: string; options: ClassTransformOptions }) => {
      const value = sourceMember(obj, key);
      return Array.isArray(value)
        ? value.map((element: unknown) => toInstance(cls(), element, options))
        : value;
    },
    { toClassOnly: true },
  );
}

/**
 * Keeps a member exactly as sent, for members with dynamic keys that a rule checks itself: the
 * copy class-transformer makes would have dropped reserved keys before the rule could see them.
 */
export function AsSent(): PropertyDecorator {
  return Transform(({ obj, key }: { obj: unknown; key: string }) => sourceMember(obj, key), {
    toClassOnly: true,
  });
}
