import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length, Matches } from 'class-validator';

export class CreateCartDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Showroom order 2026-11' })
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'reference must not be blank' })
  reference: string;

  @ApiPropertyOptional({
    description:
      "Make this cart the caller's default. The caller's first cart becomes the default anyway.",
    default: false,
  })
  @IsOptional()
  @IsBoolean()
  default?: boolean;
}
