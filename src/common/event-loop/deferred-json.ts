/**
 * An element of a list that the serializer asks for when it reaches it and forgets once
 * it is written: one of many large values (a page of cart lines, each evaluated on read;
 * a page of model descriptions) held one at a time, not all together. Only
 * serializeInSlices knows how to wait for it, and only as an element of an array it
 * writes element by element (down to the depth of a cart page's lines); `JSON.stringify`
 * refuses it rather than write `{}`.
 */
export class DeferredJson<T = unknown> {
  constructor(readonly resolve: () => Promise<T>) {}

  toJSON(): never {
    throw new TypeError('A DeferredJson is written by serializeInSlices only');
  }
}
