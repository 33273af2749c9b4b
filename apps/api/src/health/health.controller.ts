import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../common/decorators/public.decorator';
import { HealthService } from './health.service';

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** The process is up. Never touches the database. */
  @Get('live')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** The service can serve requests: its database answers. 503 otherwise. */
  @Get('ready')
  async ready(): Promise<{ status: 'ok' }> {
    await this.health.assertDatabaseReachable();
    return { status: 'ok' };
  }
}
