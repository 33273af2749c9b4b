/**
 * The stack's floor: the framework the product's owner fixed (NestJS on Fastify, Passport's
 * bearer strategy, a global ValidationPipe over a class-validator DTO) around the yardstick's
 * own create, on the yardstick's database. It does nothing that the contract adds (no order of a
 * project's writes, no revision or history, no limits, no sanitising, no tags, no problem
 * pages), so its rate beside the yardstick's bounds what the service can reach on create.
 * Started by bench/stack-floor.ts, never by the service.
 *
 * Env: DATABASE_URL (the yardstick's database, seeded by its seed.mjs), PORT, HOST.
 */
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  Injectable,
  Module,
  Param,
  Post,
  Req,
  Res,
  UseGuards,
  ValidationPipe,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuthGuard, PassportModule, PassportStrategy } from '@nestjs/passport';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { Pool } from 'pg';
import { Strategy } from 'passport-http-bearer';
import { DEFAULT_CONTENT_STYLE } from '../../libs/contracts/src/content/content-style';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('error', () => undefined);

// The yardstick's statements (server.mjs), word for word.
const JOINS = 'JOIN blocks b ON b.id = r.block_id JOIN projects p ON p.id = b.project_id';
const CHAIN = 'p.id = $1 AND b.id = $2 AND r.id = $3 AND p.owner_id = $4';
const AUTH = 'SELECT account_id FROM tokens WHERE hash = $1 AND expires_at > now()';
const CREATE = `WITH col AS (UPDATE columns c SET next_content = c.next_content + 1
      FROM rows r ${JOINS} WHERE c.row_id = r.id AND ${CHAIN} AND c.id = $5
      RETURNING c.id, c.next_content - 1 AS pos)
    INSERT INTO contents (column_id, type, style, data, position)
    SELECT id, $6::text, $7::jsonb, $8::jsonb, pos FROM col RETURNING id AS "_id", type, style, data`;

class StyleDto {
  @IsOptional() @IsString() backgroundImage?: string;
  @IsOptional() @IsString() backgroundRepeat?: string;
  @IsOptional() @IsString() backgroundSize?: string;
  @IsOptional() @IsString() backgroundPosition?: string;
  @IsOptional() @IsNumber() @Min(0) @Max(1) opacity?: number;
}

class CreateContentDto {
  @IsIn(['empty', 'text', 'image', 'video', 'quote']) type!: string;
  @IsOptional() @ValidateNested() @Type(() => StyleDto) style?: StyleDto;
  @IsOptional() @IsObject() data?: Record<string, unknown>;
}

@Injectable()
class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  async validate(token: string): Promise<string | false> {
    const hash = createHash('sha256').update(token).digest();
    const { rows } = await pool.query<{ account_id: string }>({
      name: 'auth',
      text: AUTH,
      values: [hash],
    });
    return rows[0]?.account_id ?? false;
  }
}

@Controller()
class HealthController {
  @Get('health/live')
  live() {
    return { status: 'ok' };
  }
}

@Controller('projects/:p/blocks/:b/rows/:r/columns/:c/contents')
@UseGuards(AuthGuard('bearer'))
class ContentsController {
  @Post()
  @HttpCode(201)
  async create(
    @Param('p') p: string,
    @Param('b') b: string,
    @Param('r') r: string,
    @Param('c') c: string,
    @Body() body: CreateContentDto,
    @Req() request: FastifyRequest & { user: string },
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const style = Object.fromEntries(
      Object.entries(body.style ?? {}).filter(([, value]) => value !== undefined),
    );
    const { rows } = await pool.query<{ _id: string }>({
      name: 'create',
      text: CREATE,
      values: [
        p,
        b,
        r,
        request.user,
        c,
        body.type,
        JSON.stringify({ ...DEFAULT_CONTENT_STYLE, ...style }),
        JSON.stringify(body.data ?? {}),
      ],
    });
    const [created] = rows;
    if (created === undefined) {
      void reply.code(404);
      return { status: 404, title: 'Resource not found' };
    }
    void reply.header('location', `${request.url}/${created._id}`);
    return created;
  }
}

// tsx (esbuild) emits no decorator metadata; the global pipe finds the body's class here.
Reflect.defineMetadata(
  'design:paramtypes',
  [String, String, String, String, CreateContentDto, Object, Object],
  ContentsController.prototype,
  'create',
);

@Module({
  imports: [PassportModule],
  controllers: [HealthController, ContentsController],
  providers: [BearerStrategy],
})
class FloorModule {}

async function main() {
  const app = await NestFactory.create<NestFastifyApplication>(FloorModule, new FastifyAdapter(), {
    logger: ['error', 'warn'],
  });
  app.useGlobalPipes(
    new ValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true }),
  );
  await app.listen(Number(process.env.PORT ?? 3200), process.env.HOST ?? '127.0.0.1');
}

void main();
