import { describe, expect, it } from 'vitest';

import { assetContentTypeOf } from '../../../src/engine/source/content-type.js';
import { sourceFormatOf } from '../../../src/engine/source/index.js';

describe('sourceFormatOf', () => {
  it.each([
    ['application/json', 'json'],
    ['application/json; charset=utf-8', 'json'],
    ['Application/JSON', 'json'],
    ['application/yaml', 'yaml'],
    ['application/x-yaml', 'yaml'],
    ['text/yaml; charset=UTF-8', 'yaml'],
    ['TEXT/YAML', 'yaml'],
    ['application/zip', 'zip'],
    ['application/x-zip-compressed', 'zip'],
    [' application/zip ;name=door.zip', 'zip'],
  ])('maps %s to %s', (contentType, format) => {
    expect(sourceFormatOf(contentType)).toBe(format);
  });

  it.each([
    undefined,
    '',
    'text/plain',
    'application/xml',
    'multipart/form-data; boundary=x',
    'application/jsonx',
    'yaml',
  ])('refuses %s', (contentType) => {
    expect(sourceFormatOf(contentType)).toBeNull();
  });
});

describe('assetContentTypeOf', () => {
  it.each([
    ['images/door.svg', 'image/svg+xml'],
    ['a.PNG', 'image/png'],
    ['a.jpg', 'image/jpeg'],
    ['a.jpeg', 'image/jpeg'],
    ['a.gif', 'image/gif'],
    ['x/a.webp', 'image/webp'],
  ])('types %s as %s', (path, type) => {
    expect(assetContentTypeOf(path)).toBe(type);
  });

  it.each(['model.yaml', 'notes.txt', 'svg', 'images.svg/readme', 'a.html'])(
    'does not treat %s as an asset',
    (path) => {
      expect(assetContentTypeOf(path)).toBeNull();
    },
  );
});
