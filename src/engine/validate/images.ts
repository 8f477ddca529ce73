import type { CompiledImage } from '../model-core.js';
import type { Validation } from './context.js';
import { childPath, SECTION_KEY_PATTERN } from './reader.js';

const IMAGE_KEYS = new Set(['key', 'src', 'when', 'layer', 'alt']);

/** A relative path inside the zip (no `..`, not absolute) or an https URL. */
export function isValidImageSource(src: string): boolean {
  if (src.startsWith('https://')) return URL.canParse(src);
  if (/^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith('/') || src.includes('\\')) return false;
  return (
    src.length > 0 && !src.split('/').some((part) => part === '..' || part === '' || part === '.')
  );
}

export function validateImages(v: Validation, value: unknown): CompiledImage[] {
  const list = v.optionalList(value, 'images');
  const seen = new Set<string>();
  const images: CompiledImage[] = [];
  for (const [record, path] of v.records(list, 'images')) {
    v.allowKeys(record, IMAGE_KEYS, path);
    const key = v.key(record, path, SECTION_KEY_PATTERN, 'image');
    const src = v.string(record, 'src', path, true);
    if (src !== undefined && !isValidImageSource(src)) {
      v.fail(
        'invalid_value',
        'src must be a relative path inside the archive or an https URL',
        childPath(path, 'src'),
      );
    }
    const when = v.expr(record, 'when', path);
    const layer = v.number(record, 'layer', path, true) ?? 0;
    const alt = v.text(record, 'alt', path);
    if (key === undefined || src === undefined || !v.unique(seen, key, path, 'image')) continue;
    images.push({
      key,
      src,
      when,
      layer,
      altSlot: v.texts.addOptional(`images.${key}.alt`, alt, false),
    });
  }
  return images;
}
