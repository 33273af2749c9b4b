import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  CreateContentDto,
  DuplicateContentDto,
  MoveContentDto,
  ContentResponse,
  UpdateContentDto,
} from '@layout/contracts';
import { ApiProtected } from '../../openapi/decorators';
import { CONTENT_EXAMPLE, NEW } from './layout.examples';
import { ColumnPath, ContentPath } from '../params/layout-paths.params';
import { NodeController, NodeRoutes } from './node-routes';

/** The routes of contents: what the node service does at every level, documented for contents. */
@ApiTags('contents')
@ApiProtected()
@Controller('projects/:projectId/blocks/:blockId/rows/:rowId/columns/:columnId/contents')
@NodeRoutes({
  level: 'content',
  paths: { parent: ColumnPath, node: ContentPath },
  bodies: {
    create: CreateContentDto,
    update: UpdateContentDto,
    move: MoveContentDto,
    duplicate: DuplicateContentDto,
  },
  response: ContentResponse,
  example: CONTENT_EXAMPLE,
  create: {
    summary: 'Create a content',
    description:
      'Creates a content in the column, at the end of its contents or at `position`. `data` ' +
      'holds the members of its `type` (text: `html`, stored sanitised; image: `url`, `width`, ' +
      '`height`, `alt`; video: `url`, `provider`, inferred from the URL when left out; quote: ' +
      '`options`, `content`; empty: none). The style comes back with every default filled in.',
    example: NEW.content,
    returns: 'The new content.',
    problems: ['notFound', 'limitExceeded'],
  },
  list: {
    summary: 'List the contents of a column',
    description: "The column's contents in their stored order.",
    returns: 'The contents.',
  },
  retrieve: {
    summary: 'Retrieve a content',
    description: 'A content with its complete style and its data.',
    returns: 'The content.',
  },
  update: {
    summary: 'Update a content',
    description:
      '`type` is required; other members left out keep their value, except `data`, which ' +
      'becomes `{}` when the type changes. A given `style` replaces the stored one whole (its ' +
      'members left out get their defaults); `position` moves the content.',
    returns: 'The content.',
    problems: ['notFound', 'limitExceeded'],
  },
  delete: {
    summary: 'Delete a content',
    description: 'Deletes the content.',
    returns: 'Deleted; no body.',
  },
  move: {
    optionalBody: true,
    summary: 'Move a content',
    description:
      'Moves the content to the column `columnId` of the project (its own when left out), at ' +
      '`position` (the end when left out; past the end: the end), in one transaction. It keeps ' +
      "its id; its tag becomes the move's revision; `Location` is its new path, and the old one " +
      "answers 404 from now on. `If-Match` is compared with the content's tag (of moves sent " +
      'with one tag, one goes through). A full column answers 409 ' +
      '`limit-exceeded`; a column that is not in the project answers 404.',
    returns: 'The content at its new place, with its tag.',
    problems: ['notFound', 'limitExceeded'],
  },
  duplicate: {
    optionalBody: true,
    summary: 'Duplicate a content',
    description:
      'Copies the content, with a new id, into the column `columnId` of the project (its own ' +
      'when left out), at `position`; without one, right after the original in its own column, ' +
      "else at the end. `If-Match` is compared with the original's tag.",
    returns: 'The copy, with its new ids.',
    problems: ['notFound', 'limitExceeded'],
  },
})
export class ContentsController extends NodeController {}
