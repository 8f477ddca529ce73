/**
 * Rebuilds the object graph the V8 deserializer read (transfer.ts) into objects laid out as
 * the compile's own literals are (docs/adr/0238).
 *
 * The deserializer makes every plain object from the empty object's map, one property at a
 * time: four properties in the object, the rest in a separate property array, and every
 * array holey. The evaluation's hot loops read such objects (a question has ~20 members)
 * through an extra load per member. Each plain object is made again from a template of its
 * keys, parsed once per key list (`JSON.parse` lays out all of an object's properties in
 * the object) and copied by a spread, which keeps that map, so objects with the same keys
 * share one map as the compile's do; each array without holes is made again packed.
 * Identity is kept: a shared object becomes one shared copy. Strings and Map keys are
 * made internalized, as the parse of a definition makes them (see `SharedTexts`).
 */

/** What the walk does with a member: `revived` is stored instead when it differs. */
export type Reviver = (value: unknown) => unknown;

/**
 * The graph under `root` rebuilt (see above), with every member first passed to `revive`
 * (tagged values become their objects; a revived value that is a new object is not walked,
 * an unchanged object or array is) and every string, and every Map's string key, replaced
 * by `texts`' one. Typed arrays and objects that are not plain or arrays or Maps keep their
 * identity.
 */
export function reviveGraph(root: object, revive: Reviver, texts: SharedTexts): object {
  const copies = new Map<object, object>();
  const templates = new Map<string, object>();
  const enter = (node: object): Frame => {
    const copy = emptyCopy(node, templates);
    copies.set(node, copy);
    return new Frame(node, copy, texts);
  };
  // Depth first, without recursion (a model may nest deeper than the call stack). Each
  // object is made when it is reached, before its members, as the deserializer read them:
  // what an evaluation reads together stays together in the heap.
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
      if (typeof item === 'string') frame.store(texts.get(item));
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
    texts: SharedTexts,
  ) {
    if (node instanceof Map)
      this.keys = [...node.keys()].map((key) => (typeof key === 'string' ? texts.get(key) : key));
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
 * One string per text, internalized. The deserializer makes a new string for every string
 * it reads, where the parse of a definition shares one per text: a table's cells repeat a
 * few option keys ("o1", "n1"), 1.3 million copies in the 268-question car, +28 MB of heap
 * that every major GC of the evaluation worker marks. And its strings are not internalized
 * where the parse's keys and short values are: comparing one with a literal (`type ===
 * 'choice'`) or looking it up in a Map compares characters, not just references.
 */
export class SharedTexts {
  private readonly texts = new Map<string, string>();
  /**
   * Holds no key: reading a key internalizes it (V8 does so in place, or leaves a forward to
   * the internalized copy that the next GC resolves).
   */
  private readonly probe = Object.create(null) as Partial<Record<string, string>>;

  /** The one string with `text`'s text. */
  get(text: string): string {
    const known = this.texts.get(text);
    if (known !== undefined) return known;
    const interned = this.probe[text] ?? text;
    this.texts.set(interned, interned);
    return interned;
  }
}

/**
 * The object a node's members are filled into: a plain object from its keys' template, a
 * packed empty array, a new Map, or the node itself (a holey array, another object).
 */
function emptyCopy(node: object, templates: Map<string, object>): object {
  if (Array.isArray(node)) return hasHoles(node) ? node : [];
  if (node instanceof Map) return new Map();
  if (Object.getPrototypeOf(node) !== Object.prototype) return node;
  const keys = Object.keys(node);
  // A `__proto__` key would set the copy's prototype when assigned: kept as read.
  if (keys.includes('__proto__')) return node;
  const list = JSON.stringify(keys);
  let template = templates.get(list);
  if (template === undefined) {
    // `null` fields: any value stored later generalizes the field in place, where a number
    // first would make a fraction stored later replace the map (and move every copy).
    template = JSON.parse(
      `{${keys.map((key) => `${JSON.stringify(key)}:null`).join(',')}}`,
    ) as object;
    templates.set(list, template);
  }
  return { ...template };
}

function hasHoles(items: readonly unknown[]): boolean {
  for (let i = 0; i < items.length; i++) if (!(i in items)) return true;
  return false;
}

const isWalkable = (value: unknown): value is object =>
  value !== null && typeof value === 'object' && !ArrayBuffer.isView(value);
