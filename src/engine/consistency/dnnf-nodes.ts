import { AND, DNNF_FALSE, DNNF_TRUE, type DnnfForm } from './dnnf-form.js';
import { SequenceMap } from './dnnf-keys.js';

/**
 * The nodes of a decision-DNNF being compiled (dnnf-compile.ts), each made once (a unique
 * table), with the simplifications that keep it small: a decision with no solution is
 * FALSE, a conjunction with a FALSE kid is FALSE, TRUE kids are left out and a
 * conjunction of one kid is that kid.
 */
export class NodeTable {
  private readonly nodeLayer: number[] = [AND, AND];
  private readonly kidStart: number[] = [0, 0];
  private readonly kids: number[] = [];
  private readonly unique = new SequenceMap();
  private key = new Int32Array(64);

  /** Bytes held: the node arrays (JavaScript numbers) and the unique table's keys. */
  get bytes(): number {
    return (this.nodeLayer.length * 2 + this.kids.length) * 8 + this.unique.bytes;
  }

  /** The decision on `layer` whose value v leads to `kids[v]`. */
  decision(layer: number, kids: readonly number[]): number {
    if (kids.every((kid) => kid === DNNF_FALSE)) return DNNF_FALSE;
    return this.make(layer, kids);
  }

  /** The layer restricted to the values of `mask` (a decision with TRUE and FALSE kids). */
  literal(layer: number, mask: number, size: number): number {
    const kids: number[] = [];
    for (let v = 0; v < size; v++) kids.push((mask & (1 << v)) === 0 ? DNNF_FALSE : DNNF_TRUE);
    return this.decision(layer, kids);
  }

  /** The conjunction of kids over disjoint layers. */
  conjunction(kids: readonly number[]): number {
    const kept: number[] = [];
    for (const kid of kids) {
      if (kid === DNNF_FALSE) return DNNF_FALSE;
      if (kid !== DNNF_TRUE) kept.push(kid);
    }
    if (kept.length === 0) return DNNF_TRUE;
    if (kept.length === 1) return kept[0];
    kept.sort((a, b) => a - b);
    return this.make(AND, kept);
  }

  private make(layer: number, kids: readonly number[]): number {
    if (this.key.length <= kids.length) this.key = new Int32Array(2 * kids.length + 2);
    const { key } = this;
    key[0] = layer;
    for (let k = 0; k < kids.length; k++) key[k + 1] = kids[k];
    const known = this.unique.get(key, kids.length + 1);
    if (known >= 0) return known;
    const id = this.nodeLayer.length;
    this.nodeLayer.push(layer);
    this.kidStart.push(this.kids.length);
    for (const kid of kids) this.kids.push(kid);
    this.unique.set(key, kids.length + 1, id);
    return id;
  }

  /** The nodes reachable from `root`, renumbered in their order (kids before parents). */
  finish(root: number): DnnfForm {
    const count = this.nodeLayer.length;
    const kidStart = [...this.kidStart, this.kids.length];
    const reached = new Uint8Array(count);
    reached[DNNF_FALSE] = 1;
    reached[DNNF_TRUE] = 1;
    reached[root] = 1;
    for (let n = root; n > DNNF_TRUE; n--) {
      if (reached[n] === 0) continue;
      for (let k = kidStart[n]; k < kidStart[n + 1]; k++) reached[this.kids[k]] = 1;
    }
    const id = new Int32Array(count);
    let next = 0;
    let edges = 0;
    for (let n = 0; n < count; n++) {
      if (reached[n] === 0) continue;
      id[n] = next++;
      edges += kidStart[n + 1] - kidStart[n];
    }
    const nodeLayer = new Int32Array(next);
    const flatStart = new Int32Array(next + 1);
    const kids = new Int32Array(edges);
    let at = 0;
    for (let n = 0; n < count; n++) {
      if (reached[n] === 0) continue;
      nodeLayer[id[n]] = this.nodeLayer[n];
      flatStart[id[n]] = at;
      for (let k = kidStart[n]; k < kidStart[n + 1]; k++) kids[at++] = id[this.kids[k]];
    }
    flatStart[next] = at;
    return { nodeLayer, kidStart: flatStart, kids, root: id[root] };
  }
}
