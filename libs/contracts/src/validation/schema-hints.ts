// What the rules accept, as JSON Schema, for documentation generators (the service's OpenAPI
// document). class-validator's own metadata cannot carry it: the rules here are custom, one
// sentence each (see rule.ts), so a generator would see only "some custom rule". The hints live
// in a registry of this library rather than in reflect-metadata, which a browser app need not
// load; nothing here affects validation.

import type { Constructor } from './to-instance';

/**
 * A JSON Schema fragment (the subset shared by OpenAPI 3.0 and 3.1) describing the values a
 * member accepts. `model` names another class of this library; a generator turns it into a
 * reference to that class's schema.
 */
export interface SchemaHint {
  readonly type?: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly enum?: readonly (string | number | boolean)[];
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly items?: SchemaHint;
  readonly properties?: Readonly<Record<string, SchemaHint>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | SchemaHint;
  readonly oneOf?: readonly SchemaHint[];
  readonly anyOf?: readonly SchemaHint[];
  readonly description?: string;
  /** The member may be `null` besides what the rest says (OpenAPI 3.0). */
  readonly nullable?: boolean;
  /**
   * A member that reads show and writes ignore (OpenAPI's `readOnly`): the explorer leaves it
   * out of the bodies it proposes.
   */
  readonly readOnly?: boolean;
  readonly model?: () => Constructor<object>;
}

/** An ISO 8601 date-time, as responses render timestamps. */
export const DATE_TIME_SCHEMA: SchemaHint = { type: 'string', format: 'date-time' };

type AnyClass = abstract new (...args: never[]) => object;

const memberHints = new WeakMap<object, Map<string, SchemaHint[]>>();
const classHints = new WeakMap<object, SchemaHint>();

function isUnion(hint: SchemaHint): boolean {
  return hint.oneOf !== undefined || hint.anyOf !== undefined;
}

/**
 * The hints of one member, combined: each narrows what the member accepts, so they are merged,
 * except that a union (`oneOf`/`anyOf`) describes the member whole and replaces the others (the
 * column size is "an integer 1..12 or its string form", not an integer that is also a string).
 */
function combine(hints: readonly SchemaHint[]): SchemaHint {
  const unions = hints.filter(isUnion);
  if (unions.length > 0) {
    return { ...unions[unions.length - 1] };
  }
  return Object.assign({}, ...hints) as SchemaHint;
}

/** Records a hint for one member of a class; decorators call it, through {@link HintSchema}. */
export function recordSchemaHint(target: object, member: string | symbol, hint: SchemaHint): void {
  if (typeof member !== 'string') {
    return;
  }
  const owner = (target as { constructor: object }).constructor;
  let members = memberHints.get(owner);
  if (members === undefined) {
    members = new Map();
    memberHints.set(owner, members);
  }
  members.set(member, [...(members.get(member) ?? []), hint]);
}

/** Declares what a member accepts, for documentation only; validation is unaffected. */
export function HintSchema(hint: SchemaHint): PropertyDecorator {
  return (target, member) => recordSchemaHint(target, member, hint);
}

/**
 * Declares a constraint that spans members of a class (e.g. which `data` goes with which
 * `type`), for documentation only. It applies to subclasses too.
 */
export function HintClassSchema(hint: SchemaHint): ClassDecorator {
  return (target) => {
    classHints.set(target, hint);
  };
}

/**
 * A class whose values come in variants told apart by one member, the discriminator: each
 * variant is the class with the discriminator fixed to one value and the members given here
 * narrowed (a content's `data`, by its `type`). Generators describe the class as a union of one
 * complete schema per variant, with a discriminator (one class per variant in generated clients).
 */
export interface VariantsHint {
  /** The member whose value names the variant. */
  readonly discriminator: string;
  /**
   * By value of the discriminator, what the members that depend on it accept; `null` for a
   * member that the variant does not have.
   */
  readonly variants: Readonly<Record<string, Readonly<Record<string, SchemaHint | null>>>>;
  /** The name of a variant's own schema, from the class's name and the variant's value. */
  readonly variantName: (className: string, value: string) => string;
}

const variantHints = new WeakMap<object, VariantsHint>();

/** Declares that a class comes in variants (see VariantsHint); it applies to subclasses too. */
export function HintVariants(hint: VariantsHint): ClassDecorator {
  return (target) => {
    variantHints.set(target, hint);
  };
}

function lineage(cls: AnyClass): object[] {
  const chain: object[] = [];
  for (
    let current: unknown = cls;
    typeof current === 'function' && current !== Function.prototype;
    current = Object.getPrototypeOf(current)
  ) {
    chain.unshift(current);
  }
  return chain;
}

/** The schema hints of every member of a class, inherited ones included, by member name. */
export function schemaHintsOf(cls: AnyClass): Readonly<Record<string, SchemaHint>> {
  const collected = new Map<string, SchemaHint[]>();
  for (const owner of lineage(cls)) {
    for (const [member, hints] of memberHints.get(owner) ?? []) {
      collected.set(member, [...(collected.get(member) ?? []), ...hints]);
    }
  }
  return Object.fromEntries([...collected].map(([member, hints]) => [member, combine(hints)]));
}

/** The class-wide hint of a class or of its nearest ancestor that has one. */
export function classSchemaHintOf(cls: AnyClass): SchemaHint | undefined {
  return lineage(cls)
    .reverse()
    .map((owner) => classHints.get(owner))
    .find((hint) => hint !== undefined);
}

/** The variants of a class or of its nearest ancestor that declares them. */
export function variantsHintOf(cls: AnyClass): VariantsHint | undefined {
  return lineage(cls)
    .reverse()
    .map((owner) => variantHints.get(owner))
    .find((hint) => hint !== undefined);
}
