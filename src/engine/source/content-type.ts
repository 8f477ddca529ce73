/** The three body formats a model upload may have. */
export type ModelSourceFormat = 'json' | 'yaml' | 'zip';

const FORMATS: Readonly<Record<string, ModelSourceFormat>> = {
  'application/json': 'json',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/yaml': 'yaml',
  'application/zip': 'zip',
  'application/x-zip-compressed': 'zip',
};

/**
 * The upload format named by a Content-Type header, or null when it names none
 * (the service answers 415). Parameters such as `; charset=utf-8` are ignored.
 */
export function sourceFormatOf(contentType: string | undefined): ModelSourceFormat | null {
  if (contentType === undefined) return null;
  const mediaType = contentType.split(';', 1)[0].trim().toLowerCase();
  return Object.hasOwn(FORMATS, mediaType) ? FORMATS[mediaType] : null;
}

const ASSET_TYPES: Readonly<Record<string, string>> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** The content type of an image file inside a zip, or null when the file is not an asset. */
export function assetContentTypeOf(path: string): string | null {
  const extension = extensionOf(path);
  return extension !== null && Object.hasOwn(ASSET_TYPES, extension)
    ? ASSET_TYPES[extension]
    : null;
}

/** Lower-case extension of the last path segment, without the dot. */
export function extensionOf(path: string): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : null;
}
