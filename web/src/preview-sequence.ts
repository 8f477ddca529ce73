// The configurator's previews in the order of the clicks: each request is numbered, an
// answer that arrives after a newer request's is dropped (a slow answer must never
// overwrite what a later click shows), and typing waits for a pause before it previews.
import type { Line } from './api.js';

/** Typing waits this long for a pause; a click previews at once. */
const TYPING_DEBOUNCE_MS = 300;

/** What the sequence asks of its element. */
export interface PreviewHost {
  /** The current answers as text: what a shown line's `valid` is about. */
  answers(): string;
  /** POST /v1/carts/preview with the current answers. */
  request(): Promise<Line>;
  /** The newest answer: show it (resolves once shown). */
  show(line: Line): Promise<void>;
  /** The newest request failed. */
  fail(error: unknown): void;
  /** A request is in flight (or no longer). */
  busy(on: boolean): void;
}

export class PreviewSequence {
  private sequence = 0;
  private typing: ReturnType<typeof setTimeout> | undefined;
  /** The answers (`host.answers()`) of the line shown. */
  private shown = '';

  constructor(private readonly host: PreviewHost) {}

  /** Previews now; only the newest request's answer (or failure) reaches the host. */
  async preview(): Promise<void> {
    const mine = ++this.sequence;
    this.host.busy(true);
    try {
      const answers = this.host.answers();
      const line = await this.host.request();
      if (mine !== this.sequence) return;
      this.shown = answers;
      await this.host.show(line);
    } catch (error) {
      if (mine === this.sequence) this.host.fail(error);
    } finally {
      if (mine === this.sequence) this.host.busy(false);
    }
  }

  /** A settled answer (a click, a field left) previews at once; typing after a pause. */
  schedule(settled: boolean): void {
    clearTimeout(this.typing);
    if (settled) void this.preview();
    else this.typing = setTimeout(() => void this.preview(), TYPING_DEBOUNCE_MS);
  }

  /**
   * Whether the line shown is about the current answers; answers changed since (typing in
   * its pause, a click in flight) are previewed first.
   */
  async current(): Promise<boolean> {
    if (this.host.answers() !== this.shown) {
      clearTimeout(this.typing);
      await this.preview();
    }
    return this.host.answers() === this.shown;
  }
}
