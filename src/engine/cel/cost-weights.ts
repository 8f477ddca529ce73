import { NODE_UNITS } from './cost-shapes.js';

/*
 * Calibrated weights of the cel-js functions whose work is not one unit per element or
 * character (docs/ENGINE.md "Expression cost" has the table and the command,
 * `node bench/cel-cost.bench.mjs`). Each is the slowest time measured for its worst input,
 * on the 2-core development VM under load (load average 4–7), divided by 2.5 ns — the
 * calibration of NODE_UNITS —, rounded up. Kept apart from the prices that use them, of
 * global functions (cost-functions.ts) and of receiver methods (method-costs.ts), so the
 * calibration reads as one table.
 */
/** Longest text a number, bool or bytes conversion to string can produce (`string(-1.2345e-300)`). */
export const SCALAR_TEXT = 32;
/** JSON.parse, per byte: every byte may start a value (~85 ns measured for `[[[…]]]`). */
export const JSON_BYTE_UNITS = 50;

/**
 * Time-zone getters (`getHours('Europe/Berlin')`): cel-js converts with
 * `toLocaleString('en-US', {timeZone})` on every call: 120–200 µs measured at load 2,
 * up to 540 µs at load 7. 200,000 units (500 µs): one expression can make at most 5 such
 * calls within the default expressionCost.
 */
export const TIME_ZONE_UNITS = 200_000;
/**
 * Making a timestamp or duration, or reading one without a time zone: a Date, a BigInt
 * (0.3–1.4 µs measured per call, with the iteration around it).
 */
export const TIME_UNITS = 25 * NODE_UNITS;
/** duration(text): per character, a component's RegExp match, slices and BigInt arithmetic. */
export const DURATION_CHAR_UNITS = 25 * NODE_UNITS;
/** size of a string: cel-js counts code points with a string iterator (~36 ns per unit). */
export const CODE_POINT_UNITS = 16;
/** lowerAscii/upperAscii: Unicode case mapping, up to ~140 ns per unit ('İ', 'ﬃ'). */
export const CASE_UNITS = 60;
/** string(bytes), bytes.string(): UTF-8 decoding, ~25 ns per byte of non-ASCII text. */
export const DECODE_UNITS = 10;
/**
 * `matches` on re2js, per character of text: MATCH_CHAR_UNITS (the matcher's own work per
 * character: 110–420 ns measured for 6-instruction programs such as `^[a-z]+$` at load
 * 3–5, one outlier of 1.1 µs) plus MATCH_UNITS per instruction of the compiled program
 * (30–70 ns per character and instruction for programs of 300–5,000 instructions). A
 * case-folding pattern (`(?i)`) costs up to 3× more per instruction (FOLD_FACTOR): 180 ns
 * measured for folded literals.
 */
export const MATCH_UNITS = 30;
export const MATCH_CHAR_UNITS = 10 * NODE_UNITS;
export const FOLD_FACTOR = 3;
/**
 * A case-folding pattern with a Unicode class (`\pL`) or a negated one (`[^…]`): the
 * folded class is a long list of rune ranges scanned per character (5.9–7.5 ns per unit
 * measured at FOLD_FACTOR for `(?i)[\pL\pN\pS\pP\pM]{10}z`, against 2.5: × 3, rounded up).
 */
export const FOLD_CLASS_FACTOR = 10;
/**
 * Compiling a computed pattern at evaluation (regex.ts `computedProgram` refuses counted
 * repetition, Unicode classes and flags): up to ~8 µs per pattern character measured
 * (`.`, `(a*)*`, `[^a]`), and ~40–100 µs for any pattern.
 */
export const COMPILE_CHAR_UNITS = 4_000;
export const COMPILE_UNITS = 40_000;
