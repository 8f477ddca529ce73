import type { SchemaObject } from '@nestjs/swagger';
import { load } from 'js-yaml';
import { WINDOW_MODEL_YAML } from '../upload/window-example.js';
import { EXTRA_SCHEMAS } from '../../common/swagger/schema-types.js';
import { QUESTION_TYPES } from '../../common/swagger/engine-enums.js';

/**
 * The model document (docs/model-format.md) as OpenAPI schemas: what an upload takes and
 * GET /v1/models/{id} answers as `definition`. The engine's reader is the authority (it
 * refuses unknown members); these schemas name every member it reads, so a generated client
 * gets types. A document may also carry `x-` keys at its top (kept as they are).
 */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const text = (description?: string): SchemaObject => ({ type: 'string', description });
const cel = (description: string): SchemaObject => ({
  type: 'string',
  description: `CEL: ${description}`,
});
const decimal: SchemaObject = { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' };
/** A literal or a CEL expression (a string), as `required` and `quantity` take. */
const literalOrCel = (literal: SchemaObject, description: string): SchemaObject => ({
  oneOf: [literal, { type: 'string' }],
  description,
});
const list = (item: SchemaObject | { $ref: string }, description?: string): SchemaObject => ({
  type: 'array',
  items: item,
  description,
});
const closed = (
  required: string[],
  properties: Record<string, SchemaObject | { $ref: string }>,
): SchemaObject => ({ type: 'object', required, properties, additionalProperties: false });

/** Literals of a logical rule: `question = option`, `question != option`, `flag`, `!flag`. */
const literals = (description: string): SchemaObject =>
  list(
    { type: 'string' },
    `${description} (literals: 'q = option', 'q != option', 'flag', '!flag')`,
  );
const bound = (description: string): SchemaObject => ({
  ...closed(['count', 'of'], {
    count: { type: 'integer', format: 'int32', minimum: 0 },
    of: literals('The literals counted'),
  }),
  description,
});

const SCHEMAS: Record<string, SchemaObject> = {
  ModelGeneral: {
    ...closed(['name'], {
      name: text(),
      code: text('Stable key within the supplier (unique: a second model with it is 409)'),
      description: text(),
      currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 (default EUR)' },
      default_language: text('Default en'),
      valid_from: text('Date or date-time (inclusive, UTC)'),
      valid_until: text('Date or date-time (inclusive, UTC)'),
    }),
    example: {
      name: 'Casement window',
      code: 'WIN-CASEMENT',
      currency: 'EUR',
      default_language: 'en',
    },
  },
  ModelImport: {
    type: 'object',
    description: 'A fragment of the zip (`path`) or another model of the supplier (`model_id`)',
    properties: {
      path: text(),
      model_id: { type: 'integer', format: 'int32', minimum: 1 },
      version_number: { type: 'integer', format: 'int32', minimum: 1 },
    },
    additionalProperties: false,
  },
  ModelOption: closed(['key', 'label'], {
    key: text(),
    label: text(),
    description: text(),
    price: { ...decimal, description: 'Added once when the option is selected' },
    available_if: cel('true when the option may be chosen'),
    image: text('A path of the zip or an https URL'),
  }),
  ModelQuestion: closed(['key', 'type', 'label'], {
    key: text(),
    type: { type: 'string', enum: [...QUESTION_TYPES] },
    label: text(),
    description: text(),
    unit: text(),
    required: literalOrCel({ type: 'boolean' }, 'true/false or a CEL condition'),
    visible_if: cel('visible when true'),
    default: { description: 'A literal of the question type' },
    default_expr: cel('the default'),
    options: list(ref('ModelOption')),
    min_selected: { type: 'integer', format: 'int32' },
    max_selected: { type: 'integer', format: 'int32' },
    min: { type: 'number' },
    max: { type: 'number' },
    step: { type: 'number' },
    min_length: { type: 'integer', format: 'int32' },
    max_length: { type: 'integer', format: 'int32' },
  }),
  ModelVariable: closed(['key', 'expr'], {
    key: text(),
    expr: cel('the value'),
    label: text(),
    display: {
      type: 'boolean',
      description: 'Shown to buyers in the line (`displayed_variables`); needs a label',
    },
    unit: text(),
  }),
  ModelRule: closed(['key'], {
    key: text(),
    when: cel('the rule applies when true'),
    severity: { type: 'string', enum: ['error', 'warning'] },
    message: text('Required, except on a logical rule (its key is then shown)'),
    assert: cel('must be true'),
    allowed: closed(['columns', 'rows'], {
      columns: list({ type: 'string' }, 'Question keys'),
      rows: list(list({}), 'One value per column'),
    }),
    clause: literals('At least one literal holds'),
    at_least: bound('At least `count` literals hold'),
    at_most: bound('At most `count` literals hold'),
    requires: literals('[a, b]: a does not hold or b holds'),
    excludes: literals('[a, b]: a and b do not both hold'),
  }),
  ModelTrigger: closed(['key', 'when', 'set'], {
    key: text(),
    when: cel('fires when true'),
    set: {
      type: 'object',
      additionalProperties: {},
      description: 'By question key: a literal, or {expr: CEL}',
    },
    message: text(),
  }),
  ModelBomItem: closed(['key', 'sku', 'description'], {
    key: text(),
    sku: text(),
    description: text(),
    when: cel('included when true'),
    quantity: literalOrCel({ type: 'number' }, 'A number or CEL (default 1); per parent unit'),
    unit: text(),
    unit_price: { ...decimal, description: 'The price of one unit' },
    price_expr: cel('the price of one unit'),
    children: list(ref('ModelBomItem')),
  }),
  ModelAdjustment: closed(['key', 'label'], {
    key: text(),
    label: text(),
    when: cel('applies when true'),
    amount: { ...decimal, description: 'Added to the total (negative: a discount)' },
    percent: { ...decimal, description: 'A percentage of the subtotal' },
    expr: cel('the amount added to the total'),
  }),
  ModelPricing: closed([], {
    base_price: decimal,
    adjustments: list(ref('ModelAdjustment')),
    rounding: closed([], {
      scale: { type: 'integer', format: 'int32' },
      mode: { type: 'string', enum: ['half_up', 'half_even'] },
    }),
  }),
  ModelImage: closed(['key', 'src'], {
    key: text(),
    src: text('A path of the zip or an https URL'),
    when: cel('shown when true'),
    layer: { type: 'integer', format: 'int32' },
    alt: text(),
  }),
  ModelDefinition: {
    type: 'object',
    description: 'A model document (docs/model-format.md); `x-` keys are kept as they are',
    example: load(WINDOW_MODEL_YAML),
    required: ['general'],
    properties: {
      general: ref('ModelGeneral'),
      imports: list(ref('ModelImport')),
      questions: list(ref('ModelQuestion')),
      variables: list(ref('ModelVariable')),
      rules: list(ref('ModelRule')),
      triggers: list(ref('ModelTrigger')),
      bom_items: list(ref('ModelBomItem')),
      pricing: ref('ModelPricing'),
      translation: {
        type: 'object',
        additionalProperties: { type: 'object', additionalProperties: { type: 'string' } },
        description: 'By language code: texts by path (general.name, questions.<key>.label, …)',
      },
      images: list(ref('ModelImage')),
    },
    additionalProperties: true,
  },
};

for (const [name, schema] of Object.entries(SCHEMAS)) EXTRA_SCHEMAS.set(name, schema);

/** The schema of a model document, to `$ref`. */
export const MODEL_DEFINITION_REF = ref('ModelDefinition');
/** The schema of a model's general section, to `$ref`. */
export const MODEL_GENERAL_REF = ref('ModelGeneral');
