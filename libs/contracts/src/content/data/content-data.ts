import { ClassTransformOptions, Transform } from 'class-transformer';
import { recordSchemaHint, SchemaHint, VariantsHint } from '../../validation/schema-hints';
import { declareMemberClass, NotCopied } from '../../validation/nested-members';
import { sourceMember, toInstance } from '../../validation/to-instance';
import { CONTENT_TYPES, ContentType, isContentType } from '../content-type';
import { EmptyDataDto } from './empty-data.dto';
import { ImageDataDto } from './image-data.dto';
import { QuoteDataDto } from './quote-data.dto';
import { TextDataDto } from './text-data.dto';
import { VideoDataDto } from './video-data.dto';

/** The class that validates `data` for each content type. */
export const CONTENT_DATA_CLASSES = {
  empty: EmptyDataDto,
  text: TextDataDto,
  image: ImageDataDto,
  video: VideoDataDto,
  quote: QuoteDataDto,
} as const satisfies Record<ContentType, new () => object>;

export type ContentDataDto = InstanceType<(typeof CONTENT_DATA_CLASSES)[ContentType]>;

/** `data` on its own: the data of one of the types (the sibling `type` says which). */
export const CONTENT_DATA_SCHEMA: SchemaHint = {
  anyOf: CONTENT_TYPES.map((type) => ({ model: () => CONTENT_DATA_CLASSES[type] })),
};

/**
 * A content (a body or a response) as a whole: one variant per `type`, each with the data of
 * that type, named after the type (`ContentResponse` → `ImageContentResponse`,
 * `CreateContentDto` → `CreateImageContentDto`).
 */
export const CONTENT_VARIANTS: VariantsHint = {
  discriminator: 'type',
  variants: Object.fromEntries(
    CONTENT_TYPES.map((type) => [type, { data: { model: () => CONTENT_DATA_CLASSES[type] } }]),
  ),
  variantName: (className, type) =>
    className.replace('Content', `${type[0].toUpperCase()}${type.slice(1)}Content`),
};

/**
 * Builds `data` as the class of the sibling `type`, so that members unknown to that type are
 * rejected by the whitelist. With an invalid or missing type, the body fails on `type` anyway and
 * there is no class to check an object against, so an object is dropped unchecked; a non-object
 * stays for the member's own rule to reject.
 */
export function toContentData(
  data: unknown,
  type: unknown,
  options: ClassTransformOptions,
): unknown {
  if (!isContentType(type)) {
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? undefined : data;
  }
  return toInstance(CONTENT_DATA_CLASSES[type], data, options);
}

export function ToContentData(): PropertyDecorator {
  const transform = Transform(
    ({ obj, key, options }: { obj: unknown; key: string; options: ClassTransformOptions }) =>
      toContentData(sourceMember(obj, key), sourceMember(obj, 'type'), options),
    { toClassOnly: true },
  );
  return (target, member) => {
    // The class depends on the sibling `type`: the transform builds it from the source.
    declareMemberClass(target, member, () => NotCopied);
    transform(target, member);
    recordSchemaHint(target, member, CONTENT_DATA_SCHEMA);
  };
}
