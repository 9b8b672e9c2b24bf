// How chunk vectors are stored: one signed byte per dimension and one Float32 scale per vector
// (component ≈ byte × scale), a quarter of the Float32 bytes. FerretDB keeps binary fields base64 in
// its JSON, and every stored byte costs both processes CPU at sync (docs/BENCHMARKS.md, issue 18).
// For unit vectors the rounding moves a dot product by about 1e-3; search works on the decoded
// Float32 values, so only that error reaches the ranking.

/** Vectors of `dims` components, end to end, as one byte per component and one scale per vector. */
export function quantise(floats: Float32Array, dims: number): { codes: Int8Array; scales: Float32Array } {
  const count = floats.length / dims;
  const codes = new Int8Array(floats.length);
  const scales = new Float32Array(count);
  for (let v = 0, base = 0; v < count; v++, base += dims) {
    let max = 0;
    for (let j = base; j < base + dims; j++) max = Math.max(max, Math.abs(floats[j]!));
    scales[v] = max / 127 || 1;
    // The scale as stored (Float32), so decoding and encoding again gives the same bytes.
    const scale = scales[v]!;
    for (let j = base; j < base + dims; j++) codes[j] = Math.round(floats[j]! / scale);
  }
  return { codes, scales };
}

/** The Float32 vectors back: `codes.length / scales.length` components each. */
export function dequantise(codes: Int8Array, scales: Float32Array): Float32Array {
  const dims = codes.length / scales.length;
  const out = new Float32Array(codes.length);
  for (let v = 0, base = 0; v < scales.length; v++, base += dims) {
    const scale = scales[v]!;
    for (let j = base; j < base + dims; j++) out[j] = codes[j]! * scale;
  }
  return out;
}
