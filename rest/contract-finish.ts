/**
 * What every operation of the REST contract shares, declared in one place instead of in each of the area
 * fragments (rest/openapi/*.yaml): every /api/v1 answer carries the API-wide rate-limit headers
 * (src/http/api-rate-limit.ts), every operation may answer 429 (that limit) and 500 (`INTERNAL_ERROR`), and the
 * server is public (`x-internal: false`). Applied to the merged document by `loadOpenApi()`, so what
 * /openapi.json serves, what the validator checks and what contract/ records all include it.
 */
type Doc = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': {
    description: 'Requests allowed per minute with this credential (`API_RATE_PER_MINUTE`).',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 2147483647 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current minute.',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the budget refills.',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 60 },
  },
};

const HEADER_REFS = Object.fromEntries(
  Object.keys(RATE_LIMIT_HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }]),
);

/** A response object (not a `$ref`) of a 2xx or 4xx status gets the rate-limit headers. */
function addHeaders(status: string, response: Doc): void {
  if (!/^[24]/.test(status) || !response || response.$ref) return;
  response.headers = { ...HEADER_REFS, ...(response.headers ?? {}) };
}

export function finishContract(doc: Doc): Doc {
  doc.components ??= {};
  doc.components.headers = { ...RATE_LIMIT_HEADERS, ...(doc.components.headers ?? {}) };
  doc.components.responses ??= {};
  doc.components.responses.InternalError ??= {
    description: 'An unexpected failure on the server; the body names no internals. Retry later.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  for (const [name, response] of Object.entries(doc.components.responses as Record<string, Doc>)) {
    // Component responses are used under 4xx and 5xx statuses alike; 5xx ones are not counted answers.
    if (name !== 'InternalError') addHeaders('4', response);
  }
  for (const item of Object.values(doc.paths as Record<string, Doc>)) {
    for (const method of METHODS) {
      const op = item[method] as Doc | undefined;
      if (!op) continue;
      op.responses ??= {};
      op.responses['429'] ??= { $ref: '#/components/responses/RateLimited' };
      op.responses['500'] ??= { $ref: '#/components/responses/InternalError' };
      for (const [status, response] of Object.entries(op.responses as Record<string, Doc>))
        addHeaders(status, response);
    }
  }
  doc.servers = (doc.servers ?? []).map((s: Doc) => ({ 'x-internal': false, ...s }));
  return doc;
}
