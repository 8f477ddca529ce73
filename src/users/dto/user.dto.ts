import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_PASSWORD_LENGTH } from '../password.service.js';
import type { UserEntity, UserRole } from '../user.entity.js';

export const MIN_PASSWORD_LENGTH = 8;

export class CreateUserDto {
  @ApiProperty({ example: 'dealer@example.com' })
  @IsEmail()
  @MaxLength(320)
  email: string;

  @ApiProperty({
    minLength: MIN_PASSWORD_LENGTH,
    maxLength: MAX_PASSWORD_LENGTH,
    format: 'password',
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

  @ApiPropertyOptional({ enum: ['admin', 'member'], default: 'member' })
  @IsOptional()
  @IsIn(['admin', 'member'])
  role?: UserRole;
}

export class UserDto {
  @ApiProperty() id: number;
  @ApiProperty() email: string;
  @ApiProperty({ nullable: true, type: String }) name: string | null;
  @ApiProperty({ enum: ['admin', 'member'] }) role: UserRole;
  @ApiProperty() disabled: boolean;
  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' }) created_at: string;

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
