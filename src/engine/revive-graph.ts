/**
 * Rebuilds the object graph the V8 deserializer read (transfer.ts) into objects laid out as
 * the compile's own literals are (docs/adr/0237).
 *
 * The deserializer makes every plain object from the empty object's map, one property at a
 * time: four properties in the object, the rest in a separate property array, and every
 * array holey. The evaluation's hot loops read such objects (a question has ~20 members)
 * through an extra load per member, and an adopted version evaluated 20–40 % slower than
 * the same version compiled in the worker. Each plain object is made again from a template
 * of its keys, parsed once per key list (`JSON.parse` lays out all of an object's
 * properties in the object) and copied by a spread, which keeps that map; each array
 * without holes is made again packed. Identity is kept: a shared object becomes one
 * shared copy.
 */

/** What the walk does with a member: `revived` is stored instead when it differs. */
export type Reviver = (value: unknown) => unknown;

/**
 * The graph under `root` rebuilt (see above), with every member first passed to `revive`
 * (tagged values become their objects; a revived value that is a new object is not walked,
 * an unchanged object or array is) and every string replaced by the first equal one read.
 * Maps, typed arrays and objects that are not plain keep their identity.
 */
export function reviveGraph(root: object, revive: Reviver): object {
  const copies = new Map<object, object>();
  const templates = new Map<string, object>();
  const texts = new Map<string, string>();
  // Depth first, each object made when it is reached (a question, then its members…), as a
  // recursive copy would: what an evaluation reads together stays together in the heap.
  const top = emptyCopy(root, templates);
  copies.set(root, top);
  /** Members still to place: (deserialized object, the copy it goes in, its key there). */
  const pending: Slot[] = [];
  const fill = (node: object, copy: object): void => {
    const first = pending.length;
    if (node instanceof Map) {
      for (const [key, item] of node) place(item, copy, key, pending);
    } else if (Array.isArray(node)) {
      if (copy === node) {
        for (let i = 0; i < node.length; i++) if (i in node) place(node[i], copy, i, pending);
      } else for (let i = 0; i < node.length; i++) place(node[i], copy, i, pending);
    } else {
      const from = node as Record<string, unknown>;
      for (const key of Object.keys(from)) place(from[key], copy, key, pending);
    }
    // Reversed, so that the stack gives them back in key order.
    for (let i = first, j = pending.length - 1; i < j; i++, j--) {
      const slot = pending[i];
      pending[i] = pending[j];
      pending[j] = slot;
    }
  };
  const place = (item: unknown, copy: object, key: unknown, later: Slot[]): void => {
    if (typeof item === 'string') return put(copy, key, sharedText(texts, item));
    const revived = revive(item);
    if (revived !== item || !isWalkable(item)) return put(copy, key, revived);
    const known = copies.get(item);
    if (known !== undefined) return put(copy, key, known);
    // An array's slot is taken now, in order, so it stays packed; an object's template has
    // its slots already. Nothing else is put there first: a field that only ever held objects
    // of one shape lets optimized code skip the shape check on what it reads.
    if (Array.isArray(copy)) put(copy, key, 0);
    later.push([item, copy, key]);
  };
  fill(root, top);
  while (pending.length > 0) {
    const [node, into, key] = pending.pop() as Slot;
    let copy = copies.get(node);
    if (copy === undefined) {
      copy = emptyCopy(node, templates);
      copies.set(node, copy);
      fill(node, copy);
    }
    put(into, key, copy);
  }
  return top;
}

type Slot = [node: object, into: object, key: unknown];

function put(into: object, key: unknown, value: unknown): void {
  if (into instanceof Map) into.set(key, value);
  else (into as Record<string | number, unknown>)[key as string | number] = value;
}

/**
 * The object a node's members are filled into: a plain object from its keys' template, a
 * packed empty array, or the node itself (a Map, a holey array, another object).
 */
function emptyCopy(node: object, templates: Map<string, object>): object {
  if (Array.isArray(node)) return hasHoles(node) ? node : [];
  if (Object.getPrototypeOf(node) !== Object.prototype) return node;
  const keys = Object.keys(node);
  // A `__proto__` key would set the copy's prototype when assigned: kept as read.
  if (keys.includes('__proto__')) return node;
  const list = JSON.stringify(keys);
  let template = templates.get(list);
  if (template === undefined) {
    template = JSON.parse(`{${keys.map((key) => `${JSON.stringify(key)}:0`).join(',')}}`) as object;
    templates.set(list, template);
  }
  return { ...template };
}

function hasHoles(items: readonly unknown[]): boolean {
  for (let i = 0; i < items.length; i++) if (!(i in items)) return true;
  return false;
}

/** The first string read with `text`'s text: the one every equal string is replaced by. */
function sharedText(texts: Map<string, string>, text: string): string {
  const known = texts.get(text);
  if (known !== undefined) return known;
  texts.set(text, text);
  return text;
}

const isWalkable = (value: unknown): value is object =>
  value !== null && typeof value === 'object' && !ArrayBuffer.isView(value);
