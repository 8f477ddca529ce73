// What the configurator configures: the company it buys for and the model's description
// as that company sees it (GET /v1/companies/{id}/models, paged).
import { ApiFailure, dataOf, type DescribedModel, type Session } from './api.js';

/** The given company, else the caller's first one (404 when they have none). */
export async function companyToConfigure(
  api: Session,
  companyId: number | undefined,
): Promise<number> {
  const company =
    companyId || dataOf(await api.client.GET('/v1/companies', {}))[0]?.id || undefined;
  if (!company) throw new ApiFailure(404, 'You may configure for no company.');
  return company;
}

/** The model as the company sees it, in `language`; 404 when it is not offered to it. */
export async function describedModel(
  api: Session,
  company: number,
  modelId: number | undefined,
  language: string | undefined,
): Promise<DescribedModel> {
  for (let page = 1; ; page++) {
    const result = await api.client.GET('/v1/companies/{id}/models', {
      params: { path: { id: company }, query: { page, per_page: 200, language_code: language } },
    });
    const models = dataOf(result);
    const found = models.find((m) => m.id === modelId);
    if (found) return found;
    if (models.length < 200)
      throw new ApiFailure(404, `Model ${modelId} is not offered to this company.`);
  }
}
