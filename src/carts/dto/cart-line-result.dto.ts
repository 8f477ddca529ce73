import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ProblemDto } from '../../common/swagger/envelope.schema.js';
import type {
  LineBomItem,
  LineCache,
  LineGeneral,
  LineImage,
  LineImport,
  LinePricing,
  LineQuestion,
  LineRule,
  LineTranslation,
  LineTrigger,
} from '../../engine/index.js';

/**
 * The evaluated configuration (MODEL_FORMAT.md, "The cart line"). Documented here for
 * Swagger; the engine's CartLine type is the source of truth.
 */
export class EvaluatedLineDto {
  @ApiProperty({ description: 'The model version the line was evaluated with' })
  version_number: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The model’s general section, translated, plus model_id',
  })
  general: LineGeneral;
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'What was merged in' })
  imports: LineImport[];
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    description:
      'Per question: key, type, label, visible, required, values, source, discarded, options ' +
      '(key, label, price, available, unavailable_because, selected)',
  })
  questions: LineQuestion[];
  @ApiProperty({ type: 'object', additionalProperties: true }) variables: Record<string, unknown>;
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    description: 'key, status, severity, message',
  })
  rules: LineRule[];
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'key, fired, set' })
  triggers: LineTrigger[];
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    description: 'key, sku, description, quantity, unit, unit_price, total_price, children',
  })
  bom_items: LineBomItem[];
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'currency, base_price, options_total, bom_total, adjustments, subtotal, total (decimal strings)',
  })
  pricing: LinePricing;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'language, fallback_used, missing',
  })
  translation: LineTranslation;
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'key, url, layer, alt' })
  images: LineImage[];
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'fingerprint, engine_version, evaluated_in_ms',
  })
  cache: LineCache;
}

/** POST /v1/carts: the stored line. */
export class AddedCartLineDto extends EvaluatedLineDto {
  @ApiProperty({ description: 'The cart line id' }) id: number;
  @ApiProperty({ format: 'uuid', description: 'The cart the line went into' }) cart_id: string;
  @ApiProperty() model_id: number;
  @ApiProperty() company_id: number;
  @ApiPropertyOptional({ type: [ProblemDto], description: 'Failed warning rules (not blocking)' })
  warnings: ProblemDto[];
}

/** POST /v1/carts/preview: the line as it would be stored, and whether it may be. */
export class PreviewLineDto extends EvaluatedLineDto {
  @ApiProperty({ nullable: true, type: Number, description: 'Always null: nothing is stored' })
  id: null;
  @ApiProperty({ description: 'Whether POST /v1/carts would accept this configuration' })
  valid: boolean;
  @ApiProperty({ type: [ProblemDto], description: 'What makes it invalid (empty when valid)' })
  errors: ProblemDto[];
  @ApiProperty({ type: [ProblemDto], description: 'Failed warning rules (not blocking)' })
  warnings: ProblemDto[];
}
