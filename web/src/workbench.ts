// <cfg-workbench>: a supplier's modeller drops a JSON, YAML or zip model and sees what the
// upload answers: every problem with its path, or the stored model, its warnings (dead
// options) and its analysis; then opens it in the configurator. A model whose code the
// supplier has already is offered as a new version of that model (PUT /v1/models/{id}).
// Its texts follow the pages' language (`locale`); what it shows: workbench-view.ts.
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import {
  actionKey,
  ApiFailure,
  dataOf,
  type ModelDetail,
  type Problem,
  type Schemas,
  type Session,
} from './api.js';
import { loadDiff, type ModelDiff } from './diff-view.js';
import { translator, type Translate } from './i18n/index.js';
import { baseStyles } from './styles.js';
import { shellStyles } from './shell-styles.js';
import { failureView, resultView, type UploadFailure } from './workbench-view.js';

type Company = Schemas['CompanyDto'];
interface SupplierChoice {
  id: number;
  name: string;
  companyId: number;
}

/** The Content-Type of a model file, by its extension (the upload route's formats). */
export function modelContentType(name: string): string | undefined {
  const ext = name.toLowerCase().split('.').pop();
  if (ext === 'json') return 'application/json';
  if (ext === 'yaml' || ext === 'yml') return 'application/yaml';
  if (ext === 'zip') return 'application/zip';
  return undefined;
}

export class Workbench extends LitElement {
  static override styles = [baseStyles, shellStyles];
  static override properties = {
    session: { attribute: false },
    companies: { attribute: false },
    locale: { attribute: false },
    suppliers: { state: true },
    supplierId: { state: true },
    failure: { state: true },
    model: { state: true },
    diff: { state: true },
    warnings: { state: true },
    existing: { state: true },
    busy: { state: true },
  };

  declare session: Session | undefined;
  declare companies: Company[];
  /** The catalog language of the pages (texts and numbers). */
  declare locale: string;
  private t: Translate = translator('en');
  declare suppliers: SupplierChoice[];
  declare supplierId: number | undefined;
  declare failure: UploadFailure | undefined;
  declare model: ModelDetail | undefined;
  /** After a new version of an existing model: its changes against the version before. */
  declare diff: ModelDiff | undefined;
  declare warnings: Problem[];
  /** A model of the supplier with the dropped model's code: it may take the file as a new version. */
  declare existing: { id: number; file: File } | undefined;
  declare busy: boolean;
  private supplierLoads = 0;

