// <product-configurator model-id base-url token company-id language>: configures one
// model through the public API (preview on each change, add to cart). The pages use it
// with a signed-in session (property `session`); a shop with an intent token (attribute).
// Events: `change` {line, valid} after each preview is shown, `added` {line} with the cart line;
// when reconfiguring a stored line (property `editing`), `saved` {line} and `edit-cancelled`.
// Its own texts follow `language` (else the browser's); `modeller` adds the problems only a
// modeller can fix (the workbench's "open in the configurator"), which buyers never see.
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import {
  actionKey,
  findCompanyModel,
  ApiFailure,
  dataOf,
  Session,
  type Answers,
  type AddedLine,
  type DescribedModel,
  type Line,
  type LineOption,
  type LineQuestion,
  type Value,
} from './api.js';
import { resolveLanguage, translator, type Translate } from './i18n/index.js';
import { barView, offerView, type Offer } from './bar-view.js';
import { answersOf, saveLine, type LineEdit } from './line-edit.js';
import {
  bomView,
  countView,
  failureView,
  imagesView,
  messagesView,
  priceView,
  variablesView,
} from './line-view.js';
import { reportFailure } from './console.js';
import { questionView, type QuestionHandlers } from './question-view.js';
import { configuratorStyles } from './styles.js';

/** Typing waits this long for a pause; a click previews at once. */
const TYPING_DEBOUNCE_MS = 300;

export class ProductConfigurator extends LitElement {
  static override styles = configuratorStyles;
  static override properties = {
    modelId: { type: Number, attribute: 'model-id' },
    companyId: { type: Number, attribute: 'company-id' },
    baseUrl: { type: String, attribute: 'base-url' },
    token: { type: String },
    language: { type: String },
    cartId: { type: String, attribute: 'cart-id' },
    modeller: { type: Boolean },
    session: { attribute: false },
    editing: { attribute: false },
    described: { state: true },
    line: { state: true },
    failure: { state: true },
    offer: { state: true },
    notice: { state: true },
  };

  declare modelId: number | undefined;
  declare companyId: number | undefined;
  declare baseUrl: string | undefined;
  declare token: string | undefined;
  declare language: string | undefined;
  declare cartId: string | undefined;
  declare modeller: boolean;
  declare session: Session | undefined;
  declare editing: LineEdit | undefined;
  declare described: DescribedModel | undefined;
  declare line: Line | undefined;
  declare failure: ApiFailure | undefined;
  declare offer: Offer | undefined;
  declare notice: string | undefined;

  private ownSession: Session | undefined;
  private answers: Answers = {};
  /** Field texts as typed, by question key (shown while they are the answer). */
  private typed: Record<string, string> = {};
  private company: number | undefined;
  private sequence = 0;
  private typing: ReturnType<typeof setTimeout> | undefined;
  private t: Translate = translator('en');
  private locale = 'en';

  /** The session given by the pages, else one of the `token` attribute (an intent token). */
  private get api(): Session {
    if (this.session) return this.session;
    const base = (this.baseUrl ?? location.origin).replace(/\/$/, '');
    this.ownSession ??= new Session(base, this.token ?? '');
    return this.ownSession;
  }

  constructor() {
    super();
    this.modeller = false;
  }

