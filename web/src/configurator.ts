// <product-configurator model-id base-url token company-id language>: configures one
// model through the public API (preview on each change, add to cart). The pages use it
// with a signed-in session (property `session`); a shop with an intent token (attribute).
// Events: `change` {line, valid} after each preview is shown, `added` {line} with the cart line;
// when reconfiguring a stored line (property `editing`), `saved` {line} and `edit-cancelled`.
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import {
  actionKey,
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
import { AssetCache } from './assets.js';
import { companyToConfigure, describedModel } from './model-lookup.js';
import {
  carriedOver,
  cheapestAnswers,
  cheapestButton,
  pickOffer,
  pickOfferView,
  priceRangeView,
  versionMoveView,
  type GuidedPreview,
  type PickOffer,
  type VersionMove,
} from './guidance.js';
import { actionsView, answersOf, saveLine, type LineEdit } from './line-edit.js';
import {
  bomView,
  countView,
  failureView,
  imagesView,
  messagesView,
  priceView,
} from './line-view.js';
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
    session: { attribute: false },
    editing: { attribute: false },
    described: { state: true },
    line: { state: true },
    failure: { state: true },
    offer: { state: true },
    moved: { state: true },
    notice: { state: true },
  };

  declare modelId: number | undefined;
  declare companyId: number | undefined;
  declare baseUrl: string | undefined;
  declare token: string | undefined;
  declare language: string | undefined;
  declare cartId: string | undefined;
  declare session: Session | undefined;
  declare editing: LineEdit | undefined;
  declare described: DescribedModel | undefined;
  declare line: Line | undefined;
  declare failure: ApiFailure | undefined;
  declare offer: PickOffer | undefined;
  /** A stored line whose model moved on: opened on the current version, saved there. */
  declare moved: VersionMove | undefined;
  declare notice: string | undefined;

  private ownSession: Session | undefined;
  private answers: Answers = {};
  /** Field texts as typed, by question key (shown while they are the answer). */
  private typed: Record<string, string> = {};
  private company: number | undefined;
  private sequence = 0;
  private typing: ReturnType<typeof setTimeout> | undefined;
  private readonly assets = new AssetCache(() => this.requestUpdate());

  /** The session given by the pages, else one of the `token` attribute (an intent token). */
  private get api(): Session {
    if (this.session) return this.session;
    const base = (this.baseUrl ?? location.origin).replace(/\/$/, '');
    this.ownSession ??= new Session(base, this.token ?? '');
    return this.ownSession;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
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

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.assets.clear();
  }

  /** The company to configure for, the model's description, then a first preview. */
  private async load(): Promise<void> {
    this.failure = undefined;
    try {
      this.company = await companyToConfigure(this.api, this.companyId);
      this.described = await describedModel(this.api, this.company, this.modelId, this.language);
      // A stored line opens with its answers. The preview evaluates them on the model's
      // current version: a line whose model moved on is carried over to it (the nearest
      // valid configuration, its changes shown) and saved there, so that what the preview
      // calls valid is what the save accepts.
      const edit = this.editing;
      this.answers = edit && edit.line.model_id === this.modelId ? answersOf(edit.line) : {};
      this.typed = {};
      this.moved = undefined;
      this.offer = undefined;
      const latest = edit?.line.latest_version_number;
      if (edit && latest && edit.line.model_id === this.modelId) {
        const from = edit.line.version_number;
        ({ answers: this.answers, moved: this.moved } = await carriedOver(
          this.guided,
          this.answers,
          from,
          latest,
        ));
      }
      await this.preview();
    } catch (error) {
      this.fail(error);
    }
  }

  /** A preview with guidance (`resolve`, `complete`), outside the sequence of clicks. */
  private readonly guided: GuidedPreview = async (guided, answers) => {
    const body = { ...this.body(answers), ...guided };
    return dataOf(await this.api.client.POST('/v1/carts/preview', { body })) as Line;
  };

  private body(answers: Answers = this.answers) {
    const questions: Record<string, { values: Value[] }> = {};
    for (const [key, values] of Object.entries(answers)) questions[key] = { values };
    return {
      model_id: this.modelId as number,
      company_id: this.company as number,
      questions,
      ...(this.language ? { language_code: this.language } : {}),
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
      this.assets.want(
        this.line.images.map((i) => i.url),
        this.api,
      );
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
    this.busy(false);
  }

  /**
   * aria-busy on the element itself, not a reactive property: a render of every question
   * just to set it would run before the preview's request leaves (measured: ~40 ms of a
   * click on a 148-question model).
   */
  private busy(on: boolean): void {
    this.setAttribute('aria-busy', String(on));
  }

  private readonly handlers: QuestionHandlers = {
    choose: (question, option, on) => {
      if (!option.available) {
        this.offer = { question, option };
        void this.resolveOffer(question, option);
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
    currency: () => this.line?.pricing.currency ?? '',
    questionLabel: (key) => this.line?.questions.find((q) => q.key === key)?.label ?? key,
    answered: (key) => key in this.answers,
    typed: (key) => (key in this.answers ? this.typed[key] : undefined),
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

  /** The nearest valid configuration with the picked option: what the offer says. */
  private async resolveOffer(question: LineQuestion, option: LineOption): Promise<void> {
    try {
      const offer = await pickOffer(this.guided, this.answers, question, option);
      if (this.offer?.option === option) this.offer = offer;
    } catch (error) {
      this.fail(error);
    }
  }

  /** The offer accepted in one click: the pick and the changes it needs. */
  private acceptOffer(): void {
    const answers = this.offer?.answers;
    if (!answers) return;
    this.answers = answers;
    this.offer = undefined;
    this.schedule(true);
  }

  /** The unanswered questions filled with a cheapest valid completion, then previewed. */
  private async completeCheapest(): Promise<void> {
    try {
      this.answers = await cheapestAnswers(this.guided, this.answers);
      this.schedule(true);
    } catch (error) {
      this.fail(error);
    }
  }

  private async addToCart(): Promise<void> {
    this.notice = undefined;
    try {
      const result = await this.api.client.POST('/v1/carts', {
        body: { ...this.body(), ...(this.cartId ? { cart_id: this.cartId } : {}) },
        params: { header: { 'Idempotency-Key': actionKey() } },
      });
      const line = dataOf(result) as AddedLine;
      this.notice = `Added to the cart: ${line.general.name}, ${line.pricing.currency} ${line.pricing.total}.`;
      this.emit('added', { line });
    } catch (error) {
      this.fail(error);
    }
  }

  private async saveChanges(): Promise<void> {
    if (!this.editing) return;
    this.notice = undefined;
    try {
      const version = this.moved ? 'latest' : undefined;
      const { questions } = this.body();
      const line = await saveLine(this.api, this.editing, questions, this.language, version);
      this.emit('saved', { line });
    } catch (error) {
      this.fail(error);
    }
  }

  private offerView(q: LineQuestion) {
    const offer = this.offer;
    if (!offer || offer.question.key !== q.key) return nothing;
    return pickOfferView(offer, this.line?.questions ?? [], {
      accept: () => this.acceptOffer(),
      dismiss: () => (this.offer = undefined),
    });
  }

  override render() {
    const line = this.line;
    const failure = this.failure ? failureView(this.failure) : nothing;
    if (!line)
      return html`${failure}
        <p class="loading">${this.failure ? '' : 'Loading…'}</p>`;
    const described = new Map((this.described?.questions ?? []).map((q) => [q.key, q]));
    return html`<div class="layout">
      <header>
        <h2>${line.general.name}</h2>
        ${line.general.description ? html`<p>${line.general.description}</p>` : nothing}
        ${countView(line)}
      </header>
      ${failure} ${this.moved ? versionMoveView(this.moved, line.questions) : nothing}
      <form class="questions" aria-label="Questions" @submit=${(e: Event) => e.preventDefault()}>
        ${line.questions.map(
          (q) => html`${questionView(q, described.get(q.key), this.handlers)}${this.offerView(q)}`,
        )}
      </form>
      <aside class="summary" aria-label="Summary">
        ${imagesView(line, (url) => this.assets.src(url))} ${priceView(line)}
        ${priceRangeView(line)} ${messagesView(line)}
        ${cheapestButton(line, () => void this.completeCheapest())}
        ${actionsView(line.valid, this.editing !== undefined, {
          add: () => this.addToCart(),
          save: () => this.saveChanges(),
          cancel: () => this.emit('edit-cancelled', {}),
        })}
        ${this.notice ? html`<p class="notice" role="status">${this.notice}</p>` : nothing}
        ${bomView(line)}
      </aside>
    </div>`;
  }
}

if (!customElements.get('product-configurator')) {
  customElements.define('product-configurator', ProductConfigurator);
}
