import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import {
  ASSET_CONTENT_TYPES,
  AssetResponse,
  ListAssetsQueryDto,
  PROJECTS_PAGE_SIZE_MAX,
  PROJECTS_PAGE_SIZE_MIN,
} from '@layout/contracts';
import { type AuthenticatedAccount } from '../common/auth/authenticated-account';
import { CurrentAccount } from '../common/decorators/current-account.decorator';
import { Public } from '../common/decorators/public.decorator';
import { Conditions, type RequestConditions } from '../common/http/request-conditions';
import { type Representation } from '../common/http/representation';
import {
  ApiNoContentResponse,
  ApiProblems,
  COMMON_PROBLEMS,
  ApiProtected,
  ApiTaggedRead,
} from '../openapi/decorators';
import {
  ASSET_EXAMPLE,
  ASSET_LIST_ETAG,
  ASSET_READ_HEADERS,
  NEXT_ASSETS_LINK,
} from './assets.openapi';
import { AssetPath } from './asset-path.params';
import { AssetsService } from './assets.service';

/** The `Link` header (RFC 8288) of a page of assets that has a next one. */
export function nextAssetsLink(limit: number, after: string): string {
  return `</assets?limit=${limit}&after=${after}>; rel="next"`;
}

const BINARY = { schema: { type: 'string', format: 'binary' } };

@ApiTags('assets')
@Controller('assets')
export class AssetsController {
  constructor(private readonly assets: AssetsService) {}

