// How chunk vectors are stored: one signed 16-bit integer per dimension and one Float32 scale per
// vector (component ≈ integer × scale), half the bytes of Float32. FerretDB keeps binary fields
// base64 in its JSON, and every stored byte costs both processes CPU at sync (docs/BENCHMARKS.md,
// issue 18). One byte per dimension was measured too: a quarter of the bytes, but its rounding
// (about 3e-4 on a dot product) reorders near-equal neighbours, and vector recall@10 against an
// exhaustive Float32 scan fell to 0.978 on bench/chat.ts's clustered vectors (1.000 with 16 bits).
// Search works on the decoded Float32 values.

const LEVELS = 32_767;

/** Vectors of `dims` components, end to end, as one integer per component and one scale per vector. */
export function quantise(floats: Float32Array, dims: number): { codes: Int16Array; scales: Float32Array } {
  const count = floats.length / dims;
  const codes = new Int16Array(floats.length);
  const scales = new Float32Array(count);
  for (let v = 0, base = 0; v < count; v++, base += dims) {
    let max = 0;
    for (let j = base; j < base + dims; j++) {
      const x = floats[j]!;
      if (x > max) max = x;
      else if (-x > max) max = -x;
    }
    scales[v] = max / LEVELS || 1;
    // From the scale as stored (Float32), so decoding and encoding again gives the same integers.
    const inverse = 1 / scales[v]!;
    for (let j = base; j < base + dims; j++) codes[j] = Math.round(floats[j]! * inverse);
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
