/**
 * Stage 1 of 3 (docs/ENGINE.md "Stages"): a model document (imports merged, see
 * source/) → a ValidatedModel, or every problem with its path. Checks every section and
 * every expression; nothing later refuses a model as invalid.
 */
export {
  validateModel,
  type QuestionSetters,
  type ValidatedModel,
} from '../validate/validate-model.js';
