// <product-configurator model-id base-url token company-id language>: configures one
// model through the public API (preview on each change, add to cart). The pages use it
// with a signed-in session (property `session`); a shop with an intent token (attribute).
// Events: `change` {line, valid} after each preview is shown (the line made whole from the
// compact view, full-line.ts), `added` {line} with the cart line;
// when reconfiguring a stored line (property `editing`), `saved` {line} and `edit-cancelled`.
// Its own texts follow `language` (else the browser's); `modeller` adds the problems only a
// modeller can fix (the workbench's "open in the configurator"), which buyers never see.
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { ApiFailure, Session, type Answers, type DescribedModel, type Line } from './api.js';
import { resolveLanguage, translator, type Translate } from './i18n/index.js';
import {
  cheapestAnswers,
  pickOffer,
  type GuidedPreview,
  type PickOffer,
  type VersionMove,
} from './guidance.js';
import { commitLine, type LineEdit } from './line-edit.js';
import {
  clickPreview,
  guidedPreview,
  openModel,
  previewBody,
  type PreviewTarget,
} from './configurator-open.js';
import { failureView } from './line-view.js';
import { configuratorView } from './configurator-view.js';
import { reportFailure } from './console.js';
import { questionHandlers } from './answer-handlers.js';
import { PreviewSequence } from './preview-sequence.js';
import { configuratorStyles } from './styles.js';

/** The inputs that load the model and preview again. */
const RELOADS: readonly (keyof ProductConfigurator)[] = [
  'modelId',
  'companyId',
  'token',
  'baseUrl',
  'language',
  'session',
  'editing',
];

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
    moved: { state: true },
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
  declare offer: PickOffer | undefined;
  /** A stored line whose model moved on: opened on the current version, saved there. */
  declare moved: VersionMove | undefined;
  declare notice: string | undefined;

  private ownSession: Session | undefined;
  private answers: Answers = {};
  /** Field texts as typed, by question key (shown while they are the answer). */
  private typed: Record<string, string> = {};
  private company: number | undefined;
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
    if (RELOADS.some((k) => changed.has(k)) && this.modelId) void this.load();
  }

  /** The company to configure for, the model's description, then a first preview. */
  private async load(): Promise<void> {
    this.failure = undefined;
    try {
      const opened = await openModel(this.api, {
        modelId: this.modelId!,
        companyId: this.companyId,
        language: this.apiLanguage,
        editing: this.editing,
        noCompany: this.t('error.noCompany'),
      });
      ({ company: this.company, described: this.described, moved: this.moved } = opened);
      this.answers = opened.answers;
      this.typed = {};
      this.offer = undefined;
      await this.previews.preview();
    } catch (error) {
      this.fail(error);
    }
  }

  private target(): PreviewTarget {
    const { modelId, company, apiLanguage: language } = this;
    return { modelId: modelId as number, company: company as number, language };
  }

  private body() {
    return previewBody(this.target(), this.answers);
  }

  private readonly guided: GuidedPreview = guidedPreview(
    () => this.api,
    () => this.target(),
    () => this.answers,
  );

  /** Previews in the order of the clicks (preview-sequence.ts). */
  private readonly previews = new PreviewSequence({
    answers: () => JSON.stringify(this.body().questions),
    request: () =>
      clickPreview(this.api, this.target(), this.answers, {
        get: () => this.described,
        set: (described) => (this.described = described),
      }),
    show: async (line) => {
      this.line = line;
      this.failure = undefined;
      await this.updateComplete;
      this.emit('change', { line, valid: line.valid });
    },
    fail: (error) => this.fail(error),
    busy: (on) => this.busy(on),
  });

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

  private readonly handlers = questionHandlers({
    answers: () => this.answers,
    typed: () => this.typed,
    line: () => this.line,
    described: () => this.described,
    t: () => this.t,
    schedule: (settled) => this.previews.schedule(settled),
    offer: (question, option) => {
      this.offer = { question, option };
      // The offer says what the nearest valid configuration with the pick changes.
      void this.guide(async () => {
        const offer = await pickOffer(this.guided, this.answers, question, option);
        if (this.offer?.option === option) this.offer = offer;
        return undefined;
      });
    },
    dismissOffer: () => (this.offer = undefined),
  });

  /**
   * A guided step (the offer's resolution, a cheapest completion): the answers it gives are
   * taken and previewed; a failure shows as any other.
   */
  private async guide(step: () => Promise<Answers | undefined>): Promise<void> {
    try {
      const answers = await step();
      if (!answers) return;
      this.offer = undefined;
      this.answers = answers;
      this.previews.schedule(true);
    } catch (error) {
      this.fail(error);
    }
  }

  /**
   * Whether the answers a save sends are the ones the page calls valid: answers changed since
   * the shown preview (typing still in its pause, a click in flight) are previewed first, and
   * a line that is then not valid is shown, not saved (docs/adr/0191).
   */
  private async shownValid(): Promise<boolean> {
    return (await this.previews.current()) && this.line?.valid === true;
  }

  /** "Add to cart", or "Save changes" of the stored line being reconfigured. */
  private async commit(): Promise<void> {
    this.notice = undefined;
    if (!(await this.shownValid())) return;
    try {
      const { event, line } = await commitLine(this.api, {
        body: this.body(),
        cartId: this.cartId,
        editing: this.editing,
        moved: this.moved !== undefined,
      });
      if (event === 'added') {
        const { currency, total } = line.pricing;
        this.notice = this.t('action.added', { name: line.general.name, currency, total });
      }
      this.emit(event, { line });
    } catch (error) {
      this.fail(error);
    }
  }

  override render() {
    const line = this.line;
    const t = this.t;
    const failure = this.failure ? failureView(this.failure, t) : nothing;
    if (!line)
      return html`${failure}
        <p class="loading">${this.failure ? '' : t('loading')}</p>`;
    return configuratorView(line, {
      t,
      locale: this.locale,
      baseUrl: this.api.baseUrl,
      modeller: this.modeller,
      described: this.described,
      failure,
      moved: this.moved,
      handlers: this.handlers,
      offer: this.offer,
      offerActions: {
        accept: () => void this.guide(async () => this.offer?.answers),
        keep: () => (this.offer = undefined),
      },
      bar: {
        editing: this.editing !== undefined,
        notice: this.notice,
        add: () => this.commit(),
        save: () => this.commit(),
        cancel: () => this.emit('edit-cancelled', {}),
        cheapest: () => void this.guide(() => cheapestAnswers(this.guided, this.answers)),
      },
    });
  }
}

if (!customElements.get('product-configurator')) {
  customElements.define('product-configurator', ProductConfigurator);
}
