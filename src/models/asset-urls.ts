/** `/v1/companies/{id}/models/{model_id}/assets/{path}?version=n`: what cart lines link to. */
export function companyAssetUrl(
  companyId: number,
  modelId: number,
  versionNumber: number,
  path: string,
): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return `/v1/companies/${companyId}/models/${modelId}/assets/${encoded}?version=${versionNumber}`;
}