  /** The language asked of the API (labels, translated by the service): the attribute, else the browser's. */
  private get apiLanguage(): string {
    return this.language || (globalThis.navigator?.language ?? '').split('-')[0] || '';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('language') || !this.hasUpdated) {
      this.locale = resolveLanguage(this.language);
      this.t = translator(this.locale);
      this.lang = this.locale;
    }
    if (changed.has('token') || changed.has('baseUrl')) this.ownSession = undefined;
    const inputs = [
      'modelId',
      'companyId',
      'token',
      'baseUrl',
      'language',
      'session',
      'editing',
    ] as const;
    if (inputs.some((k) => changed.has(k)) && this.modelId) void this.load();
  }

  /** The company to configure for, the model's description, then a first preview. */
  private async load(): Promise<void> {
    this.failure = undefined;
    try {
      const { client } = this.api;
      this.company = this.companyId;
      if (!this.company) {
        const companies = dataOf(await client.GET('/v1/companies', {}));
        this.company = companies[0]?.id;
      }
      if (!this.company) throw new ApiFailure(404, this.t('error.noCompany'));
      this.described = await findCompanyModel(
        client,
        this.company,
        this.modelId!,
        this.apiLanguage,
      );
      // A stored line opens with its answers. The preview evaluates them on the model's
      // current version (POST /v1/carts/preview takes no version); saving evaluates them on
      // the line's own version, which the API keeps.
      const edit = this.editing;
      this.answers = edit && edit.line.model_id === this.modelId ? answersOf(edit.line) : {};
      this.typed = {};
      await this.preview();
    } catch (error) {
      this.fail(error);
    }
  }

  private body() {
    const questions: Record<string, { values: Value[] }> = {};
    for (const [key, values] of Object.entries(this.answers)) questions[key] = { values };
    return {
      model_id: this.modelId as number,
      company_id: this.company as number,
      questions,
      ...(this.apiLanguage ? { language_code: this.apiLanguage } : {}),
    };
  }

  /** Evaluates the answers; an answer that arrives after a newer request's is dropped. */
  private async preview(): Promise<void> {
    const mine = ++this.sequence;
    this.busy(true);
    try {
      const result = await this.api.client.POST('/v1/carts/preview', { body: this.body() });
      if (mine !== this.sequence) return;
      this.line = dataOf(result) as Line;
      this.failure = undefined;
      await this.updateComplete;
      this.emit('change', { line: this.line, valid: this.line.valid });
    } catch (error) {
      if (mine === this.sequence) this.fail(error);
    } finally {
      if (mine === this.sequence) this.busy(false);
    }
  }

  private schedule(settled: boolean): void {
    clearTimeout(this.typing);
    if (settled) void this.preview();
    else this.typing = setTimeout(() => void this.preview(), TYPING_DEBOUNCE_MS);
  }

  private emit(type: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  private fail(error: unknown): void {
    this.failure = error instanceof ApiFailure ? error : new ApiFailure(0, String(error));
    reportFailure(this.failure, this.api.baseUrl);
    this.busy(false);
  }

  /**
   * aria-busy on the element itself, not a reactive property: a render of every question
   * just to set it would run before the preview's request leaves (measured: ~40 ms of a
   * click on a 148-question model). The progress bar is CSS on this attribute, shown
   * only once an answer has taken 150 ms (styles.ts), so quick answers never flicker.
   */
  private busy(on: boolean): void {
    this.setAttribute('aria-busy', String(on));
  }

  private readonly handlers: QuestionHandlers = {
    choose: (question, option, on) => {
      if (!option.available) {
        this.offer = { question, option };
        return;
      }
      this.offer = undefined;
      this.pick(question, option, on);
      this.schedule(true);
    },
    set: (question, value, settled, typed) => {
      if (value === undefined) delete this.answers[question.key];
      else this.answers[question.key] = [value];
      if (typed === undefined || value === undefined) delete this.typed[question.key];
      else this.typed[question.key] = typed;
      this.schedule(settled);
    },
    clear: (question) => {
      delete this.answers[question.key];
      this.schedule(true);
    },
    ruleMessage: (key) => this.line?.rules.find((r) => r.key === key)?.message,
    questionLabel: (key) => this.line?.questions.find((q) => q.key === key)?.label ?? key,
    answered: (key) => key in this.answers,
    typed: (key) => (key in this.answers ? this.typed[key] : undefined),
    t: (key, params) => this.t(key, params),
  };

  private pick(question: LineQuestion, option: LineOption, on: boolean): void {
    if (question.type !== 'multi_choice') {
      this.answers[question.key] = [option.key];
      return;
    }
    const current = new Set((this.answers[question.key] ?? question.values).map(String));
    if (on) current.add(option.key);
    else current.delete(option.key);
    this.answers[question.key] = [...current];
  }

  /** The offer accepted: the conflicting answers go, the option is chosen. */
  private acceptOffer(): void {
    const offer = this.offer;
    if (!offer) return;
    for (const key of offer.option.conflicts_with ?? []) delete this.answers[key];
    this.offer = undefined;
    this.pick(offer.question, offer.option, true);
    this.schedule(true);
  }

  private async addToCart(): Promise<void> {
    this.notice = undefined;
    try {
      const result = await this.api.client.POST('/v1/carts', {
        body: { ...this.body(), ...(this.cartId ? { cart_id: this.cartId } : {}) },
        params: { header: { 'Idempotency-Key': actionKey() } },
      });
      const line = dataOf(result) as AddedLine;
      this.notice = this.t('action.added', {
        name: line.general.name,
        currency: line.pricing.currency,
        total: line.pricing.total,
      });
      this.emit('added', { line });
    } catch (error) {
      this.fail(error);
    }
  }

  private async saveChanges(): Promise<void> {
    if (!this.editing) return;
    this.notice = undefined;
    try {
      const line = await saveLine(this.api, this.editing, this.body().questions, this.apiLanguage);
      this.emit('saved', { line });
    } catch (error) {
      this.fail(error);
    }
  }

  private offerView(q: LineQuestion) {
    const offer = this.offer;
    if (!offer || offer.question.key !== q.key) return nothing;
    const labels = (offer.option.conflicts_with ?? []).map(this.handlers.questionLabel);
    return offerView(offer, labels, this.t, {
      accept: () => this.acceptOffer(),
      keep: () => (this.offer = undefined),
    });
  }

  override render() {
    const line = this.line;
    const t = this.t;
    const failure = this.failure ? failureView(this.failure, t) : nothing;
    if (!line)
      return html`${failure}
        <p class="loading">${this.failure ? '' : t('loading')}</p>`;
    const described = new Map((this.described?.questions ?? []).map((q) => [q.key, q]));
    return html`<div class="layout">
      <header>
        <h2>${line.general.name}</h2>
        ${line.general.description ? html`<p>${line.general.description}</p>` : nothing}
        ${countView(line, t, this.locale)}
      </header>
      ${failure}
      <form
        class="questions"
        aria-label=${t('configurator.questions')}
        @submit=${(e: Event) => e.preventDefault()}
      >
        ${line.questions.map(
          (q) => html`${questionView(q, described.get(q.key), this.handlers)}${this.offerView(q)}`,
        )}
      </form>
      <div class="side">
        ${barView(line, t, {
          editing: this.editing !== undefined,
          notice: this.notice,
          add: () => this.addToCart(),
          save: () => this.saveChanges(),
          cancel: () => this.emit('edit-cancelled', {}),
        })}
        <aside class="summary" aria-label=${t('configurator.summary')}>
          ${imagesView(line, this.api.baseUrl, t)} ${variablesView(line, t, this.locale)}
          ${priceView(line, t)} ${messagesView(line, t, this.modeller)} ${bomView(line, t)}
        </aside>
      </div>
    </div>`;
  }
}

if (!customElements.get('product-configurator')) {
  customElements.define('product-configurator', ProductConfigurator);
}
