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
  const enter = (node: object): Frame => {
    const copy = emptyCopy(node, templates);
    copies.set(node, copy);
    return new Frame(node, copy);
  };
  // Depth first, without recursion (a model may nest deeper than the call stack). Each
  // object is made when it is reached and stored in its parent once it is filled, as a
  // recursive copy would: members stay next to their object in the heap, and each field
  // only ever holds objects in their final shape, which optimized code can rely on.
  const frames: Frame[] = [enter(root)];
  let done: object | undefined;
  while (frames.length > 0) {
    const frame = frames[frames.length - 1];
    if (done !== undefined) {
      frame.store(done);
      done = undefined;
    }
    let child: Frame | undefined;
    while (child === undefined && frame.next < frame.keys.length) {
      const item = frame.member();
      if (typeof item === 'string') frame.store(sharedText(texts, item));
      else {
        const revived = revive(item);
        const known = revived === item && isWalkable(item) ? copies.get(item) : revived;
        if (known !== undefined || !isWalkable(item)) frame.store(known);
        else child = enter(item);
      }
    }
    if (child !== undefined) frames.push(child);
    else done = (frames.pop() as Frame).copy;
  }
  return done as object;
}

/** A node being copied: its members' keys, and the next one to store. */
class Frame {
  readonly keys: readonly unknown[];
  next = 0;

  constructor(
    readonly node: object,
    readonly copy: object,
  ) {
    if (node instanceof Map) this.keys = [...node.keys()];
    else if (Array.isArray(node))
      this.keys = copy === node ? [...node.keys()].filter((i) => i in node) : [...node.keys()];
    else this.keys = Object.keys(node);
  }

  /** The deserialized value of the next member. */
  member(): unknown {
    const key = this.keys[this.next];
    return this.node instanceof Map
      ? this.node.get(key)
      : (this.node as Record<string | number, unknown>)[key as string | number];
  }

  /** Stores the next member's value in the copy (in order: a new array stays packed). */
  store(value: unknown): void {
    const key = this.keys[this.next++];
    if (this.copy instanceof Map) this.copy.set(key, value);
    else (this.copy as Record<string | number, unknown>)[key as string | number] = value;
  }
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
