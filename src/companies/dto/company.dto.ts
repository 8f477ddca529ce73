import { ApiId, ApiTimestamp, ApiNullableString } from '../../common/swagger/schema-types.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CompanyEntity } from '../company.entity.js';
import { EmailAddress } from '../../common/validation/email-address.js';
import { OptionalText, RequiredText } from '../../common/validation/text-fields.js';

export class CreateCompanyDto {
  @EmailAddress({ example: 'purchasing@dealer-two.example' })
  email: string;

  @ApiProperty({ example: 'Second Dealer BV', maxLength: 200 })
  @RequiredText(200)
  name: string;

  @ApiProperty({ example: 'NL004495445B01', maxLength: 64, description: 'Unique' })
  @RequiredText(64)
  vat_number: string;

  @ApiProperty({ example: '87654321', maxLength: 64 })
  @RequiredText(64)
  coc_number: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: '+31 20 123 4567', maxLength: 64 })
  @OptionalText(64)
  phone_number?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'https://dealer.example',
    maxLength: 500,
  })
  @OptionalText(500)
  website?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Dana Dealer', maxLength: 200 })
  @OptionalText(200)
  contact_person?: string | null;
}

export class CompanyDto {
  @ApiId() id: number;
  @ApiProperty({ example: 'purchasing@dealer.example' }) email: string;
  @ApiProperty({ example: 'Dealer BV' }) name: string;
  @ApiProperty({ example: 'NL123456789B01' }) vat_number: string;
  @ApiProperty({ example: '12345678' }) coc_number: string;
  @ApiNullableString({ example: '+31 20 123 4567' }) phone_number: string | null;
  @ApiNullableString({ example: 'https://dealer.example' }) website: string | null;
  @ApiNullableString({ example: 'Jan de Vries' }) contact_person: string | null;
  @ApiTimestamp() created_at: string;

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
