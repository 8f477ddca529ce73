import { OmitType } from '@nestjs/swagger';
import { ApiSchemaExample } from '../../common/swagger/schema-types.js';
import { PassThroughObject } from '../../common/validation/pass-through.js';
import { ConfigurationDto } from './add-cart-line.dto.js';

/** PUT /v1/carts/{cart_id}/lines/{line_id}: new answers; the model and company are the line's. */
@ApiSchemaExample({
  language_code: 'en',
  questions: {
    width: { values: [1400] },
    height: { values: [1000] },
    frame: { values: ['alu'] },
    color: { values: ['anthracite'] },
  },
})
export class ReconfigureLineDto extends OmitType(ConfigurationDto, [
  'model_id',
  'company_id',
] as const) {}

// OmitType copies the validation and Swagger metadata, not the pass-through mark: without
// it, class-transformer deep-copied a PUT's answers (~3 ms of the main thread at 1,000).
PassThroughObject()(ReconfigureLineDto.prototype, 'questions');
