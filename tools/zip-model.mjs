#!/usr/bin/env node
// Zips a model source folder (model.yaml at its root, fragments, images) for upload.
// usage: node tools/zip-model.mjs examples/door door.zip
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import JSZip from 'jszip';

const [folder, out] = process.argv.slice(2);
if (!folder || !out) {
  console.error('usage: node tools/zip-model.mjs <model folder> <out.zip>');
  process.exit(2);
}
const zip = new JSZip();
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else zip.file(relative(folder, path).split(sep).join('/'), readFileSync(path));
  }
};
walk(folder);
writeFileSync(out, await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
console.log(
  `${out}: ${Object.keys(zip.files).filter((name) => !zip.files[name].dir).length} files`,
);
