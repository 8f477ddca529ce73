/**
 * The models `npm run bench:http` previews, by size name: `window` (examples/window.yaml),
 * a number (a generated model of that many questions, tools/gen-model.mjs), `medium` and
 * `megane` (the real Renault cars of ../shared/benchmarks), `custom<i>` (the i-th
 * `--model`). Each is {label, model (text), yaml, answers, realCar, sales}: `answers` is
 * null for a real car (its answers come from a random walk over HTTP, http-real-cars.mjs),
 * `sales` the path of its sold cars when there are any.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchmarksDir, customAnswers, customModels, repo } from './http-options.mjs';

const WINDOW_ANSWERS = {
  width: { values: [1200] },
  height: { values: [1000] },
  color: { values: ['white'] },
};

const REAL_CARS = { medium: 'renault-medium', megane: 'renault-megane' };

/** The model of a real car's folder (model.json, and sales.txt when it has one). */
function realCar(label, modelPath) {
  if (!existsSync(modelPath)) throw new Error(`${label}: no ${modelPath}`);
  const sales = join(dirname(modelPath), 'sales.txt');
  return {
    label,
    model: readFileSync(modelPath, 'utf8'),
    yaml: false,
    answers: null,
    realCar: true,
    sales: existsSync(sales) ? sales : null,
  };
}

export async function sizeModel(size) {
  if (size === 'window')
    return {
      label: 'window.yaml',
      model: readFileSync(join(repo, 'examples', 'window.yaml'), 'utf8'),
      yaml: true,
      answers: WINDOW_ANSWERS,
      realCar: false,
    };
  if (size in REAL_CARS) return realCar(size, join(benchmarksDir, REAL_CARS[size], 'model.json'));
  if (size.startsWith('custom')) {
    const index = Number(size.slice('custom'.length));
    const path = customModels[index];
    const label = basename(dirname(path)) || basename(path);
    // A model with --answers is previewed with them; any other as a real car (walks).
    if (index === 0 && customAnswers !== undefined)
      return {
        label: basename(path),
        model: readFileSync(path, 'utf8'),
        yaml: /\.ya?ml$/.test(path),
        answers: JSON.parse(readFileSync(resolve(customAnswers), 'utf8')),
        realCar: false,
      };
    return realCar(label, path);
  }
  const { generateModel } = await import(pathToFileURL(join(repo, 'tools', 'gen-model.mjs')).href);
  const generated = generateModel(Number(size));
  generated.model.general = { ...generated.model.general, code: `bench-${size}` };
  return {
    label: `${size} questions`,
    model: JSON.stringify(generated.model),
    yaml: false,
    answers: generated.answers,
    realCar: false,
  };
}
