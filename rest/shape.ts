/**
 * Converts GraphQL's camelCase results to the REST contract's snake_case, recursively.
 */
export function snakeKey(key: string): string {
  return key.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
}

/** Deep copy with snake_case keys. JSON payloads that belong to users should be passed around this. */
export function snake<T = unknown>(value: unknown): T {
  if (Array.isArray(value)) return value.map((v) => snake(v)) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeKey(k), snake(v)])) as T;
  }
  return value as T;
}

/** snake_case keys at the top level, values (labels, payloads) left exactly as they are. */
export function snakeTop<T = unknown>(value: Record<string, unknown>, keepAsIs: string[] = []): T {
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [snakeKey(k), keepAsIs.includes(k) ? v : snake(v)]),
  ) as T;
}
