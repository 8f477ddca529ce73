import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type CartLine, compactLine } from '../../src/engine/work.js';
import { deflatedSnapshot } from '../../src/carts/stored-line.js';
import type { EvaluatedLine } from '../../src/engine-runtime/compiled-models.service.js';
import { lineBytes, transferOf } from '../../src/engine-runtime/tasks/line-snapshot.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A line as the engine writes it: `version_number` first. */
const line = {
  version_number: 3,
  general: { model_id: 7, name: 'Window — "ß"' },
  imports: [],
  questions: [],
  variables: {},
  rules: [],
  triggers: [],
  bom_items: [],
  pricing: { total: '10.00', currency: 'EUR' },
} as unknown as CartLine;

describe('line snapshot bytes (the worker) and their deflated columns (the main thread)', () => {
  it('cuts the stored form from the serialized line: the same JSON without version_number', () => {
    const { line: bytes, snapshot } = lineBytes(line, { view: 'full', snapshot: true }, 3);
    const { version_number: _version, ...rest } = line as unknown as Record<string, unknown>;
    expect(text(snapshot!.full)).toBe(JSON.stringify(rest));
    // The answer's line is the stored view itself (the main thread adds version_number).
    expect(bytes).toBe(snapshot!.full);
    const { version_number: _v, ...compact } = compactLine(line) as unknown as Record<
      string,
      unknown
    >;
    expect(text(snapshot!.compact)).toBe(JSON.stringify(compact));
    // Each view's buffer moves once.
    expect(transferOf(bytes, snapshot)).toHaveLength(2);
  });

  it('answers the asked view, and only the line when no snapshot is asked', () => {
    const compact = lineBytes(line, { view: 'compact', snapshot: true }, 3);
    const { version_number: _version, ...trimmed } = compactLine(line) as unknown as Record<
      string,
      unknown
    >;
    expect(text(compact.line)).toBe(JSON.stringify(trimmed));
    expect(compact.line).toBe(compact.snapshot!.compact);
    expect(transferOf(compact.line, compact.snapshot)).toHaveLength(2);
    const plain = lineBytes(line, { view: 'full' }, 3);
    expect(plain.snapshot).toBeUndefined();
    expect(transferOf(plain.line, undefined)).toHaveLength(1);
  });

  it('still drops version_number should the engine write it elsewhere', () => {
    const { version_number: version, ...rest } = line as unknown as Record<string, unknown>;
    const moved = { ...rest, version_number: version } as unknown as CartLine;
    const { snapshot } = lineBytes(moved, { view: 'full', snapshot: true }, 3);
    expect(JSON.parse(text(snapshot!.full))).toEqual(rest);
  });

  it('stores both views deflated and base64, which inflate to the bytes made', async () => {
    const { line: bytes, snapshot } = lineBytes(line, { view: 'full', snapshot: true }, 3);
    const evaluation = { line: bytes, snapshot } as unknown as EvaluatedLine;
    const columns = await deflatedSnapshot(evaluation);
    expect(inflateSync(Buffer.from(columns.snapshot, 'base64')).toString()).toBe(
      text(snapshot!.full),
    );
    expect(inflateSync(Buffer.from(columns.compactSnapshot, 'base64')).toString()).toBe(
      text(snapshot!.compact),
    );
    expect(columns.engineVersion).toBe(snapshot!.engineVersion);
    await expect(deflatedSnapshot({ line: bytes } as unknown as EvaluatedLine)).rejects.toThrow();
  });
});
