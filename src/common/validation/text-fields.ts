import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** Surrounding whitespace is never meaningful in names, numbers or addresses. */
export const Trim = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** A required, trimmed, non-empty string of at most `max` characters. */
export const RequiredText = (max: number) =>
  applyDecorators(Trim(), IsString(), IsNotEmpty(), MaxLength(max));

/** An optional (absent or null) trimmed string of at most `max` characters. */
export const OptionalText = (max: number) =>
  applyDecorators(Trim(), IsOptional(), IsString(), MaxLength(max));
