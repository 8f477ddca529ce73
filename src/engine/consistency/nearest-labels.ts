/**
 * The labels of the nearest-configuration search (nearest-search.ts) and its priority
 * queue. A label is one path found to a node: its node, the label it extends and the
 * value of that edge (to trace the path back), its key (changes, the changed answers'
 * positions ascending, the price paid and the estimate with the heuristic). Labels are
 * never changed once made (a better path to a node is a new label, the old one skipped
 * when popped), in growable columns reused by the next search of the form.
 */
export interface Labels {
  count: number;
  node: Int32Array;
  parent: Int32Array;
  value: Int32Array;
  changes: Int32Array;
  price: Float64Array;
  estimate: Float64Array;
  /** Per label the changed positions; shared by the labels of edges that change nothing. */
  changed: Array<readonly number[]>;
}

const INITIAL = 1024;

export function newLabels(): Labels {
  return {
    count: 0,
    node: new Int32Array(INITIAL),
    parent: new Int32Array(INITIAL),
    value: new Int32Array(INITIAL),
    changes: new Int32Array(INITIAL),
    price: new Float64Array(INITIAL),
    estimate: new Float64Array(INITIAL),
    changed: [],
  };
}

function grown<T extends Int32Array | Float64Array>(array: T): T {
  const result = new (array.constructor as new (size: number) => T)(array.length * 2);
  result.set(array);
  return result;
}

/** A new label (its estimate is set by the caller); returns its index. */
export function pushLabel(
  labels: Labels,
  node: number,
  parent: number,
  value: number,
  changes: number,
  changed: readonly number[],
  price: number,
): number {
  const at = labels.count++;
  if (at === labels.node.length) {
    labels.node = grown(labels.node);
    labels.parent = grown(labels.parent);
    labels.value = grown(labels.value);
    labels.changes = grown(labels.changes);
    labels.price = grown(labels.price);
    labels.estimate = grown(labels.estimate);
  }
  labels.node[at] = node;
  labels.parent[at] = parent;
  labels.value[at] = value;
  labels.changes[at] = changes;
  labels.changed[at] = changed;
  labels.price[at] = price;
  return at;
}

/**
 * Two sets of changed positions (ascending) as the binary numbers they stand for, the
 * earliest position the most significant bit: negative when `a` is the less. The set
 * that holds the least position of their difference is the greater.
 */
export function compareSets(a: readonly number[], b: readonly number[]): number {
  if (a === b) return 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
    } else return a[i] < b[j] ? 1 : -1;
  }
  return i < a.length ? 1 : j < b.length ? -1 : 0;
}

/**
 * Label `label`'s key against (changes, set, estimate): negative when the label's is
 * less. The key: the changes, then the changed positions (compareSets: of equal counts,
 * the path that keeps the earlier answers), then the estimated price.
 */
export function compareKey(
  labels: Labels,
  label: number,
  changes: number,
  set: readonly number[],
  estimate: number,
): number {
  const own = labels.changes[label];
  if (own !== changes) return own - changes;
  const sets = compareSets(labels.changed[label], set);
  if (sets !== 0) return sets;
  return labels.estimate[label] - estimate;
}

/** Label a before label b: the lesser key, else the older label (a deterministic order). */
function before(labels: Labels, a: number, b: number): boolean {
  const key = compareKey(labels, a, labels.changes[b], labels.changed[b], labels.estimate[b]);
  return key !== 0 ? key < 0 : a < b;
}

/** A binary min-heap of label indices in `before` order. */
export class LabelHeap {
  private items = new Int32Array(INITIAL);
  private size = 0;

  constructor(private readonly labels: Labels) {}

  push(label: number): void {
    if (this.size === this.items.length) this.items = grown(this.items);
    const items = this.items;
    let at = this.size++;
    while (at > 0) {
      const up = (at - 1) >> 1;
      if (!before(this.labels, label, items[up])) break;
      items[at] = items[up];
      at = up;
    }
    items[at] = label;
  }

  /** The least label, or -1 when empty. */
  pop(): number {
    if (this.size === 0) return -1;
    const items = this.items;
    const top = items[0];
    const last = items[--this.size];
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && before(this.labels, items[child + 1], items[child])) child++;
      if (!before(this.labels, items[child], last)) break;
      items[at] = items[child];
      at = child;
    }
    items[at] = last;
    return top;
  }
}
