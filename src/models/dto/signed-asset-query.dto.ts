import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';

/** `?expires=&signature=` of a signed asset URL (AssetUrls). */
export class SignedAssetQueryDto {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    example: 1798765200,
    description: 'Unix time (seconds) until which the URL is valid',
  })
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  expires: number;

  @ApiProperty({
    example: 'q3y5k0cY7l9oQx2nX0hZp1o2uQ5y3vA8b9cD0eF1gH2',
    description: 'HMAC-SHA256 of company, model, version, path and expiry (base64url)',
  })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: 'signature must be 43 base64url characters' })
  signature: string;
}
