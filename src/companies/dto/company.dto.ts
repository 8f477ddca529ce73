import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail } from 'class-validator';
import type { CompanyEntity } from '../company.entity.js';
import { OptionalText, RequiredText } from '../../common/validation/text-fields.js';

export class CreateCompanyDto {
  @ApiProperty({ example: 'info@dealer.example', maxLength: 320 })
  @RequiredText(320)
  @IsEmail()
  email: string;

  @ApiProperty({ example: 'Dealer BV', maxLength: 200 })
  @RequiredText(200)
  name: string;

  @ApiProperty({ example: 'NL123456789B01', maxLength: 64, description: 'Unique' })
  @RequiredText(64)
  vat_number: string;

  @ApiProperty({ example: '12345678', maxLength: 64 })
  @RequiredText(64)
  coc_number: string;

  @ApiPropertyOptional({ example: '+31 20 123 4567', maxLength: 64, nullable: true })
  @OptionalText(64)
  phone_number?: string | null;

  @ApiPropertyOptional({ example: 'https://dealer.example', maxLength: 500, nullable: true })
  @OptionalText(500)
  website?: string | null;

  @ApiPropertyOptional({ example: 'Dana Dealer', maxLength: 200, nullable: true })
  @OptionalText(200)
  contact_person?: string | null;
}

export class CompanyDto {
  @ApiProperty() id: number;
  @ApiProperty() email: string;
  @ApiProperty() name: string;
  @ApiProperty() vat_number: string;
  @ApiProperty() coc_number: string;
  @ApiProperty({ nullable: true, type: String }) phone_number: string | null;
  @ApiProperty({ nullable: true, type: String }) website: string | null;
  @ApiProperty({ nullable: true, type: String }) contact_person: string | null;
  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' }) created_at: string;

  static from(company: CompanyEntity): CompanyDto {
    return {
      id: company.id,
      email: company.email,
      name: company.name,
      vat_number: company.vatNumber,
      coc_number: company.cocNumber,
      phone_number: company.phoneNumber,
      website: company.website,
      contact_person: company.contactPerson,
      created_at: company.createdAt.toISOString(),
    };
  }
}
