import { ApiId, ApiTimestamp, ApiNullableString } from '../../common/swagger/schema-types.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { EmailAddress } from '../../common/validation/email-address.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../config/password-rules.js';
import type { UserEntity, UserRole } from '../user.entity.js';

export { MIN_PASSWORD_LENGTH };

export class CreateUserDto {
  @EmailAddress({ example: 'dealer@example.com' })
  email: string;

  @ApiProperty({
    minLength: MIN_PASSWORD_LENGTH,
    maxLength: MAX_PASSWORD_LENGTH,
    format: 'password',
    example: 'a-long-passphrase-2026',
  })
  @IsString()
  @MinLength(MIN_PASSWORD_LENGTH)
  @MaxLength(MAX_PASSWORD_LENGTH)
  password: string;

  @ApiPropertyOptional({ example: 'Dana Dealer' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ enum: ['admin', 'member'], enumName: 'UserRole', default: 'member' })
  @IsOptional()
  @IsIn(['admin', 'member'])
  role?: UserRole;
}

export class UserDto {
  @ApiId() id: number;
  @ApiProperty({ example: 'anna@acme.example' }) email: string;
  @ApiNullableString({ example: 'Anna Jansen' }) name: string | null;
  @ApiProperty({ enum: ['admin', 'member'], enumName: 'UserRole' }) role: UserRole;
  @ApiProperty() disabled: boolean;
  @ApiTimestamp() created_at: string;

  /** Never exposes the password hash. */
  static from(user: UserEntity): UserDto {
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      disabled: user.disabledAt !== null,
      created_at: user.createdAt.toISOString(),
    };
  }
}
