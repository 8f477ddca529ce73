import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One item of the envelope's `errors` (Swagger model). */
export class ProblemDto {
  @ApiProperty({ example: 'is_email' })
  code: string;

  @ApiProperty({ example: 'email must be an email' })
  message: string;

  @ApiPropertyOptional({
    example: 'email',
    description: 'The offending input, when one is at fault',
  })
  path?: string;
}

/** The envelope's `links` (relative URLs; only on paginated lists). */
export class LinksDto {
  @ApiPropertyOptional({ example: '/v1/companies?page=2&per_page=50' }) self?: string;
  @ApiPropertyOptional() first?: string;
  @ApiPropertyOptional() prev?: string;
  @ApiPropertyOptional() next?: string;
  @ApiPropertyOptional() last?: string;
}

/** The envelope around every answer (Swagger model; `data` is set per route). */
export class EnvelopeDto {
  @ApiProperty({ example: 200, description: 'Mirrors the HTTP status' })
  code: number;

  @ApiProperty({ example: 'OK' })
  message: string;

  @ApiProperty({ nullable: true, description: 'The payload; its shape is given per route' })
  data: unknown;

  @ApiProperty({ type: () => LinksDto })
  links: LinksDto;

  @ApiProperty({ type: () => [ProblemDto] })
  errors: ProblemDto[];
}