  @Post()
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Upload an image',
    description:
      "The image's bytes as the body (not JSON, not a form), `Content-Type` its type: " +
      '`image/png`, `image/jpeg`, `image/gif`, `image/webp` or `image/avif`. The bytes must be a ' +
      'whole, well-formed image of that type (415 otherwise, a truncated file or SVG included); ' +
      'its type and pixel size are read from them. At most 10 MiB (413) per asset and 1 GiB per ' +
      'account (409 `/problems/limit-exceeded`). The same bytes are kept once per account: ' +
      'uploading them again answers 200 with the asset they are. The body is streamed to ' +
      'storage as it arrives; an upload that fails half-way leaves nothing behind.',
  })
  @ApiConsumes(...ASSET_CONTENT_TYPES)
  @ApiBody({ required: true, description: "The image's bytes.", ...BINARY })
  @ApiResponse({
    status: 201,
    description: 'The new asset.',
    type: AssetResponse,
    example: ASSET_EXAMPLE,
    headers: {
      Location: {
        description: 'Where its bytes are served: `/assets/<id>`.',
        required: true,
        schema: { type: 'string', format: 'uri-reference' },
      },
    },
  })
  @ApiResponse({
    status: 200,
    description: 'The account had these bytes already: that asset.',
    type: AssetResponse,
    example: ASSET_EXAMPLE,
  })
  @ApiProblems(
    'unauthorized',
    ...COMMON_PROBLEMS,
    'unsupportedMediaType',
    'payloadTooLarge',
    'limitExceeded',
    'assetStoreUnavailable',
    {
      unsupportedMediaType: {
        when:
          'The body is not a whole, well-formed image of one of the accepted types, or not of the ' +
          'type `Content-Type` declares.',
        detail: 'The body is an image/png image, not image/jpeg',
      },
      payloadTooLarge: {
        when: 'The body is larger than 10 MiB; nothing is kept.',
        detail: 'An asset is at most 10485760 bytes',
      },
      limitExceeded: {
        when: "The account's assets would add up to more than 1 GiB; nothing is kept.",
        detail: "An account's assets add up to at most 1073741824 bytes; delete some first",
      },
    },
  )
  async upload(
    @CurrentAccount() account: AuthenticatedAccount,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const length = Number(request.headers['content-length']);
    const answer = await this.assets.upload(account.id, {
      body: request.body,
      contentType: request.headers['content-type'],
      contentLength: Number.isFinite(length) ? length : undefined,
    });
    void reply
      .code(answer.status)
      .header('location', answer.location)
      .type('application/json; charset=utf-8')
      .send(answer.asset.payload);
  }

  @Get()
  @ApiProtected()
  @ApiOperation({
    summary: 'List your assets',
    description:
      'The assets the calling account uploaded, newest first: all of them, or with `limit` ' +
      '(1 to 100) a page at a time; when more follow, `Link: </assets?limit=…&after=…>; ' +
      'rel="next"` names the next page.',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: 'How many assets a page holds at most: 1 to 100. Left out: all of them.',
    schema: { type: 'integer', minimum: PROJECTS_PAGE_SIZE_MIN, maximum: PROJECTS_PAGE_SIZE_MAX },
  })
  @ApiQuery({
    name: 'after',
    required: false,
    description: "The id of the previous page's last asset (as its `Link` names it).",
    schema: { type: 'string' },
  })
  @ApiResponse({
    status: 200,
    description: '',
    type: [AssetResponse],
    example: [ASSET_EXAMPLE],
    headers: { ETag: ASSET_LIST_ETAG, Link: NEXT_ASSETS_LINK },
  })
  @ApiTaggedRead([AssetResponse], [ASSET_EXAMPLE], 'A page of your assets, newest first.')
  @ApiProblems('validation')
  async list(
    @CurrentAccount() account: AuthenticatedAccount,
    @Query() query: ListAssetsQueryDto,
    @Conditions() conditions: RequestConditions,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Representation<AssetResponse[]>> {
    const page = await this.assets.list(account.id, query.limit, query.after, conditions);
    if (page.next !== undefined && query.limit !== undefined) {
      void reply.header('link', nextAssetsLink(query.limit, page.next));
    }
    return page.representation;
  }

  @Get(':assetId')
  @Public()
  @ApiOperation({
    summary: "Read an asset's bytes",
    description:
      'The image, to anyone with its URL (its id is unguessable), as a static file server ' +
      'serves it: its type, its `ETag` (its SHA-256), `Cache-Control: public, ' +
      'max-age=31536000, immutable` (the bytes under an id never change), and one range of ' +
      'it when `Range` asks (206; `If-Range` honoured; 416 past its end). No token needed.',
  })
  @ApiProduces(...ASSET_CONTENT_TYPES)
  @ApiResponse({
    status: 200,
    description: 'The bytes.',
    content: Object.fromEntries(ASSET_CONTENT_TYPES.map((type) => [type, BINARY])),
    headers: ASSET_READ_HEADERS,
  })
  @ApiResponse({
    status: 206,
    description: 'The range asked for.',
    content: Object.fromEntries(ASSET_CONTENT_TYPES.map((type) => [type, BINARY])),
    headers: {
      ...ASSET_READ_HEADERS,
      'Content-Range': {
        description: '`bytes <first>-<last>/<size>`.',
        required: true,
        schema: { type: 'string', pattern: '^bytes \\d+-\\d+/\\d+$' },
      },
    },
  })
  @ApiResponse({
    status: 304,
    description: 'Not modified: `If-None-Match` names its tag.',
    headers: {
      ETag: ASSET_READ_HEADERS.ETag,
      'Cache-Control': ASSET_READ_HEADERS['Cache-Control'],
    },
  })
  @ApiProblems(
    'validation',
    'notFound',
    'rangeNotSatisfiable',
    'assetStoreUnavailable',
    'databaseUnavailable',
    'tooManyConcurrentRequests',
    'shuttingDown',
  )
  async read(
    @Param() path: AssetPath,
    @Conditions() conditions: RequestConditions,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const bytes = await this.assets.read(
      path.assetId,
      { range: header('range'), ifRange: header('if-range') },
      conditions,
    );
    void reply.code(bytes.status).headers(bytes.headers).send(bytes.body);
  }

  @Delete(':assetId')
  @HttpCode(204)
  @ApiProtected()
  @ApiOperation({
    summary: 'Delete an asset',
    description:
      'Deletes one of your assets and its bytes. While a content or a style of any project ' +
      'names it, it answers 409 `/problems/asset-in-use` with `paths` (where) and deletes ' +
      "nothing. Another account's asset is a 404.",
  })
  @ApiNoContentResponse('Deleted; no body.')
  @ApiProblems('notFound', 'assetInUse')
  async delete(
    @CurrentAccount() account: AuthenticatedAccount,
    @Param() path: AssetPath,
  ): Promise<void> {
    await this.assets.delete(account.id, path.assetId);
  }
}
