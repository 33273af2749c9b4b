import { ClassTransformOptions, plainToInstance, Transform } from 'class-transformer';
import { declareMemberClass, mapNestedMembers, NotCopied } from './nested-members';
import { isPlainObject } from './plain-object';

export type Constructor<T extends object> = new () => T;

interface TransformParams {
  value: unknown;
  obj: unknown;
  key: string;
  options: ClassTransformOptions;
}

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
  if (!isPlainObject(value)) return value;
  mapNestedMembers(cls);
  return plainToInstance(cls, value, options);
}

/**
 * What a sent object member (or list element) becomes: the instance class-transformer built
 * from the target maps (see NESTED_MEMBER_TARGET_MAPS) when it did, else one built here, for
 * options without the maps or a class not mapped yet. Anything but an object stays as sent, for
 * the member's rules to reject: class-transformer would have copied an array, for one.
 */
function instanceFor<T extends object>(
  cls: Constructor<T>,
  sent: unknown,
  built: unknown,
  options: ClassTransformOptions,
): unknown {
  if (!isPlainObject(sent)) return sent;
  return built instanceof cls ? built : toInstance(cls, sent, options);
}

/**
 * Builds the class instance of an object member, so that its own rules apply. Anything else is
 * left as sent for the member's rules to reject. (class-transformer's @Type is not used: it
 * needs reflect-metadata, which a browser app may not load.)
 */
export function ToInstanceOf<T extends object>(cls: () => Constructor<T>): PropertyDecorator {
  const transform = Transform(
    ({ value, obj, key, options }: TransformParams) =>
      instanceFor(cls(), sourceMember(obj, key), value, options),
    { toClassOnly: true },
  );
  return (target, key) => {
    declareMemberClass(target, key, cls);
    transform(target, key);
  };
}

/** Like ToInstanceOf, for each element of a list member. */
export function ToInstancesOf<T extends object>(cls: () => Constructor<T>): PropertyDecorator {
  const transform = Transform(
    ({ value, obj, key, options }: TransformParams) => {
      const sent = sourceMember(obj, key);
      if (!Array.isArray(sent)) return sent;
      const elementClass = cls();
      // class-transformer built `value` for this member alone, one element per element sent
      // (unless the list has holes, which it skips): it is completed in place, not copied.
      if (!Array.isArray(value) || value.length !== sent.length) {
        return sent.map((element: unknown) =>
          instanceFor(elementClass, element, undefined, options),
        );
      }
      const built: unknown[] = value;
      sent.forEach((element: unknown, index) => {
        built[index] = instanceFor(elementClass, element, built[index], options);
      });
      return built;
    },
    { toClassOnly: true },
  );
  return (target, key) => {
    declareMemberClass(target, key, cls);
    transform(target, key);
  };
}

/**
 * Keeps a member exactly as sent, for members with dynamic keys that a rule checks itself: the
 * copy class-transformer makes would have dropped reserved keys before the rule could see them.
 */
export function AsSent(): PropertyDecorator {
  const transform = Transform(({ obj, key }: TransformParams) => sourceMember(obj, key), {
    toClassOnly: true,
  });
  return (target, key) => {
    declareMemberClass(target, key, () => NotCopied);
    transform(target, key);
  };
}
