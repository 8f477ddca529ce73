import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../principal/auth.decorator.js';
import { ApiError } from '../common/errors/api-error.js';
import { DatabaseProbe } from '../database/database-probe.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';

/** Kubernetes probes: live = the process answers; ready = it can reach its database. */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly database: DatabaseProbe) {}

  @Get('live')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness probe' })
  @ApiEnvelope(null)
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('ready')
  @Public()
  @ApiOperation({ summary: 'Readiness probe: checks the database' })
  @ApiEnvelope(null)
  @ApiErrors(503)
  async ready(): Promise<{ status: string; database: string }> {
    try {
      await this.database.ping();
    } catch {
      throw new ApiError(503, 'Database unavailable', [
        { code: 'database_unavailable', message: 'The database does not answer' },
      ]);
    }
    return { status: 'ok', database: this.database.kind };
  }
}
