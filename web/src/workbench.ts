// <cfg-workbench>: a supplier's modeller drops a JSON, YAML or zip model and sees what the
// upload answers: every problem with its path, or the stored model, its warnings (dead
// options) and its analysis; then opens it in the configurator. A model whose code the
// supplier has already is offered as a new version of that model (PUT /v1/models/{id}).
import { html, LitElement, nothing } from 'lit';
import {
  actionKey,
  ApiFailure,
  dataOf,
  type ModelDetail,
  type Problem,
  type Schemas,
  type Session,
} from './api.js';
import { diffView, loadDiff, type ModelDiff } from './diff-view.js';
import { grouped } from './line-view.js';
import { baseStyles } from './styles.js';
import { shellStyles } from './shell-styles.js';

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
  declare suppliers: SupplierChoice[];
  declare supplierId: number | undefined;
  declare failure: ApiFailure | undefined;
  declare model: ModelDetail | undefined;
  /** After a new version of an existing model: its changes against the version before. */
  declare diff: ModelDiff | undefined;
  declare warnings: Problem[];
  /** A model of the supplier with the dropped model's code: it may take the file as a new version. */
  declare existing: { id: number; file: File } | undefined;
  declare busy: boolean;

  constructor() {
    super();
    this.companies = [];
    this.suppliers = [];
    this.warnings = [];
    this.busy = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.loadSuppliers();
  }

  /** The suppliers linked to the caller's companies (the API lists suppliers per company). */
  private async loadSuppliers(): Promise<void> {
    if (!this.session) return;
    const seen = new Map<number, SupplierChoice>();
    for (const company of this.companies) {
      const result = await this.session.client.GET('/v1/companies/{id}/suppliers', {
        params: { path: { id: company.id }, query: { per_page: 200 } },
      });
      if (!result.response.ok) continue;
      for (const s of dataOf(result))
        if (!seen.has(s.id)) seen.set(s.id, { id: s.id, name: s.name, companyId: company.id });
    }
    this.suppliers = [...seen.values()];
    this.supplierId ??= this.suppliers[0]?.id;
  }

  private async upload(file: File, intoModel?: number): Promise<void> {
    if (!this.session) return;
    // A file dropped before the suppliers are known (or with none) must not vanish silently.
    if (!this.supplierId) {
      this.failure = new ApiFailure(
        0,
        this.suppliers.length === 0
          ? 'There is no supplier to upload this model for yet.'
          : 'Choose a supplier first.',
      );
      return;
    }
    const type = modelContentType(file.name);
    this.failure = undefined;
    this.model = undefined;
    this.diff = undefined;
    this.existing = undefined;
    if (!type) {
      this.failure = new ApiFailure(
        415,
        `${file.name}: a model is a .json, .yaml, .yml or .zip file.`,
      );
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
      this.failure = error instanceof ApiFailure ? error : new ApiFailure(0, String(error));
    } finally {
      this.busy = false;
    }
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
    this.failure = new ApiFailure(
      409,
      `The supplier already has a model with the code ${code ?? 'of this file'}.`,
    );
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

  private resultView() {
    const m = this.model;
    if (!m) return nothing;
    const a = m.analysis;
    return html`<section class="card result" aria-label="Upload result">
      <h2>Model #${m.id}, version ${m.version_number}: ${String(m.general.name ?? '')}</h2>
      <dl class="analysis">
        <dt>Availability</dt>
        <dd>${a.exact ? 'exact' : `approximate (${a.reason ?? 'not exact'})`}</dd>
        <dt>Configurations</dt>
        <dd data-testid="configurations">
          ${
            a.configurations !== null
              ? grouped(a.configurations)
              : a.configurations_at_most
                ? `at most ${grouped(a.configurations_at_most)}`
                : 'not counted'
          }
        </dd>
        <dt>Dead options</dt>
        <dd>
          ${a.dead_options.length === 0 ? 'none' : a.dead_options.map((d) => html`<code>${d}</code> `)}
        </dd>
        <dt>Compiled in</dt>
        <dd>${a.compile_ms} ms</dd>
      </dl>
      ${
        this.warnings.length > 0
          ? html`<h3>Warnings</h3>
              <ul class="problems">
                ${this.warnings.map(problem)}
              </ul>`
          : nothing
      }
      ${diffView(this.diff)}
      <button type="button" class="primary" @click=${() => this.open()}>
        Open in the configurator
      </button>
    </section>`;
  }

  override render() {
    const f = this.failure;
    return html`<h1>Model workbench</h1>
      <div class="pickers">
        <label for="supplier">Supplier</label>
        <select
          id="supplier"
          @change=${(e: Event) => (this.supplierId = Number((e.target as HTMLSelectElement).value))}
        >
          ${this.suppliers.map((s) => html`<option value=${s.id} ?selected=${s.id === this.supplierId}>${s.name} (#${s.id})</option>`)}
        </select>
      </div>
      ${this.suppliers.length === 0 ? html`<p>None of your companies has a supplier yet.</p>` : nothing}
      <div
        class="drop card"
        @dragover=${(e: DragEvent) => e.preventDefault()}
        @drop=${(e: DragEvent) => this.dropped(e)}
      >
        <p>Drop a model here (JSON, YAML or zip), or</p>
        <label for="file" class="file">Choose a model file</label>
        <input
          id="file"
          type="file"
          accept=".json,.yaml,.yml,.zip"
          ?disabled=${!this.supplierId}
          @change=${(e: Event) => this.chosen(e)}
        />
        ${this.busy ? html`<p role="status">Uploading and compiling…</p>` : nothing}
      </div>
      ${
        f
          ? html`<section class="failure" role="alert" aria-label="Problems">
              <p>${f.message}</p>
              <ul class="problems">
                ${f.problems.map(problem)}
              </ul>
              ${
                this.existing
                  ? html`<button
                      type="button"
                      @click=${() => this.existing && this.upload(this.existing.file, this.existing.id)}
                    >
                      Upload as a new version of model #${this.existing.id}
                    </button>`
                  : nothing
              }
            </section>`
          : nothing
      }
      ${this.resultView()}`;
  }
}

/** A problem's message, its path shown once: marked where the message names it, else after it. */
function problem(p: Problem) {
  const path = (text: string) => html`<code class="path">${text}</code>`;
  const at = p.path ? p.message.indexOf(p.path) : -1;
  const text =
    at >= 0 && p.path
      ? html`${p.message.slice(0, at)}${path(p.path)}${p.message.slice(at + p.path.length)}`
      : html`${p.message}${p.path ? html` at ${path(p.path)}` : nothing}`;
  return html`<li><code class="code">${p.code}</code> ${text}</li>`;
}

customElements.define('cfg-workbench', Workbench);
