// What the configurator asks of the API: the body every preview and add sends, a click's
// preview (the compact view made whole with the model's description, docs/adr/0224), a
// preview with guidance outside the sequence of clicks, and the opening of a model (the
// company, the model's description, and a stored line's answers carried over to the
// model's current version).
import {
  companyToConfigure,
  dataOf,
  findCompanyModel,
  type Answers,
  type CompactLine,
  type DescribedModel,
  type Line,
  type Session,
  type Value,
} from './api.js';
import { fullLine } from './full-line.js';
import { carriedOver, type GuidedPreview, type VersionMove } from './guidance.js';
import { answersOf, type LineEdit } from './line-edit.js';

/** The model and company a preview is for, and the language of its labels ('' for the default). */
export interface PreviewTarget {
  readonly modelId: number;
  readonly company: number;
  readonly language: string;
}

/** The body of a preview or an add: the answers as the API's `questions`. */
export function previewBody({ modelId, company, language }: PreviewTarget, answers: Answers) {
  const questions: Record<string, { values: Value[] }> = {};
  for (const [key, values] of Object.entries(answers)) questions[key] = { values };
  return {
    model_id: modelId,
    company_id: company,
    questions,
    ...(language ? { language_code: language } : {}),
  };
}

/** POST /v1/carts/preview in the compact view. */
async function compactPreview(session: Session, body: ReturnType<typeof previewBody>) {
  const params = { query: { view: 'compact' as const } };
  return dataOf(await session.client.POST('/v1/carts/preview', { params, body })) as CompactLine;
}

/** The model's description the configurator holds, and its replacement by a newer one. */
export interface HeldDescription {
  get(): DescribedModel | undefined;
  set(described: DescribedModel): void;
}

/**
 * A click's preview: the compact view, made whole with the description the page holds.
 * A line of another version (one uploaded since the page opened) has the model described
 * again; a version uploaded between that preview and its description is previewed again.
 */
export async function clickPreview(
  session: Session,
  target: PreviewTarget,
  answers: Answers,
  held: HeldDescription,
): Promise<Line> {
  const body = previewBody(target, answers);
  for (let attempt = 0; ; attempt++) {
    const line = await compactPreview(session, body);
    let described = held.get();
    if (described?.version_number !== line.version_number) {
      described = await findCompanyModel(
        session.client,
        target.company,
        target.modelId,
        target.language,
      );
      held.set(described);
    }
    if (described.version_number === line.version_number || attempt === 2)
      return fullLine(line, described);
  }
}

/**
 * Previews with guidance (`resolve`, `complete`) of `target`, outside the sequence of
 * clicks, in the compact view: what they are read for (the resolution, the questions'
 * values and whether they are visible, required, completed) is in it.
 */
export function guidedPreview(
  session: () => Session,
  target: () => PreviewTarget,
  current: () => Answers,
): GuidedPreview {
  return async (guided, answers = current()) =>
    compactPreview(session(), { ...previewBody(target(), answers), ...guided });
}

/** What the configurator opens on. */
export interface Opened {
  readonly company: number;
  readonly described: DescribedModel;
  readonly answers: Answers;
  /** A stored line whose model moved on: opened on the current version, saved there. */
  readonly moved: VersionMove | undefined;
}

export interface OpenRequest {
  readonly modelId: number;
  /** The company asked for, else the caller's first one. */
  readonly companyId: number | undefined;
  readonly language: string;
  /** A stored line being reconfigured. */
  readonly editing: LineEdit | undefined;
  /** The failure's text when the caller has no company. */
  readonly noCompany: string;
}

/**
 * The company to configure for and the model's description; a stored line of this model
 * opens with its answers. The preview evaluates them on the model's current version, so a
 * line whose model moved on is carried over to it (the nearest valid configuration, its
 * changes shown) and saved there: what the preview calls valid is what the save accepts.
 */
export async function openModel(session: Session, request: OpenRequest): Promise<Opened> {
  const { modelId, language, editing: edit } = request;
  const company = await companyToConfigure(session.client, request.companyId, request.noCompany);
  const described = await findCompanyModel(session.client, company, modelId, language);
  const own = edit !== undefined && edit.line.model_id === modelId;
  const answers = own ? answersOf(edit.line) : {};
  const latest = edit?.toVersion ?? edit?.line.latest_version_number;
  if (!own || !latest) return { company, described, answers, moved: undefined };
  const guided = guidedPreview(
    () => session,
    () => ({ modelId, company, language }),
    () => answers,
  );
  const carried = await carriedOver(guided, answers, edit.line.version_number, latest);
  return { company, described, ...carried };
}
