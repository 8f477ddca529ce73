import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsISO8601,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateBy,
  type ValidationOptions,
} from 'class-validator';
import { Trim } from '../../common/validation/text-fields.js';

export const MAX_TOKEN_NAME_LENGTH = 100;

/** An ISO 8601 timestamp that lies in the future when the request is validated. */
function IsFutureTimestamp(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isFutureTimestamp',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && new Date(value).getTime() > Date.now(),
        defaultMessage: () => '$property must lie in the future',
      },
    },
    options,
  );
}

export class CreateApiTokenDto {
  @ApiProperty({
    minLength: 1,
    maxLength: MAX_TOKEN_NAME_LENGTH,
    example: 'ERP integration',
    description: 'Unique among your live tokens; surrounding spaces are dropped',
  })
  // Trimmed so that "erp" and "erp " do not become two tokens that look the same in a list.
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_TOKEN_NAME_LENGTH)
  name: string;

  @ApiPropertyOptional({
    example: '2099-01-01T00:00:00.000Z',
    description: 'ISO 8601 timestamp in the future; without it the token lives until revoked',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  @IsFutureTimestamp()
  expires_at?: string;
}
