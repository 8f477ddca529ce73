// The pages at /app: sign in (email and password, or an intent token handed over in the
// URL fragment: /app/#intent=<token>&model=<id>), then configure, the cart, and for
// suppliers the model workbench.
import { html, LitElement, nothing } from 'lit';
import { ApiFailure, dataOf, Session, type Schemas } from './api.js';
import './cart.js';
import './configurator.js';
import { resolveLanguage, translator, type Translate } from './i18n/index.js';
import type { LineEdit } from './line-edit.js';
import { failureText } from './problems.js';
import { baseStyles } from './styles.js';
import { shellStyles } from './shell-styles.js';
import './workbench.js';

type View = 'configure' | 'cart' | 'workbench';
type Company = Schemas['CompanyDto'];
type Model = Schemas['CompanyModelDto'];

/** `#intent=…&model=…&company=…&lang=…`, read once and then removed from the address bar. */
function takeFragment(): URLSearchParams {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  if (params.has('intent')) history.replaceState(null, '', location.pathname + location.search);
  return params;
}

export class ConfiguratorApp extends LitElement {
  static override styles = [baseStyles, shellStyles];
  static override properties = {
    session: { state: true },
    view: { state: true },
    companies: { state: true },
    companyId: { state: true },
    models: { state: true },
    modelId: { state: true },
    language: { state: true },
    editing: { state: true },
    failure: { state: true },
    modeller: { state: true },
  };

  declare session: Session | undefined;
  declare view: View;
  declare companies: Company[];
  declare companyId: number | undefined;
  declare models: Model[];
  declare modelId: number | undefined;
  declare language: string;
  /** The cart line being reconfigured in the configurator, if any. */
  declare editing: LineEdit | undefined;
  declare failure: ApiFailure | undefined;
  /** Opened from the workbench: the configurator also shows what only the modeller can fix. */
  declare modeller: boolean;
  private t: Translate = translator('en');
  private locale = 'en'; // the catalog language the pages are shown in

  constructor() {
    super();
    this.view = 'configure';
    this.companies = [];
    this.models = [];
    this.language = '';
    this.modeller = false;
    const fragment = takeFragment();
    const intent = fragment.get('intent');
    const model = Number(fragment.get('model'));
    if (model > 0) this.modelId = model;
    const company = Number(fragment.get('company'));
    if (company > 0) this.companyId = company;
    this.language = fragment.get('lang') ?? '';
    if (intent) void this.start(new Session(location.origin, intent));
  }

  private async start(session: Session): Promise<void> {
    this.session = session;
    this.failure = undefined;
    try {
      this.companies = dataOf(await session.client.GET('/v1/companies', {}));
    } catch (error) {
      // GET /v1/companies answers 404 when the user sees no company.
      if (!(error instanceof ApiFailure && error.status === 404)) return this.fail(error);
      this.companies = [];
    }
    if (!this.companies.some((c) => c.id === this.companyId))
      this.companyId = this.companies[0]?.id;
    await this.loadModels();
  }

  private async loadModels(): Promise<void> {
    if (!this.session || !this.companyId) return;
    try {
      const result = await this.session.client.GET('/v1/companies/{id}/models', {
        params: { path: { id: this.companyId }, query: { per_page: 200 } },
      });
      this.models = dataOf(result);
      if (!this.models.some((m) => m.id === this.modelId)) this.modelId = this.models[0]?.id;
    } catch (error) {
      this.fail(error);
    }
  }

  protected override willUpdate(): void {
    this.locale = resolveLanguage(this.language);
    this.t = translator(this.locale);
    document.documentElement.lang = this.locale;
  }

  private fail(error: unknown): void {
    this.failure = error instanceof ApiFailure ? error : new ApiFailure(0, String(error));
  }

  private async signIn(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    try {
      const session = await Session.login(
        location.origin,
        String(form.get('email')),
        String(form.get('password')),
      );
      await this.start(session);
    } catch (error) {
      this.fail(error);
    }
  }

  private async signOut(): Promise<void> {
    await this.session?.logout().catch(() => undefined);
    this.session = undefined;
    this.models = [];
    this.companies = [];
  }

  /** The workbench's "open in the configurator". */
  private async open(event: CustomEvent<{ modelId: number; companyId?: number }>): Promise<void> {
    if (event.detail.companyId) this.companyId = event.detail.companyId;
    this.modeller = true;
    this.modelId = event.detail.modelId;
    await this.loadModels();
    this.modelId = event.detail.modelId;
    this.view = 'configure';
  }

  /** The cart's "Reconfigure": the configurator on the line's company, model and language. */
  private async reconfigure(event: CustomEvent<LineEdit>): Promise<void> {
    const { line } = event.detail;
    this.companyId = line.company_id;
    this.language = line.language_code ?? '';
    await this.loadModels();
    this.modelId = line.model_id;
    this.editing = event.detail;
    this.modeller = false;
    this.view = 'configure';
  }