  constructor() {
    super();
    this.companies = [];
    this.locale = 'en';
    this.suppliers = [];
    this.warnings = [];
    this.busy = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('locale')) this.t = translator(this.locale);
    // The shell may still be loading the caller's companies when the workbench opens (a
    // click right after sign-in): the suppliers follow the companies whenever they arrive.
    if (changed.has('companies') || changed.has('session')) void this.loadSuppliers();
  }

  /** The suppliers linked to the caller's companies (the API lists suppliers per company). */
  private async loadSuppliers(): Promise<void> {
    if (!this.session) return;
    // Only the latest load may set the list: an earlier one may answer last.
    const load = ++this.supplierLoads;
    const seen = new Map<number, SupplierChoice>();
    for (const company of this.companies) {
      const result = await this.session.client.GET('/v1/companies/{id}/suppliers', {
        params: { path: { id: company.id }, query: { per_page: 200 } },
      });
      if (!result.response.ok) continue;
      for (const s of dataOf(result))
        if (!seen.has(s.id)) seen.set(s.id, { id: s.id, name: s.name, companyId: company.id });
    }
    if (load !== this.supplierLoads) return;
    this.suppliers = [...seen.values()];
    this.supplierId ??= this.suppliers[0]?.id;
  }

  private async upload(file: File, intoModel?: number): Promise<void> {
    if (!this.session) return;
    // A file dropped before the suppliers are known (or with none) must not vanish silently.
    if (!this.supplierId) {
      const text = this.t(
        this.suppliers.length === 0 ? 'workbench.noSupplierToUpload' : 'workbench.chooseSupplier',
      );
      this.failure = { text, problems: [] };
      return;
    }
    const type = modelContentType(file.name);
    this.failure = undefined;
    this.model = undefined;
    this.diff = undefined;
    this.existing = undefined;
    if (!type) {
      this.failure = { text: this.t('workbench.fileType', { file: file.name }), problems: [] };
      return;
    }
    this.busy = true;
    try {
      const bytes = await file.arrayBuffer();
      const send = {
        body: bytes as never,
        bodySerializer: (body: unknown) => body as ArrayBuffer,
        headers: { 'Content-Type': type },
      };
      const { client } = this.session;
      const result = intoModel
        ? await client.PUT('/v1/models/{id}', {
            ...send,
            params: { path: { id: intoModel }, header: { 'Idempotency-Key': actionKey() } },
          })
        : await client.POST('/v1/suppliers/{id}/models', {
            ...send,
            params: { path: { id: this.supplierId }, header: { 'Idempotency-Key': actionKey() } },
          });
      if (result.response.status === 409 && !intoModel) return await this.offerVersion(file);
      const created = dataOf(result);
      this.warnings = created.warnings;
      this.model = dataOf(
        await client.GET('/v1/models/{id}', { params: { path: { id: created.id } } }),
      );
      // The version is stored: a diff that cannot be read must not look like a failed upload.
      if (intoModel && this.model.version_number > 1)
        this.diff = await loadDiff(this.session, this.model.id).catch(() => undefined);
    } catch (error) {
      this.failure = this.uploadFailure(error);
    } finally {
      this.busy = false;
    }
  }

  /** A failed call in the modeller's words, with the service's message and problems as it gave them. */
  private uploadFailure(error: unknown): UploadFailure {
    if (!(error instanceof ApiFailure) || error.status === 0)
      return { text: this.t('error.network'), problems: [] };
    if (error.status === 401) return { text: this.t('error.session'), problems: [] };
    const text =
      error.status === 413
        ? this.t('workbench.tooLarge')
        : this.t('workbench.refused', { status: error.status });
    return { text, detail: error.message, problems: error.problems };
  }

  /** 409: the supplier has a model with this code. Find it, to offer a new version of it. */
  private async offerVersion(file: File): Promise<void> {
    const code = await this.codeOf(file);
    const result = await this.session?.client.GET('/v1/suppliers/{id}/models', {
      params: { path: { id: this.supplierId as number }, query: { per_page: 200 } },
    });
    const match = result?.response.ok
      ? dataOf(result).find((m) => m.general.code === code)
      : undefined;
    const text = code
      ? this.t('workbench.codeTaken', { code })
      : this.t('workbench.codeTakenUnknown');
    this.failure = { text, problems: [] };
    if (match) this.existing = { id: match.id, file };
  }

  /** general.code of a JSON or YAML file (a line `  code: X` is enough for YAML); undefined for a zip. */
  private async codeOf(file: File): Promise<string | undefined> {
    if (file.name.endsWith('.zip')) return undefined;
    const text = await file.text();
    try {
      return (JSON.parse(text) as { general?: { code?: string } }).general?.code;
    } catch {
      return /^\s+code:\s*["']?([^"'\s#]+)/m.exec(text)?.[1];
    }
  }

  private dropped(event: DragEvent): void {
    event.preventDefault();
    const file = event.dataTransfer?.files[0];
    if (file) void this.upload(file);
  }

  private chosen(event: Event): void {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    if (file) void this.upload(file);
    input.value = '';
  }

  private open(): void {
    if (!this.model) return;
    const supplier = this.suppliers.find((s) => s.id === this.supplierId);
    const detail = { modelId: this.model.id, companyId: supplier?.companyId };
    this.dispatchEvent(new CustomEvent('open-model', { detail, bubbles: true, composed: true }));
  }

  override render() {
    const t = this.t;
    const existing = this.existing;
    const newVersion = existing && {
      id: existing.id,
      upload: () => void this.upload(existing.file, existing.id),
    };
    return html`<h1>${t('workbench.title')}</h1>
      <div class="pickers">
        <label for="supplier">${t('workbench.supplier')}</label>
        <select
          id="supplier"
          @change=${(e: Event) => (this.supplierId = Number((e.target as HTMLSelectElement).value))}
        >
          ${this.suppliers.map((s) => html`<option value=${s.id} ?selected=${s.id === this.supplierId}>${s.name} (#${s.id})</option>`)}
        </select>
      </div>
      ${this.suppliers.length === 0 ? html`<p>${t('workbench.noSupplier')}</p>` : nothing}
      <div
        class="drop card"
        @dragover=${(e: DragEvent) => e.preventDefault()}
        @drop=${(e: DragEvent) => this.dropped(e)}
      >
        <p>${t('workbench.drop')}</p>
        <label for="file" class="file">${t('workbench.choose')}</label>
        <input
          id="file"
          type="file"
          accept=".json,.yaml,.yml,.zip"
          ?disabled=${!this.supplierId}
          @change=${(e: Event) => this.chosen(e)}
        />
        ${this.busy ? html`<p role="status">${t('workbench.uploading')}</p>` : nothing}
      </div>
      ${failureView(this.failure, t, newVersion)}
      ${
        this.model
          ? resultView(
              this.model,
              { warnings: this.warnings, diff: this.diff, t, locale: this.locale },
              () => this.open(),
            )
          : nothing
      }`;
  }
}

customElements.define('cfg-workbench', Workbench);
