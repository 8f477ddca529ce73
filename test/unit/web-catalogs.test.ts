import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { de } from '../../web/src/i18n/de.js';
import { en } from '../../web/src/i18n/en.js';
import { fr } from '../../web/src/i18n/fr.js';
import { nl } from '../../web/src/i18n/nl.js';

/**
 * The pages', the component's and the workbench's own texts (web/src/i18n): the typed
 * catalogs catch a missing key at build time; this also checks what types cannot: the same
 * placeholders, real translations, and that every key is used somewhere in web/src.
 */
const CATALOGS = { de, nl, fr };

/**
 * Texts that are the same words in the language as in English (checked one by one): any
 * other text equal to the English one is an untranslated copy.
 */
const SAME_AS_ENGLISH: Record<keyof typeof CATALOGS, string[]> = {
  de: ['variables.label', 'cart.rename', 'cart.version', 'cart.lineLabel'],
  nl: [
    'brand',
    'pickers.model',
    'variables.label',
    'change.value',
    'cart.lineLabel',
    'workbench.exact',
  ],
  fr: [
    'nav.label',
    'configurator.questions',
    'price.options',
    'price.total',
    'messages.label',
    'cart.total',
    'cart.version',
    'cart.lineLabel',
  ],
};

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the message catalogs of the pages, the component and the workbench', () => {
  for (const [language, catalog] of Object.entries(CATALOGS)) {
    it(`${language} has exactly the English keys, each with the same placeholders`, () => {
      expect(Object.keys(catalog).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(en)) {
        const translated = (catalog as Record<string, string>)[key];
        expect(translated.trim(), `${language} ${key}`).not.toBe('');
        expect(placeholders(translated), `${language} ${key}`).toEqual(placeholders(text));
      }
    });

    it(`${language} translates every text but the listed ones`, () => {
      const same = Object.keys(en).filter(
        (key) => (catalog as Record<string, string>)[key] === (en as Record<string, string>)[key],
      );
      expect(same.sort()).toEqual([...SAME_AS_ENGLISH[language as keyof typeof CATALOGS]].sort());
    });
  }

  it('has a workbench section (the modeller’s page is translated too)', () => {
    const workbench = Object.keys(en).filter((key) => key.startsWith('workbench.'));
    expect(workbench.length).toBeGreaterThan(20);
  });

  it('every key is used by the pages (a key is named whole, or a prefix of it with a code)', () => {
    const dir = join(import.meta.dirname, '../../web/src');
    const source = readdirSync(dir)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .join('\n');
    const unused = Object.keys(en).filter((key) => {
      if (source.includes(`'${key}'`)) return false;
      // Keys made from a code: `problem.${p.code}`, `error.${known.code}`.
      const prefix = key.slice(0, key.indexOf('.') + 1);
      return !source.includes(`\`${prefix}\${`);
    });
    expect(unused).toEqual([]);
  });
});
