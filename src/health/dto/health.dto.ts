import { ApiProperty } from '@nestjs/swagger';

/** GET /health/live: the process answers. */
export class LivenessDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' }) status: 'ok';
}

/** GET /health/ready: the process and its database answer. */
export class ReadinessDto extends LivenessDto {
  @ApiProperty({ enum: ['better-sqlite3', 'postgres'], example: 'postgres' })
  database: string;
}
