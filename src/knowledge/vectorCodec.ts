// How chunk vectors are stored: one signed integer per dimension and one Float32 scale per vector
// (component ≈ integer × scale). Packs are written with 12-bit integers, two to three bytes
// (`vectors12`): every stored byte costs FerretDB CPU at sync (base64 in its JSON, which SQLite parses
// again for the `_id` index; docs/BENCHMARKS.md, issue 18), and 12 bits keep vector recall@10
// against an exhaustive Float32 scan at 1.000 on bench/chat.ts's clustered vectors. One byte per
// dimension was measured and dropped: its rounding (about 3e-4 on a dot product) reorders
// near-equal neighbours (recall 0.978).
// A segment holds and scores the integers as stored (vectors.ts).

/** Largest integer of each width; the scale maps a vector's largest |component| onto it. */
export const LEVELS = { 12: 2_047, 16: 32_767 } as const;

/** Vectors as stored: `codes.length / scales.length` components each, component ≈ code × scale. */
export interface StoredVectors {
  codes: Int16Array;
  scales: Float32Array;
}

/** Vectors of `dims` components, end to end, as one integer per component and one scale per vector. */
export const quantise = (floats: Float32Array, dims: number, bits: 12 | 16 = 16): StoredVectors => encode(floats, dims, bits, false)!;

/**
 * A provider's vectors scaled to unit length and quantised in one pass: the norm only divides the
 * scale (the integers of x and of x / |x| are the same), so no normalised copy is made. Null if a
 * vector holds a value that is not a finite number. A zero vector stays zero.
 */
export const quantiseUnit = (floats: Float32Array, dims: number, bits: 12 | 16 = 12): StoredVectors | null => encode(floats, dims, bits, true);

function encode(floats: Float32Array, dims: number, bits: 12 | 16, unit: boolean): StoredVectors | null {
  const levels = LEVELS[bits];
  // Rounds half up as Math.round does, for |x| ≤ levels, at about a third of its cost: a positive number truncated.
  const offset = levels + 1.5;
  const count = floats.length / dims;
  const codes = new Int16Array(floats.length);
  const scales = new Float32Array(count);
  for (let v = 0, base = 0; v < count; v++, base += dims) {
    let max = 0;
    let squares = 0;
    for (let j = base; j < base + dims; j++) {
      const x = floats[j]!;
      squares += x * x;
      const magnitude = Math.abs(x);
      if (magnitude > max) max = magnitude;
    }
    if (unit && !Number.isFinite(squares)) return null;
    const norm = unit ? Math.sqrt(squares) || 1 : 1;
    scales[v] = max / norm / levels || 1;
    // From the scale as stored (Float32), so decoding and encoding again gives the same integers.
    const inverse = 1 / (scales[v]! * norm);
    for (let j = base; j < base + dims; j++) codes[j] = ((floats[j]! * inverse + offset) | 0) - levels - 1;
  }
  return { codes, scales };
}

/** The Float32 vectors back: `codes.length / scales.length` components each. */
export function dequantise(codes: Int16Array, scales: Float32Array): Float32Array {
  const dims = codes.length / scales.length;
  const out = new Float32Array(codes.length);
  for (let v = 0, base = 0; v < scales.length; v++, base += dims) {
    const scale = scales[v]!;
    for (let j = base; j < base + dims; j++) out[j] = codes[j]! * scale;
  }
  return out;
}

/** 12-bit integers (within ±2,047), two to three bytes (an odd count ends with a half-filled pair). */
export function pack12(codes: Int16Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(codes.length / 2) * 3);
  // Whole pairs in a loop of their own: without the check for a missing second value it runs in
  // about two thirds of the time (12 packs of 500 × 384: 12-13 → 8-9 ms on the sync's main thread).
  const pairs = codes.length >> 1;
  let [i, o] = [0, 0];
  for (let p = 0; p < pairs; p++, i += 2, o += 3) {
    // Offset by 2,048 to unsigned; a Uint8Array keeps the low 8 bits of what is stored.
    const a = codes[i]! + 2_048;
    const b = codes[i + 1]! + 2_048;
    out[o] = a;
    out[o + 1] = (a >> 8) | (b << 4);
    out[o + 2] = b >> 4;
  }
  // An odd count: the last pair's second value is 0 (→ 2,048).
  if (i < codes.length) {
    const a = codes[i]! + 2_048;
    out[o] = a;
    out[o + 1] = (a >> 8) | (2_048 << 4);
    out[o + 2] = 2_048 >> 4;
  }
  return out;
}

/** The first `count` integers of pack12's bytes (fewer if the bytes end early). */
export function unpack12(bytes: Uint8Array, count: number): Int16Array {
  const n = Math.min(count, Math.floor(bytes.length / 3) * 2);
  const out = new Int16Array(n);
  for (let i = 0, o = 0; i < n; i += 2, o += 3) {
    const middle = bytes[o + 1]!;
    out[i] = (bytes[o]! | ((middle & 0x0f) << 8)) - 2_048;
    if (i + 1 < n) out[i + 1] = ((middle >> 4) | (bytes[o + 2]! << 4)) - 2_048;
  }
  return out;
}
