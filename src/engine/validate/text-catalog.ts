import type { LanguageTexts, TextCatalog } from '../model-core.js';

/** Collects translatable texts during validation; each gets a slot number. */
export class TextCatalogBuilder {
  private readonly paths: string[] = [];
  private readonly texts: string[] = [];
  private readonly staticSlots: number[] = [];
  private readonly slotByPath = new Map<string, number>();

  /** `isStatic`: the text appears in every cart line (questions, rules…), not only when included. */
  add(path: string, text: string, isStatic: boolean): number {
    const slot = this.paths.length;
    this.paths.push(path);
    this.texts.push(text);
    this.slotByPath.set(path, slot);
    if (isStatic) this.staticSlots.push(slot);
    return slot;
  }

  addOptional(path: string, text: string | undefined, isStatic: boolean): number | undefined {
    return text === undefined ? undefined : this.add(path, text, isStatic);
  }

  has(path: string): boolean {
    return this.slotByPath.has(path);
  }

  /**
   * Resolves every slot for every language once: the requested language, then the
   * default language, then the model text. Evaluation then only indexes arrays.
   */
  build(
    translation: ReadonlyMap<string, ReadonlyMap<string, string>>,
    defaultLanguage: string,
  ): TextCatalog {
    const defaults = translation.get(defaultLanguage);
    const baseTexts = this.texts.map((text, slot) => defaults?.get(this.paths[slot]) ?? text);
    const base: LanguageTexts = {
      language: defaultLanguage,
      texts: baseTexts,
      missing: new Uint8Array(this.paths.length),
      staticMissing: Object.freeze([]),
    };
    const byLanguage = new Map<string, LanguageTexts>([[defaultLanguage, base]]);
    for (const [language, entries] of translation) {
      if (language === defaultLanguage) continue;
      const missing = new Uint8Array(this.paths.length);
      const texts = this.paths.map((path, slot) => {
        const text = entries.get(path);
        if (text !== undefined) return text;
        missing[slot] = 1;
        return baseTexts[slot];
      });
      const staticMissing: string[] = [];
      for (const slot of this.staticSlots)
        if (missing[slot] === 1) staticMissing.push(this.paths[slot]);
      byLanguage.set(language, {
        language,
        texts,
        missing,
        staticMissing: Object.freeze(staticMissing),
      });
    }
    return { paths: this.paths, byLanguage, base };
  }
}
