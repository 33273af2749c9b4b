import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiOperation, ApiTags, type SchemaObject } from '@nestjs/swagger';
import { ApiOkJsonResponse, ApiProblems } from '../openapi/decorators';
import { Public } from '../common/decorators/public.decorator';
import { HealthService } from './health.service';

const HEALTH_SCHEMA: SchemaObject = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['ok'] } },
  required: ['status'],
  additionalProperties: false,
};

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('live')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Liveness',
    description:
      'The process is up. Never touches the database; no token needed; never rate limited. ' +
      'A stopping instance answers 503 `/problems/shutting-down`, so that load balancers stop ' +
      'sending it requests.',
  })
  @ApiOkJsonResponse(HEALTH_SCHEMA, { status: 'ok' }, 'The process is up.')
  @ApiProblems('validation', 'shuttingDown')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({
    summary: 'Readiness',
    description:
      'The service can serve requests: its database answers (503 otherwise). No token needed; ' +
      'never rate limited.',
  })
  @ApiOkJsonResponse(HEALTH_SCHEMA, { status: 'ok' }, 'The database answers.')
  @ApiProblems('validation', 'databaseUnavailable', 'shuttingDown')
  async ready(): Promise<{ status: 'ok' }> {
    await this.health.assertDatabaseReachable();
    return { status: 'ok' };
  }
}
