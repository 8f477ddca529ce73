import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { OptionalText } from '../../common/validation/text-fields.js';
import { MAX_PASSWORD_LENGTH } from '../password.service.js';
import type { UserRole } from '../user.entity.js';
import { MIN_PASSWORD_LENGTH } from './user.dto.js';

/** PATCH /v1/users/me: one's own name or password; a new password needs the current one. */
export class UpdateMeDto {
  @ApiPropertyOptional({ example: 'Dana Dealer', maxLength: 200 })
  @OptionalText(200)
  name?: string;

  @ApiPropertyOptional({
    minLength: MIN_PASSWORD_LENGTH,
    maxLength: MAX_PASSWORD_LENGTH,
    format: 'password',
  })
  @IsOptional()
  @IsString()
  @MinLength(MIN_PASSWORD_LENGTH)
  @MaxLength(MAX_PASSWORD_LENGTH)
  password?: string;

  @ApiProperty({ format: 'password', description: 'Required with `password`' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_PASSWORD_LENGTH)
  current_password?: string;
}

/** PATCH /v1/users/{id} (admins): a role, or disabling (which ends every credential). */
export class UpdateUserDto {
  @ApiPropertyOptional({ enum: ['admin', 'member'] })
  @IsOptional()
  @IsIn(['admin', 'member'])
  role?: UserRole;

  @ApiPropertyOptional({ description: 'true disables the user at once; false enables again' })
  @IsOptional()
  @IsBoolean()
  disabled?: boolean;
}
