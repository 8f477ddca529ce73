// The API client: openapi-fetch typed by the committed OpenAPI document (npm run openapi),
// so no request or answer shape is written by hand here.
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../../test/client/openapi.js';

export type Schemas = components['schemas'];
export type Line = Schemas['PreviewLineDto'];
/** A preview in the compact view (`?view=compact`), which the configure page asks for. */
export type CompactLine = Schemas['CompactPreviewLineDto'];
export type CompactQuestion = Schemas['CompactLineQuestionDto'];
export type CompactBomItem = Schemas['CompactLineBomItemDto'];
export type CartLine = Schemas['CartLineDto'];
export type AddedLine = Schemas['AddedCartLineDto'];
export type LineQuestion = Schemas['LineQuestionDto'];
export type LineOption = Schemas['LineOptionDto'];
export type BomItem = Schemas['LineBomItemDto'];
export type Problem = Schemas['ProblemDto'];
export type DescribedModel = Schemas['CompanyModelDto'];
export type DescribedQuestion = Schemas['DescribedQuestionDto'];
export type Cart = Schemas['CartDetailDto'];
export type ModelDetail = Schemas['ModelDetailDto'];
export type Value = number | string | boolean;
export type Answers = Record<string, Value[]>;
export type ApiClient = Client<paths>;

/** A failed call: the envelope's message and problems. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problems: Problem[] = [],
  ) {
    super(message);
  }
}

interface Envelope<T> {
  data?: T;
  message?: string;
  errors?: Problem[];
}

/** The data of an openapi-fetch answer, or an ApiFailure with the envelope's problems. */
export function dataOf<T>(result: { data?: Envelope<T>; error?: unknown; response: Response }): T {
  if (result.response.ok && result.data?.data !== undefined) return result.data.data;
  const body = (result.error ?? {}) as Envelope<unknown>;
  throw new ApiFailure(
    result.response.status,
    body.message ?? result.response.statusText,
    body.errors,
  );
}

/** Seconds since the epoch at which a JWT lapses (0 when it cannot be read). */
function expiryOf(jwt: string): number {
  try {
    const payload = jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return (JSON.parse(atob(payload)) as { exp?: number }).exp ?? 0;
  } catch {
    return 0;
  }
}

/**
 * Who the pages act for. Tokens live in this object only, never in localStorage or a
 * cookie: a script injected later cannot read what a reload has dropped. With a refresh
 * token (a password sign-in), the access token is renewed shortly before it lapses.
 */
export class Session {
  readonly client: ApiClient;
  private refreshing: Promise<void> | undefined;

  constructor(
    readonly baseUrl: string,
    private access: string,
    private refreshToken?: string,
    /** 'jwt' after a sign-in; 'intent' for a shop's intent token (carts and companies only). */
    readonly kind: 'jwt' | 'intent' = refreshToken ? 'jwt' : 'intent',
  ) {
    this.client = createClient<paths>({ baseUrl });
    this.client.use({
      onRequest: async ({ request }) => {
        // The refresh token travels in the body; an access token would add nothing.
        if (request.url.endsWith('/v1/refresh')) return request;
        await this.fresh();
        request.headers.set('Authorization', `Bearer ${this.access}`);
        return request;
      },
    });
  }

  /** Signs in with email and password: a session that refreshes itself. */
  static async login(baseUrl: string, email: string, password: string): Promise<Session> {
    const client = createClient<paths>({ baseUrl });
    const pair = dataOf(await client.POST('/v1/login', { body: { email, password } }));
    return new Session(baseUrl, pair.access_token, pair.refresh_token, 'jwt');
  }

  /** The Authorization header for plain fetches (model images). */
  async authorization(): Promise<string> {
    await this.fresh();
    return `Bearer ${this.access}`;
  }

  async logout(): Promise<void> {
    if (this.kind === 'jwt') await this.client.POST('/v1/logout', { body: {} });
    this.refreshToken = undefined;
  }

  /** Renews the access token 30 s before it lapses; concurrent callers share one renewal. */
  private async fresh(): Promise<void> {
    if (!this.refreshToken || expiryOf(this.access) - Date.now() / 1000 > 30) return;
    this.refreshing ??= (async () => {
      const refresh_token = this.refreshToken as string;
      const pair = dataOf(await this.client.POST('/v1/refresh', { body: { refresh_token } }));
      this.access = pair.access_token;
      this.refreshToken = pair.refresh_token;
    })().finally(() => (this.refreshing = undefined));
    await this.refreshing;
  }
}

/** An Idempotency-Key per user action (randomUUID needs a secure context; a shop may not be one). */
export function actionKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
}

/** The given company, else the caller's first one; 404 (`message`) when they have none. */
export async function companyToConfigure(
  client: ApiClient,
  companyId: number | undefined,
  message: string,
): Promise<number> {
  const company = companyId || dataOf(await client.GET('/v1/companies', {}))[0]?.id;
  if (!company) throw new ApiFailure(404, message);
  return company;
}

/** A model the company may configure, described in `language` (its list, page by page). */
export async function findCompanyModel(
  client: ApiClient,
  companyId: number,
  modelId: number,
  language: string,
): Promise<DescribedModel> {
  for (let page = 1; ; page++) {
    const result = await client.GET('/v1/companies/{id}/models', {
      params: { path: { id: companyId }, query: { page, per_page: 200, language_code: language } },
    });
    const models = dataOf(result);
    const found = models.find((m) => m.id === modelId);
    if (found) return found;
    if (models.length < 200)
      throw new ApiFailure(404, `Model ${modelId} is not offered to company ${companyId}`);
  }
}
