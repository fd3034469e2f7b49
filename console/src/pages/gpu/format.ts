/** A GPU figure with `digits` decimals, or `—` when the GPU did not report it. */
export const num = (v: number | null | undefined, digits = 0) =>
  v === null || v === undefined ? '—' : v.toFixed(digits);
