import { type Type } from '@nestjs/common';
import {
  getSchemaPath,
  type OpenAPIObject,
  type ReferenceObject,
  type SchemaObject,
} from '@nestjs/swagger';
import * as contracts from '@layout/contracts';
import {
  classSchemaHintOf,
  type SchemaHint,
  schemaHintsOf,
  type VariantsHint,
  variantsHintOf,
} from '@layout/contracts';

type Schema = SchemaObject | ReferenceObject;

/** Keys that describe a member rather than constrain it: kept when a union replaces the rest. */
const DESCRIPTIVE_KEYS = ['description', 'example', 'default', 'deprecated'] as const;

/** The classes the DTO library exports (request DTOs and response shapes), by name. */
export function contractClasses(): Map<string, Type> {
  const classes = new Map<string, Type>();
  for (const [name, value] of Object.entries(contracts)) {
    if (typeof value === 'function' && value.name === name && /(Dto|Response)$/.test(name)) {
      classes.set(name, value as Type);
    }
  }
  return classes;
}

function collectModels(hint: SchemaHint, into: Set<Type>): void {
  if (hint.model !== undefined) into.add(hint.model());
  for (const nested of [
    hint.items,
    typeof hint.additionalProperties === 'object' ? hint.additionalProperties : undefined,
    ...Object.values(hint.properties ?? {}),
    ...(hint.oneOf ?? []),
    ...(hint.anyOf ?? []),
  ]) {
    if (nested !== undefined) collectModels(nested, into);
  }
}

/**
 * Classes that hints refer to but no operation names (the per-type `data` classes): they must be
 * registered with the document as extra models so that the references resolve.
 */
export function modelsReferencedByHints(): Type[] {
  const models = new Set<Type>();
  for (const cls of contractClasses().values()) {
    Object.values(schemaHintsOf(cls)).forEach((hint) => collectModels(hint, models));
    const classHint = classSchemaHintOf(cls);
    if (classHint !== undefined) collectModels(classHint, models);
    for (const members of Object.values(variantsHintOf(cls)?.variants ?? {})) {
      Object.values(members).forEach((hint) => hint && collectModels(hint, models));
    }
  }
  return [...models];
}

/** A library hint as an OpenAPI schema: `model` becomes a reference to that class's schema. */
export function toSchema(hint: SchemaHint): Schema {
  const { model, items, properties, additionalProperties, oneOf, anyOf, ...plain } = hint;
  if (model !== undefined) return { $ref: getSchemaPath(model()) };
  const schema: SchemaObject = { ...(plain as SchemaObject) };
  if (plain.enum !== undefined) schema.enum = [...plain.enum];
  if (plain.required !== undefined) schema.required = [...plain.required];
  if (items !== undefined) schema.items = toSchema(items);
  if (properties !== undefined) {
    schema.properties = Object.fromEntries(
      Object.entries(properties).map(([name, member]) => [name, toSchema(member)]),
    );
  }
  if (additionalProperties !== undefined) {
    schema.additionalProperties =
      typeof additionalProperties === 'boolean'
        ? additionalProperties
        : toSchema(additionalProperties);
  }
  if (oneOf !== undefined) schema.oneOf = oneOf.map(toSchema);
  if (anyOf !== undefined) schema.anyOf = anyOf.map(toSchema);
  return schema;
}

/**
 * The member's schema from the swagger plugin (type, description, example) with the hint's
 * constraints. A union (the size as number or string, an image dimension, `data`) replaces the
 * plugin's guess at the type, keeping only the descriptive keys.
 */
function mergeMember(generated: Schema, hinted: Schema): Schema {
  if ('$ref' in hinted || hinted.oneOf !== undefined || hinted.anyOf !== undefined) {
    const kept = Object.fromEntries(
      DESCRIPTIVE_KEYS.filter((key) => key in generated).map((key) => [
        key,
        (generated as SchemaObject)[key],
      ]),
    );
    return '$ref' in hinted ? { allOf: [hinted], ...kept } : { ...kept, ...hinted };
  }
  return { ...generated, ...hinted };
}

/**
 * A member of one variant: what the variant accepts, with the member's description (its
 * example, written for the class as a whole, may belong to another variant).
 */
function variantMember(generated: Schema | undefined, hinted: Schema): Schema {
  const description = (generated as SchemaObject | undefined)?.description;
  const described = description === undefined ? {} : { description };
  return '$ref' in hinted ? { allOf: [hinted], ...described } : { ...described, ...hinted };
}

/**
 * Replaces the schema of a class that comes in variants by a union of one complete schema per
 * variant, told apart by a discriminator with its mapping: each variant has every member of the
 * class, its discriminator fixed to its value and the members that depend on it narrowed, and
 * nothing else (no open member beside them), so that a client generated from the document
 * narrows the dependent members by the discriminator, and gets one class per variant.
 */
function splitIntoVariants(
  schemas: Record<string, Schema>,
  name: string,
  schema: SchemaObject,
  hint: VariantsHint,
): void {
  const mapping: Record<string, string> = {};
  for (const [value, members] of Object.entries(hint.variants)) {
    const properties: Record<string, Schema> = { ...schema.properties };
    // Its one value says it all: the class's description of the member lists every value.
    properties[hint.discriminator] = { type: 'string', enum: [value] };
    const absent = new Set<string>();
    for (const [member, memberHint] of Object.entries(members)) {
      if (memberHint === null) {
        delete properties[member];
        absent.add(member);
      } else {
        properties[member] = variantMember(properties[member], toSchema(memberHint));
      }
    }
    const required = (schema.required ?? []).filter((member) => !absent.has(member));
    const variant = hint.variantName(name, value);
    schemas[variant] = {
      type: 'object',
      properties,
      required: required.includes(hint.discriminator)
        ? required
        : [hint.discriminator, ...required],
      additionalProperties: false,
    };
    mapping[value] = `#/components/schemas/${variant}`;
  }
  schemas[name] = {
    ...(schema.description === undefined ? {} : { description: schema.description }),
    oneOf: Object.values(mapping).map(($ref) => ({ $ref })),
    discriminator: { propertyName: hint.discriminator, mapping },
  };
}

/**
 * Puts the constraints the DTO library declares (lengths, ranges, enums, patterns, formats,
 * unions) into the schemas the plugin generated from the classes' types and comments, closes
 * every class schema (bodies with unknown members are refused, responses carry exactly these),
 * and splits a class that comes in variants into them.
 */
export function applySchemaHints(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  for (const [name, cls] of contractClasses()) {
    const schema = schemas[name] as SchemaObject | undefined;
    if (schema === undefined) continue;
    const properties = (schema.properties ??= {});
    for (const [member, hint] of Object.entries(schemaHintsOf(cls))) {
      properties[member] = mergeMember(properties[member] ?? {}, toSchema(hint));
    }
    const classHint = classSchemaHintOf(cls);
    if (classHint !== undefined) Object.assign(schema, toSchema(classHint));
    schema.type ??= 'object';
    schema.additionalProperties ??= false;
    const variants = variantsHintOf(cls);
    if (variants !== undefined) splitIntoVariants(schemas, name, schema, variants);
  }
}
