import type { RequestBodyObject } from '@nestjs/swagger';
import { load } from 'js-yaml';
import { WINDOW_MODEL_YAML } from './window-example.js';
import { MODEL_DEFINITION_REF } from '../dto/model-definition.schema.js';

// Examples on the media types (what Swagger UI prefills), not inside the schemas.
const yamlBody = {
  schema: { type: 'string' as const, description: 'The model document in YAML' },
  example: WINDOW_MODEL_YAML,
};

/**
 * The request body of a model upload in OpenAPI terms: one schema per content type,
 * because a raw JSON document, YAML text, a zip and a multipart form differ.
 */
export const MODEL_UPLOAD_BODY: RequestBodyObject = {
  required: true,
  description:
    'The model (see docs/model-format.md; examples/window.yaml is one) as the raw body with its Content-Type, or as ' +
    'multipart/form-data with a part named `file` (its content type or file extension, ' +
    '.json .yaml .yml .zip, picks the format). A zip holds model.yaml / model.yml / ' +
    'model.json at its root plus the fragments and images it refers to.',
  content: {
    'application/json': {
      schema: MODEL_DEFINITION_REF,
      example: load(WINDOW_MODEL_YAML),
    },
    'application/yaml': yamlBody,
    'application/x-yaml': yamlBody,
    'text/yaml': yamlBody,
    'application/zip': { schema: { type: 'string', format: 'binary' } },
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          file: {
            type: 'string',
            format: 'binary',
            description: 'model.json, model.yaml or a zip archive',
          },
        },
      },
    },
  },
};
