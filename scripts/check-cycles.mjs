// `npm run check:cycles`: no import cycle between files (dependency-cruiser's no-circular
// rule), none between the folders under src/ (each src/<folder> collapsed to one node,
// its strongly connected components found with Tarjan's algorithm), and none between the
// engine's subfolders (each src/engine/<folder> one node, each file directly in src/engine
// its own node: the layers source → cel → validate → consistency → compile → evaluate of
// docs/ENGINE.md). `--graph` prints both folder graphs. Exits 1 on any cycle.
import { cruise } from 'dependency-cruiser';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const config = require('../.dependency-cruiser.cjs');

const result = await cruise(['src'], {
  ...config.options,
  validate: true,
  ruleSet: { forbidden: config.forbidden },
  tsConfig: { fileName: 'tsconfig.json' },
});
const { modules, summary } = result.output;

/** `src/carts/carts.service.ts` → `carts`; files directly in src/ stay themselves. */
const folderOf = (path) => {
  const match = /^src\/([^/]+)\//.exec(path);
  return match ? match[1] : path.replace(/^src\//, '');
};

/** `src/engine/validate/rules.ts` → `engine/validate`; `src/engine/model.ts` stays itself. */
const engineFolderOf = (path) => {
  const match = /^src\/engine\/([^/]+)\//.exec(path);
  return match ? `engine/${match[1]}` : path.replace(/^src\//, '');
};

/** The folder graph of the files under `root`, each file mapped to a node by `nodeOf`. */
const folderGraph = (root, nodeOf) => {
  const graph = new Map();
  for (const module of modules) {
    if (!module.source.startsWith(root)) continue;
    const from = nodeOf(module.source);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const dependency of module.dependencies) {
      if (!dependency.resolved.startsWith(root)) continue;
      const to = nodeOf(dependency.resolved);
      if (to !== from) graph.get(from).add(to);
    }
  }
  return graph;
};

const graph = folderGraph('src/', folderOf);
const engineGraph = folderGraph('src/engine/', engineFolderOf);

let failed = false;
for (const [name, folders] of [
  ['folder', graph],
  ['engine folder', engineGraph],
]) {
  if (process.argv.includes('--graph')) {
    for (const [from, targets] of [...folders].sort(([a], [b]) => a.localeCompare(b))) {
      console.log(`${from} -> ${[...targets].sort().join(', ') || '(nothing)'}`);
    }
  }
  for (const component of stronglyConnected(folders)) {
    if (component.length < 2) continue;
    failed = true;
    console.error(`${name} cycle: ${component.sort().join(' <-> ')}`);
  }
}
for (const violation of summary.violations) {
  failed = true;
  const path = violation.cycle?.map((step) => step.name ?? step).join(' -> ');
  console.error(
    `${violation.rule.name}: ${violation.from} -> ${violation.to}${path ? ` (${path})` : ''}`,
  );
}
for (const path of mainThreadEngineWork(modules)) {
  failed = true;
  console.error(`engine work on the main thread: src/main.ts -> ${path.join(' -> ')}`);
}
if (failed) process.exit(1);
console.log(
  `no import cycles (${summary.totalCruised} modules, ${graph.size} folders, ${engineGraph.size} engine folders and files)`,
);
console.log('the main thread loads no engine working code');

/**
 * Engine work runs in the engine workers (docs/adr/0050): the modules the service's main
 * thread loads (from src/main.ts, type-only imports aside: they are erased) include none of
 * the engine's but its main-thread entry (src/engine/index.ts) and the small modules it
 * re-exports.
 */
function mainThreadEngineWork(all) {
  const allowed =
    /^src\/engine\/((index|version|limits|money|problems)\.ts|source\/(text|paths|content-type)\.ts|cel\/(environment|depth)\.ts|evaluate\/compact-line\.ts|consistency\/(stored-version|budget)\.ts)$/;
  const byPath = new Map(all.map((module) => [module.source, module]));
  const from = new Map([['src/main.ts', null]]);
  const queue = ['src/main.ts'];
  const found = [];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const dependency of byPath.get(current)?.dependencies ?? []) {
      const next = dependency.resolved;
      const typeOnly = dependency.dependencyTypes.includes('type-only');
      if (typeOnly || !next.startsWith('src/') || from.has(next)) continue;
      from.set(next, current);
      if (next.startsWith('src/engine/') && !allowed.test(next)) {
        const path = [next];
        for (let at = current; at !== 'src/main.ts'; at = from.get(at)) path.unshift(at);
        found.push(path);
        continue;
      }
      queue.push(next);
    }
  }
  return found;
}

/** Tarjan's strongly connected components (R. Tarjan, SIAM J. Comput. 1972). */
function stronglyConnected(edges) {
  let index = 0;
  const indices = new Map();
  const lowlinks = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (node) => {
    indices.set(node, index);
    lowlinks.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowlinks.set(node, Math.min(lowlinks.get(node), lowlinks.get(next)));
      } else if (onStack.has(next)) {
        lowlinks.set(node, Math.min(lowlinks.get(node), indices.get(next)));
      }
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of edges.keys()) if (!indices.has(node)) visit(node);
  return components;
}
