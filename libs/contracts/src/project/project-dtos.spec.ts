import { validateBody } from '../validation/validate-body';
import { CreateProjectDto } from './create-project.dto';
import {
  ListProjectsQueryDto,
  PAGE_CURSOR_DETAIL,
  PAGE_SIZE_DETAIL,
} from './list-projects.query.dto';
import { UpdateProjectDto } from './update-project.dto';

const TITLE_DETAIL = 'must be a non-empty string of at most 200 characters';

describe('CreateProjectDto', () => {
  it('accepts a title of 1..200 characters', async () => {
    expect((await validateBody(CreateProjectDto, { title: 'P' })).ok).toBe(true);
    expect((await validateBody(CreateProjectDto, { title: 'é'.repeat(200) })).ok).toBe(true);
  });

  it.each([
    [{}, 'is required'],
    [{ title: '' }, TITLE_DETAIL],
    [{ title: 'x'.repeat(201) }, TITLE_DETAIL],
    [{ title: 5 }, TITLE_DETAIL],
    [{ title: ['x'] }, TITLE_DETAIL],
    [{ title: null }, TITLE_DETAIL],
  ])('rejects %j', async (body, detail) => {
    expect((await validateBody(CreateProjectDto, body)).errors).toEqual([
      { pointer: '/title', detail },
    ]);
  });
});

describe('UpdateProjectDto', () => {
  it('accepts an empty body and a valid title', async () => {
    expect(await validateBody(UpdateProjectDto, {})).toMatchObject({ ok: true, value: {} });
    expect((await validateBody(UpdateProjectDto, { title: 'New' })).value).toEqual({
      title: 'New',
    });
  });

  it('rejects an empty or null title and unknown members', async () => {
    expect((await validateBody(UpdateProjectDto, { title: '', blocks: [] })).errors).toEqual([
      { pointer: '/blocks', detail: 'is not a known member' },
      { pointer: '/title', detail: TITLE_DETAIL },
    ]);
    expect((await validateBody(UpdateProjectDto, { title: null })).errors).toEqual([
      { pointer: '/title', detail: TITLE_DETAIL },
    ]);
  });
});

describe('ListProjectsQueryDto', () => {
  it('accepts no parameters, and limit as the decimal string a query carries', async () => {
    expect(await validateBody(ListProjectsQueryDto, {})).toMatchObject({ ok: true, value: {} });
    expect((await validateBody(ListProjectsQueryDto, { limit: '1' })).value).toEqual({ limit: 1 });
    expect(
      (await validateBody(ListProjectsQueryDto, { limit: '100', cursor: 'eyJ0Ijo' })).value,
    ).toEqual({ limit: 100, cursor: 'eyJ0Ijo' });
  });

  it.each([['0'], ['101'], ['x'], ['-1'], ['2.5'], ['010'], [''], [' 5'], [['1', '2']]])(
    'rejects limit %j',
    async (limit) => {
      expect((await validateBody(ListProjectsQueryDto, { limit })).errors).toEqual([
        { pointer: '/limit', detail: PAGE_SIZE_DETAIL },
      ]);
    },
  );

  it.each([[''], ['a b'], ['a+b'], ['x'.repeat(513)], [['a', 'b']]])(
    'rejects cursor %j',
    async (cursor) => {
      expect((await validateBody(ListProjectsQueryDto, { cursor })).errors).toEqual([
        { pointer: '/cursor', detail: PAGE_CURSOR_DETAIL },
      ]);
    },
  );

  it('names an unknown parameter', async () => {
    expect((await validateBody(ListProjectsQueryDto, { offset: '5' })).errors).toEqual([
      { pointer: '/offset', detail: 'is not a known member' },
    ]);
  });
});
