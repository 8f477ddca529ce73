import { ApiId, ApiTimestamp, ApiNullableString } from '../../common/swagger/schema-types.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EmailAddress } from '../../common/validation/email-address.js';
import { OptionalText, RequiredText } from '../../common/validation/text-fields.js';
import type { SupplierEntity } from '../supplier.entity.js';
import { IsId } from '../../common/validation/is-id.decorator.js';

export class CreateSupplierDto {
  @EmailAddress({ example: 'sales@maker.example', description: 'Unique' })
  email: string;

  @ApiProperty({ example: 'Maker BV', maxLength: 200 })
  @RequiredText(200)
  name: string;

  @ApiProperty({ example: 'https://maker.example', maxLength: 500 })
  @RequiredText(500)
  website: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Sam Seller', maxLength: 200 })
  @OptionalText(200)
  contact_person?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '+31 10 765 4321', maxLength: 64 })
  @OptionalText(64)
  phone_number?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'NL987654321B01', maxLength: 64 })
  @OptionalText(64)
  vat_number?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '87654321', maxLength: 64 })
  @OptionalText(64)
  coc_number?: string | null;
}

/** Body of POST /v1/companies/{id}/suppliers: link an existing supplier to the company. */
export class LinkSupplierDto {
  @ApiId({ example: 1 })
  @IsId()
  supplier_id: number;
}

/** A supplier as a company's supplier list shows it (the seed returns no created_at). */
export class CompanySupplierDto {
  @ApiId() id: number;
  @ApiProperty({ example: 'sales@acme.example' }) email: string;
  @ApiProperty({ example: 'Acme Windows' }) name: string;
  @ApiProperty({ example: 'https://acme.example' }) website: string;
  @ApiNullableString({ example: 'Anna Jansen' }) contact_person: string | null;
  @ApiNullableString({ example: '+31 30 765 4321' }) phone_number: string | null;
  @ApiNullableString({ example: 'NL987654321B01' }) vat_number: string | null;
  @ApiNullableString({ example: '87654321' }) coc_number: string | null;

  static from(supplier: SupplierEntity): CompanySupplierDto {
    return {
      id: supplier.id,
      email: supplier.email,
      name: supplier.name,
      website: supplier.website,
      contact_person: supplier.contactPerson,
      phone_number: supplier.phoneNumber,
      vat_number: supplier.vatNumber,
      coc_number: supplier.cocNumber,
    };
  }
}

export class SupplierDto extends CompanySupplierDto {
  @ApiTimestamp() created_at: string;

  static override from(supplier: SupplierEntity): SupplierDto {
    return { ...CompanySupplierDto.from(supplier), created_at: supplier.createdAt.toISOString() };
  }
}
