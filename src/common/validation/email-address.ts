import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, MaxLength } from 'class-validator';

/** The longest address SMTP allows (64 for the local part, @, 255 for the domain). */
export const MAX_EMAIL_LENGTH = 320;

/**
 * The one spelling an email is stored, looked up and compared in: trimmed (surrounding
 * whitespace is never meant) and lower-cased (a user or a supplier is one whatever the
 * case of its email, and an invitation finds its invitee's account). Services apply it
 * too: the CLI, ADMIN_EMAIL and other services reach them without a DTO.
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A request's email field: documented as `format: email` of at most MAX_EMAIL_LENGTH,
 * normalised (normalizeEmail) before it is validated, so that `' Dana@Example.com'` is
 * the address `dana@example.com`.
 */
export const EmailAddress = (doc: { example: string; description?: string }) =>
  applyDecorators(
    ApiProperty({ format: 'email', maxLength: MAX_EMAIL_LENGTH, ...doc }),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? normalizeEmail(value) : value,
    ),
    IsEmail(),
    MaxLength(MAX_EMAIL_LENGTH),
  );
