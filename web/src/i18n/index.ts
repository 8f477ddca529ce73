// The pages' and the component's own texts, from the catalogs beside this file: the
// `language` attribute, else the browser's languages, picks one (its primary subtag:
// "de-AT" reads de); a language without a catalog, or a key missing from one, reads English.
import { de } from './de.js';
import { en, type Catalog, type MessageKey } from './en.js';
import { fr } from './fr.js';
import { nl } from './nl.js';

export type { MessageKey };

const CATALOGS: Record<string, Partial<Catalog>> = { en, de, nl, fr };

/** The languages with a catalog. */
export const LANGUAGES = Object.keys(CATALOGS);

/** A message by key with its `{name}` placeholders filled. */
export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** The catalog language for an explicit choice (may be empty), else the browser's first with a catalog. */
export function resolveLanguage(chosen: string | undefined): string {
  const wanted = chosen ? [chosen] : [...(globalThis.navigator?.languages ?? [])];
  for (const tag of wanted) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary in CATALOGS) return primary;
  }
  return 'en';
}

export function translator(language: string): Translate {
  const catalog = CATALOGS[language] ?? en;
  return (key, params) => {
    const text = catalog[key] ?? en[key];
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in params ? String(params[name]) : whole,
    );
  };
}
