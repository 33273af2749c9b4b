import { Exclude, type TargetMap } from 'class-transformer';

type MemberClass = new () => object;

/**
 * The class class-transformer is told for a member that its transform takes from the source as
 * sent (AsSent, a content's `data`). Told no class, it would first make a deep copy of the member
 * for the transform to throw away; of this class, whose keys are all excluded, it makes an empty
 * instance.
 */
@Exclude()
export class NotCopied {}

/**
 * The nested members each class declares itself, by its constructor. A member's class is named
 * by a function, as the decorators take it: it may be defined after the class that uses it.
 */
const declaredMembers = new Map<unknown, Map<string, () => MemberClass>>();

const mappedClasses = new WeakSet<MemberClass>();

/**
 * The `targetMaps` of CONTRACT_TRANSFORM_OPTIONS: for a class, the class of each of its nested
 * members. class-transformer consults them where a member has no `@Type` (which needs
 * reflect-metadata, see ToInstanceOf) and then builds the member's instances as it goes, element
 * by element for a list. Without them it makes a plain deep copy of the member first, which the
 * member's transform replaces by instances built again from the source: a content was copied
 * once per level above it before it was built.
 *
 * class-transformer matches a map's `target` exactly, without inheritance, so each class gets an
 * entry of its own that includes the members it inherits. Subclasses cannot be known in
 * advance: an entry is added when validateBody or toInstance first builds the class (see
 * mapNestedMembers). Until then the members' transforms build the instances themselves, as
 * before, so the result never depends on what is mapped. The options object is frozen; this list
 * is not.
 */
export const NESTED_MEMBER_TARGET_MAPS: TargetMap[] = [];

/** Records that `key` of the class of `prototype` holds instances of `memberClass`. */
export function declareMemberClass(
  prototype: object,
  key: string | symbol,
  memberClass: () => MemberClass,
): void {
  if (typeof key !== 'string') return;
  const owner = prototype.constructor;
  const members = declaredMembers.get(owner) ?? new Map<string, () => MemberClass>();
  members.set(key, memberClass);
  declaredMembers.set(owner, members);
}

/**
 * Adds the target map of `cls`, and of the classes of its nested members in turn, unless already
 * there. Only called once the classes are all defined, so the member classes resolve.
 */
export function mapNestedMembers(cls: MemberClass): void {
  if (mappedClasses.has(cls)) return;
  mappedClasses.add(cls);
  // No prototype: class-transformer looks every key of the body up here, `toString` included.
  const properties = Object.create(null) as Record<string, MemberClass>;
  for (
    let owner: unknown = cls;
    typeof owner === 'function';
    owner = Object.getPrototypeOf(owner)
  ) {
    for (const [key, memberClass] of declaredMembers.get(owner) ?? []) {
      // A subclass's own declaration of a member wins: its transform is the one applied last.
      properties[key] ??= memberClass();
    }
  }
  const memberClasses = Object.values(properties);
  if (memberClasses.length === 0) return;
  NESTED_MEMBER_TARGET_MAPS.push({ target: cls, properties });
  memberClasses.forEach(mapNestedMembers);
}
