import { validateBody } from '../validation/validate-body';
import { DEFAULT_BLOCK_STYLE } from './block-style';
import { BlockStyleDto } from './block-style.dto';
import { CreateBlockDto } from './create-block.dto';
import { UpdateBlockDto } from './update-block.dto';

describe('CreateBlockDto', () => {
  it('accepts an empty description, a full style and a position', async () => {
    const body = { description: '', style: { ...DEFAULT_BLOCK_STYLE }, position: 0 };
    const result = await validateBody(CreateBlockDto, body);
    expect(result.errors).toEqual([]);
    expect(result.value?.style).toBeInstanceOf(BlockStyleDto);
    expect(result.value).toEqual(body);
  });

  it('requires the description', async () => {
    expect((await validateBody(CreateBlockDto, {})).errors).toEqual([
      { pointer: '/description', detail: 'is required' },
    ]);
  });

  it.each([
    [
      { description: 'x'.repeat(501) },
      '/description',
      'must be a string of at most 500 characters',
    ],
    [{ description: '', position: -1 }, '/position', 'must be an integer of at least 0'],
    [{ description: '', position: 1.5 }, '/position', 'must be an integer of at least 0'],
    [{ description: '', position: '2' }, '/position', 'must be an integer of at least 0'],
    [{ description: '', style: 'red' }, '/style', 'must be an object'],
    [{ description: '', style: null }, '/style', 'must be an object'],
    [
      { description: '', style: { backgroundColor: 'blurple' } },
      '/style/backgroundColor',
      'must be a CSS colour: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(), rgba() or a colour name',
    ],
    [{ description: '', style: { color: 'red' } }, '/style/color', 'is not a known member'],
    [
      { description: '', style: { opacity: 1.5 } },
      '/style/opacity',
      'must be a number from 0 to 1',
    ],
  ])('rejects %j at %s', async (body, pointer, detail) => {
    expect((await validateBody(CreateBlockDto, body)).errors).toEqual([{ pointer, detail }]);
  });

  it.each(['#fff', 'rgba(0, 0, 0, 0.5)', 'transparent', 'Navy', 'rgb(10% 20% 30% / 0.5)'])(
    'accepts the background colour %j',
    async (backgroundColor) => {
      const result = await validateBody(CreateBlockDto, {
        description: '',
        style: { backgroundColor },
      });
      expect(result.errors).toEqual([]);
    },
  );
});

describe('UpdateBlockDto', () => {
  it('accepts any subset of members', async () => {
    expect((await validateBody(UpdateBlockDto, {})).ok).toBe(true);
    expect((await validateBody(UpdateBlockDto, { position: 3 })).value).toEqual({ position: 3 });
  });

  it('rejects a null description', async () => {
    expect((await validateBody(UpdateBlockDto, { description: null })).errors).toEqual([
      { pointer: '/description', detail: 'must be a string of at most 500 characters' },
    ]);
  });
});

describe('a block style’s backgroundImage', () => {
  it('comes out of validation normalised, on create and on update', async () => {
    const style = { backgroundImage: "https://e.com/a.png'),url('javascript:alert(1)" };
    const stored = 'https://e.com/a.png%27%29,url%28%27javascript:alert%281%29';
    const created = await validateBody(CreateBlockDto, { description: '', style });
    const updated = await validateBody(UpdateBlockDto, { style });
    expect(created.value?.style?.backgroundImage).toBe(stored);
    expect(updated.value?.style?.backgroundImage).toBe(stored);
  });
});
