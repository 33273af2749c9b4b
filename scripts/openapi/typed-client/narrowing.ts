// Compiled by `npm run check:typed-client` against the client types that openapi-typescript
// generates from the served OpenAPI document (openapi.d.ts, written beside this file in a
// temporary folder): a content's `type` narrows its `data`, in responses and request bodies; a
// batch's operation is one shape per method; a project read is a body that posts back whole.
// Each `@ts-expect-error` must meet an error, so the check fails if a variant goes open again.
import type { components, paths } from './openapi';

type Schemas = components['schemas'];
type ContentPath =
  '/projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}/contents/{contentId}';
type ContentsPath =
  '/projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}/contents';
type ColumnPath = '/projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}';

/** What GET of a content answers: the document's ContentResponse union. */
type Content = paths[ContentPath]['get']['responses'][200]['content']['application/json'];
type CreateContentBody = NonNullable<
  paths[ContentsPath]['post']['requestBody']
>['content']['application/json'];
type UpdateContentBody = NonNullable<
  paths[ContentPath]['put']['requestBody']
>['content']['application/json'];
type UpdateColumnBody = NonNullable<
  paths[ColumnPath]['put']['requestBody']
>['content']['application/json'];

/** A response: each branch sees the members of its type's data, and only those. */
export function describe(content: Content): string {
  switch (content.type) {
    case 'image': {
      const url: string | undefined = content.data.url;
      // @ts-expect-error an image's data has no html
      void content.data.html;
      return `image ${url ?? ''} ${content.data.alt ?? ''}`;
    }
    case 'text': {
      const html: string | undefined = content.data.html;
      // @ts-expect-error a text's data has no url
      void content.data.url;
      return `text ${html ?? ''}`;
    }
    case 'video': {
      const provider: 'youtube' | 'vimeo' | 'wistia' | 'loom' | 'file' | undefined =
        content.data.provider;
      // @ts-expect-error a video's data has no alt
      void content.data.alt;
      return `video ${provider ?? ''}`;
    }
    case 'quote':
      return `quote ${content.data.options?.currency ?? 'USD'}`;
    case 'empty':
      return 'empty';
    default: {
      // Every type is handled: nothing is left for an open variant.
      const unhandled: never = content;
      return unhandled;
    }
  }
}

/** A column's contents are the same union. */
export function firstImageUrl(column: Schemas['ColumnResponse']): string | undefined {
  const [first] = column.contents;
  return first?.type === 'image' ? first.data.url : undefined;
}

export const bodies: [CreateContentBody, UpdateContentBody, UpdateColumnBody] = [
  { type: 'image', data: { url: 'https://example.com/a.png', width: 600, height: 'auto' } },
  { type: 'text', data: { html: '<p>Hello</p>' }, position: 0 },
  { contents: [{ type: 'video', data: { url: 'https://youtu.be/x' } }, { type: 'empty' }] },
];

// @ts-expect-error an image body's data has no html
export const imageWithHtml: CreateContentBody = { type: 'image', data: { html: '<p>x</p>' } };
// @ts-expect-error a text body's data has no url
export const textWithUrl: UpdateContentBody = { type: 'text', data: { url: 'https://e.com' } };
export const columnWithWrongData: UpdateColumnBody = {
  // @ts-expect-error an element of a column's contents is a content body too
  contents: [{ type: 'empty', data: { alt: 'nothing' } }],
};
// @ts-expect-error the type is one of the five
export const poem: CreateContentBody = { type: 'poem' };

// Batches: an operation is one of three shapes, told apart by its method.
type BatchBody = NonNullable<
  paths['/projects/{projectId}/batch']['post']['requestBody']
>['content']['application/json'];
type BatchAnswer =
  paths['/projects/{projectId}/batch']['post']['responses'][200]['content']['application/json'];

export const batch: BatchBody = {
  operations: [
    {
      method: 'PUT',
      path: '/projects/p/blocks/b/rows/r/columns/c',
      body: { size: 3 },
      ifMatch: '"r4"',
    },
    {
      method: 'POST',
      path: '/projects/p/blocks/b/rows',
      body: { description: 'New', columns: [{ size: 12, contents: [{ type: 'empty' }] }] },
      ref: 'newRow',
    },
    {
      method: 'POST',
      path: '/projects/p/blocks/b/rows/r/columns/c/move',
      body: { rowId: '$newRow' },
    },
    { method: 'DELETE', path: '/projects/p/blocks/b/rows/$newRow' },
  ],
};
export const deleteWithBody: BatchBody = {
  // @ts-expect-error a DELETE takes no body
  operations: [{ method: 'DELETE', path: '/projects/p/blocks/b', body: {} }],
};
export const putWithRef: BatchBody = {
  // @ts-expect-error only a create or a copy names what it makes
  operations: [{ method: 'PUT', path: '/projects/p/blocks/b', body: {}, ref: 'b' }],
};
export const revisionOf = (answer: BatchAnswer): number => answer.revision;
export const statuses = (answer: BatchAnswer): number[] => answer.results.map((r) => r.status);

// Whole trees: a project as a read answers it is a body that makes a copy of it.
type ProjectRead =
  paths['/projects/{projectId}']['get']['responses'][200]['content']['application/json'];
type CreateProjectBody = NonNullable<
  paths['/projects']['post']['requestBody']
>['content']['application/json'];
export const postedBack = (read: Schemas['ProjectResponse']): CreateProjectBody => read;
export const exported = (read: ProjectRead): CreateProjectBody | Schemas['ProjectResponse'] => read;
export const nested: CreateProjectBody = {
  title: 'Imported',
  blocks: [
    {
      description: 'Intro',
      rows: [
        { columns: [{ size: '6', contents: [{ type: 'text', data: { html: '<p>Hi</p>' } }] }] },
      ],
    },
  ],
};
export const nestedWrongData: CreateProjectBody = {
  title: 'Imported',
  blocks: [
    {
      description: 'Intro',
      // @ts-expect-error a nested image's data has no html either
      rows: [{ columns: [{ size: 6, contents: [{ type: 'image', data: { html: '<p>x</p>' } }] }] }],
    },
  ],
};