  /** Saved or cancelled: back to the cart, which reads the cart again. */
  private endEdit(): void {
    this.editing = undefined;
    this.view = 'cart';
  }

  private signInView() {
    const t = this.t;
    return html`<main class="signin card">
      <h1>${t('signin.title')}</h1>
      <form @submit=${(e: SubmitEvent) => this.signIn(e)}>
        <label for="email">${t('signin.email')}</label>
        <input id="email" name="email" type="email" autocomplete="username" required />
        <label for="password">${t('signin.password')}</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
        />
        <button class="primary" type="submit">${t('signin.submit')}</button>
      </form>
      ${
        this.failure
          ? html`<p class="failure" role="alert">
              ${this.failure.status === 401 ? t('error.login') : failureText(this.failure, t)}
            </p>`
          : nothing
      }
      <p class="hint">${t('signin.hint')} <code>/app/#intent=…</code></p>
    </main>`;
  }

  private pickers() {
    const t = this.t;
    return html`<div class="pickers">
      <label for="company">${t('pickers.company')}</label>
      <select
        id="company"
        @change=${(e: Event) => {
          this.editing = undefined;
          this.companyId = Number((e.target as HTMLSelectElement).value);
          void this.loadModels();
        }}
      >
        ${this.companies.map((c) => html`<option value=${c.id} ?selected=${c.id === this.companyId}>${c.name}</option>`)}
      </select>
      <label for="model">${t('pickers.model')}</label>
      <select
        id="model"
        @change=${(e: Event) => {
          this.editing = undefined;
          this.modelId = Number((e.target as HTMLSelectElement).value);
        }}
      >
        ${this.models.map(
          (m) =>
            html`<option value=${m.id} ?selected=${m.id === this.modelId}>
              ${String(m.general.name ?? m.id)}
            </option>`,
        )}
      </select>
      <label for="language">${t('pickers.language')}</label>
      <input
        id="language"
        size="12"
        placeholder=${t('pickers.language.browser')}
        .value=${this.language}
        @change=${(e: Event) => (this.language = (e.target as HTMLInputElement).value.trim())}
      />
    </div>`;
  }

  private configureView() {
    const t = this.t;
    if (!this.companyId) return html`<p>${t('configure.noCompany')}</p>`;
    if (!this.modelId)
      return html`${this.pickers()}
        <p>${t('configure.noModel')}</p>`;
    return html`<h1>
        ${
          this.editing
            ? t('configure.reconfigure', { name: this.editing.line.general.name })
            : t('configure.title')
        }
      </h1>
      ${this.pickers()}
      <product-configurator
        .session=${this.session}
        .editing=${this.editing}
        ?modeller=${this.modeller}
        model-id=${this.modelId}
        company-id=${this.companyId}
        language=${this.language || nothing}
      ></product-configurator>`;
  }

  override render() {
    if (!this.session) return this.signInView();
    const t = this.t;
    const tab = (view: View, label: string) =>
      html`<button
        type="button"
        aria-current=${this.view === view ? 'page' : nothing}
        @click=${() => {
          this.editing = undefined;
          if (view !== 'configure') this.modeller = false;
          this.view = view;
        }}
      >
        ${label}
      </button>`;
    return html`<header class="top">
        <span class="brand">${t('brand')}</span>
        <nav aria-label=${t('nav.label')}>
          ${tab('configure', t('nav.configure'))} ${tab('cart', t('nav.cart'))}
          ${this.session.kind === 'jwt' ? tab('workbench', t('nav.workbench')) : nothing}
        </nav>
        <button type="button" class="link" @click=${() => this.signOut()}>
          ${t('nav.signout')}
        </button>
      </header>
      <main
        @open-model=${(e: CustomEvent<{ modelId: number; companyId?: number }>) => this.open(e)}
        @reconfigure-line=${(e: CustomEvent<LineEdit>) => this.reconfigure(e)}
        @saved=${() => this.endEdit()}
        @edit-cancelled=${() => this.endEdit()}
      >
        ${this.failure ? html`<p class="failure" role="alert">${failureText(this.failure, t)}</p>` : nothing}
        ${this.view === 'configure' ? this.configureView() : nothing}
        ${this.view === 'cart' ? html`<cfg-cart .session=${this.session} .t=${t}></cfg-cart>` : nothing}
        ${
          this.view === 'workbench'
            ? html`<cfg-workbench
                .session=${this.session}
                .companies=${this.companies}
                .locale=${this.locale}
              ></cfg-workbench>`
            : nothing
        }
      </main>`;
  }
}

customElements.define('cfg-app', ConfiguratorApp);
