/**
 * Documents and patterns that cost far more to process than to send (issue 40), shared by the tests, the
 * fuzz families and `npm run bench:abuse`.
 */

/**
 * Fragments each spreading the next one twice: `query { ...F0 } fragment F0 on Query { ...F1 ...F1 } …
 * fragment F<levels-1> on Query { __typename }` expands to 2^(levels-1) selections. `sep` is what stands
 * between tokens (spaces, newlines, commas, comments), so each variant is a new text for any cache.
 */
export function fragmentBomb(levels: number, sep = ' '): string {
  let d = `query${sep}{${sep}...F0${sep}}`;
  for (let i = 0; i < levels - 1; i++)
    d += `${sep}fragment F${i} on Query${sep}{${sep}...F${i + 1}${sep}...F${i + 1}${sep}}`;
  return d + `${sep}fragment F${levels - 1} on Query${sep}{${sep}__typename${sep}}`;
}

/** The glob of issue 40 (`*a` fourteen times): exponential for a backtracking regex against a long type. */
export const PATHOLOGICAL_GLOB = '*a'.repeat(14);
