import { ApiProperty } from '@nestjs/swagger';

/** GET /health/live: the process answers. */
export class LivenessDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' }) status: 'ok';
}

/** GET /health/ready: the process and what it depends on answer. */
export class ReadinessDto extends LivenessDto {
  @ApiProperty({ enum: ['better-sqlite3', 'postgres'], example: 'postgres' })
  database: string;

  @ApiProperty({
    enum: ['shared', 'per-process'],
    example: 'shared',
    description:
      'Where rate-limit counters are kept: `shared` in Redis; `per-process` without REDIS_URL, ' +
      'or while Redis does not answer (each instance then counts on its own)',
  })
  rate_limits: 'shared' | 'per-process';

  @ApiProperty({
    type: 'object',
    description:
      'Each dependency checked (terminus): database, and redis when REDIS_URL is set ' +
      '(reported only: a Redis that is down does not make the instance unready)',
    additionalProperties: {
      type: 'object',
      required: ['status'],
      properties: { status: { type: 'string', enum: ['up', 'down'] } },
      additionalProperties: true,
    },
    example: { database: { status: 'up' } },
  })
  checks: Record<string, { status: string }>;
}
