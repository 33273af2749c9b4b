import { BlockStyleDto } from '../block/block-style.dto';
import { CreateColumnDto } from '../column/create-column.dto';
import { ColumnResponse } from '../column/column.response';
import { CreateContentDto } from '../content/create-content.dto';
import { UpdateContentDto } from '../content/update-content.dto';
import { ImageDataDto } from '../content/data/image-data.dto';
import { QuoteContentDto } from '../content/data/quote-content.dto';
import { TextDataDto } from '../content/data/text-data.dto';
import { SignUpDto } from '../account/sign-up.dto';
import { CreateProjectDto } from '../project/create-project.dto';
import { BlockTreeDto } from '../tree/block-tree.dto';
import { ColumnTreeDto } from '../tree/column-tree.dto';
import { ContentTreeDto } from '../tree/content-tree.dto';
import { RowTreeDto } from '../tree/row-tree.dto';
import { Rule } from './rule';
import {
  classSchemaHintOf,
  HintClassSchema,
  HintSchema,
  schemaHintsOf,
  variantsHintOf,
} from './schema-hints';
import { validateBody } from './validate-body';

describe('schema hints', () => {
  it('records what each rule accepts, by member', () => {
    expect(schemaHintsOf(SignUpDto)).toEqual({
      username: { type: 'string', minLength: 3, maxLength: 254 },
      password: { type: 'string', minLength: 8, maxLength: 256 },
    });
    // Part three: a project's create takes its blocks, and the members a read adds (ignored).
    expect(schemaHintsOf(CreateProjectDto)).toEqual({
      _id: { type: 'string', readOnly: true },
      title: { type: 'string', minLength: 1, maxLength: 200 },
      revision: { type: 'integer', readOnly: true },
      createdAt: { type: 'string', format: 'date-time', readOnly: true },
      updatedAt: { type: 'string', format: 'date-time', readOnly: true },
      role: { type: 'string', readOnly: true },
      blocks: { type: 'array' },
    });
  });

  it('describes the members a read adds to each node of a tree, as a read shows them, read-only', () => {
    expect(schemaHintsOf(BlockTreeDto)).toMatchObject({
      _id: { type: 'string', readOnly: true },
      createdAt: { type: 'string', format: 'date-time', readOnly: true },
      updatedAt: { type: 'string', format: 'date-time', readOnly: true },
      rows: { type: 'array' },
    });
    expect(schemaHintsOf(RowTreeDto)).toMatchObject({ _id: { type: 'string', readOnly: true } });
    expect(schemaHintsOf(ColumnTreeDto)).toMatchObject({ _id: { type: 'string', readOnly: true } });
    expect(schemaHintsOf(ContentTreeDto)._id).toEqual({ type: 'string', readOnly: true });
    // A content's create is a content of a tree: a read's _id is accepted there too.
    expect(schemaHintsOf(CreateContentDto)._id).toEqual({ type: 'string', readOnly: true });
  });

  it('includes inherited members', () => {
    const hints = schemaHintsOf(BlockStyleDto);
    expect(hints.opacity).toEqual({ type: 'number', minimum: 0, maximum: 1 });
    expect(hints.backgroundRepeat).toMatchObject({ type: 'string', enum: expect.any(Array) });
    expect(hints.backgroundColor).toMatchObject({ type: 'string', maxLength: 100 });
    expect(Object.keys(schemaHintsOf(UpdateContentDto)).sort()).toEqual([
      '_id',
      'data',
      'position',
      'type',
    ]);
  });

  it('lets a union describe a member whole: the size is an integer or its string form', () => {
    const size = schemaHintsOf(CreateColumnDto).size;
    expect(size.type).toBeUndefined();
    expect(size.oneOf).toEqual([
      { type: 'integer', minimum: 1, maximum: 12 },
      { type: 'string', enum: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'] },
    ]);
    expect(schemaHintsOf(ColumnResponse).size).toEqual({
      type: 'string',
      enum: size.oneOf?.[1]?.enum,
    });
    expect(schemaHintsOf(ImageDataDto).width.oneOf).toHaveLength(2);
  });

  it('merges the hints of several rules on one member', () => {
    expect(schemaHintsOf(QuoteContentDto).fields).toEqual({ type: 'array', maxItems: 20 });
    expect(schemaHintsOf(CreateColumnDto).contents).toEqual({ type: 'array' });
  });

  it('names the data class of each content type, on the member and across members', () => {
    const data = schemaHintsOf(CreateContentDto).data;
    expect(data.anyOf?.map((hint) => hint.model?.().name)).toEqual([
      'EmptyDataDto',
      'TextDataDto',
      'ImageDataDto',
      'VideoDataDto',
      'QuoteDataDto',
    ]);
    const byType = variantsHintOf(CreateContentDto);
    expect(byType?.discriminator).toBe('type');
    expect(Object.keys(byType?.variants ?? {})).toEqual([
      'empty',
      'text',
      'image',
      'video',
      'quote',
    ]);
    expect(byType?.variants.text?.data?.model?.()).toBe(TextDataDto);
    expect(byType?.variantName('CreateContentDto', 'text')).toBe('CreateTextContentDto');
    expect(byType?.variantName('ContentResponse', 'image')).toBe('ImageContentResponse');
    expect(variantsHintOf(TextDataDto)).toBeUndefined();
  });

  it('documents only: a class with hints validates as without', async () => {
    class Hinted {
      @HintSchema({ type: 'string', maxLength: 3 })
      @Rule('isShort', (value) => typeof value === 'string' && value.length <= 3, 'too long', {
        type: 'string',
        minLength: 1,
      })
      name!: string;
    }
    HintClassSchema({ description: 'a hinted class' })(Hinted);

    expect(schemaHintsOf(Hinted)).toEqual({
      name: { type: 'string', minLength: 1, maxLength: 3 },
    });
    expect(classSchemaHintOf(Hinted)).toEqual({ description: 'a hinted class' });
    expect((await validateBody(Hinted, { name: 'abc' })).ok).toBe(true);
    expect((await validateBody(Hinted, { name: 'abcd' })).errors).toEqual([
      { pointer: '/name', detail: 'too long' },
    ]);
  });
});
