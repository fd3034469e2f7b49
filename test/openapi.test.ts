import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { call } from './helpers/http.js';
import { routes } from '../rest/routes/index.js';
import { loadOpenApi } from '../rest/openapi.js';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.stop();
});

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `METHOD /path` for every operation of the document, with `{param}` placeholders. */
function documentedOperations(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths).flatMap(([p, item]) =>
    Object.keys(item)
      .filter((k) => METHODS.includes(k))
      .map((m) => `${m.toUpperCase()} ${p}`),
  );
}

/** `METHOD /path` for every entry of the REST route table, `:param` written as `{param}`. */
function tableOperations(): string[] {
  return routes.map((r) => `${r.method.toUpperCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
}

/** The src/href URLs of an HTML page. */
function assetUrls(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]);
}

const EXTERNAL = /^(?:https?:)?\/\//i;

/** Keywords a schema object may carry (JSON Schema 2020-12 as used by OpenAPI 3.1). */
const SCHEMA_KEYWORDS = new Set([
  'type',
  'description',
  'format',
  'enum',
  'const',
  'items',
  'prefixItems',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'default',
  'example',
  'examples',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  '$ref',
  'title',
  'readOnly',
  'writeOnly',
  'deprecated',
  'discriminator',
  'contentMediaType',
  'contentEncoding',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
]);

describe('/openapi.json', () => {
  it('passes the OpenAPI 3.1 validator', async () => {
    const res = await call(s.url, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1\./);
    await expect(SwaggerParser.validate(structuredClone(res.body))).resolves.toBeTruthy();
  });

  it('is checked by a validator that rejects an invalid 3.1 document', async () => {
    const res = await call(s.url, 'GET', '/openapi.json');
    const broken = structuredClone(res.body);
    // A response object without its required description, and an operation with a duplicated parameter.
    const [firstPath] = Object.keys(broken.paths);
    const op = Object.values(broken.paths[firstPath]).find((v) => typeof v === 'object' && v && 'responses' in v) as {
      responses: Record<string, unknown>;
    };
    op.responses['599'] = { content: {} };
    await expect(SwaggerParser.validate(broken)).rejects.toThrow();
  });

  it('documents every route of the REST table with its method', async () => {
    const res = await call(s.url, 'GET', '/openapi.json');
    const documented = new Set(documentedOperations(res.body));
    const missing = tableOperations().filter((op) => !documented.has(op));
    expect(missing, 'routes in rest/routes without an OpenAPI operation').toEqual([]);
  });

  it('documents no operation that the REST table does not implement', async () => {
    const res = await call(s.url, 'GET', '/openapi.json');
    const implemented = new Set(tableOperations());
    const extra = documentedOperations(res.body).filter((op) => !implemented.has(op));
    expect(extra, 'OpenAPI operations with no route in rest/routes').toEqual([]);
  });

  it('uses only JSON Schema keywords in its schemas (a comma or colon in an unquoted YAML description splits it into bogus keys)', async () => {
    const res = await call(s.url, 'GET', '/openapi.json');
    const problems: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      const o = node as Record<string, unknown>;
      const isSchema = 'type' in o || '$ref' in o || 'oneOf' in o || 'allOf' in o || 'anyOf' in o;
      if (isSchema && !at.includes('/securitySchemes/')) {
        for (const k of Object.keys(o)) if (!SCHEMA_KEYWORDS.has(k)) problems.push(`${at}: "${k}"`);
      }
      for (const [k, v] of Object.entries(o)) {
        if (k === 'example' || k === 'examples') continue;
        // A `properties` map is keyed by property names (which may be "type"): walk its values only.
        if (isSchema && (k === 'properties' || k === 'patternProperties') && v && typeof v === 'object') {
          for (const [name, sub] of Object.entries(v)) walk(sub, `${at}/${k}/${name}`);
        } else walk(v, `${at}/${k}`);
      }
    };
    walk(res.body.paths, '#/paths');
    walk(res.body.components?.schemas, '#/components/schemas');
    expect(problems).toEqual([]);
  });

  it('bounds every string (maxLength), array (maxItems) and number (maximum) of the contract', () => {
    // The merged document as the validator sees it: every path, component and webhook, requests and responses.
    const doc = loadOpenApi();
    const problems: string[] = [];
    const typesOf = (o: Record<string, unknown>): unknown[] =>
      Array.isArray(o.type) ? o.type : o.type !== undefined ? [o.type] : [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      const o = node as Record<string, unknown>;
      const types = typesOf(o);
      const bounded = 'enum' in o || 'const' in o;
      // A stream has no length; everything else does.
      const stream = at.includes('/text/event-stream/');
      if (types.includes('string') && !bounded && !stream && typeof o.maxLength !== 'number')
        problems.push(`${at}: string without maxLength`);
      if (types.includes('array') && typeof o.maxItems !== 'number') problems.push(`${at}: array without maxItems`);
      if ((types.includes('integer') || types.includes('number')) && !bounded && typeof o.maximum !== 'number')
        problems.push(`${at}: number without maximum`);
      for (const [k, v] of Object.entries(o)) {
        if (k === 'example' || k === 'examples') continue;
        walk(v, `${at}/${k}`);
      }
    };
    walk(doc.paths, '#/paths');
    walk(doc.components, '#/components');
    walk(doc.webhooks, '#/webhooks');
    expect(problems).toEqual([]);
  });

  it('gives every operation error responses and a JSON success schema unless it has no content', async () => {
    const res = await call(s.url, 'GET', '/openapi.json');
    const problems: string[] = [];
    for (const [p, item] of Object.entries(res.body.paths as Record<string, Record<string, any>>)) {
      for (const m of Object.keys(item).filter((k) => METHODS.includes(k))) {
        const responses = item[m].responses ?? {};
        const codes = Object.keys(responses);
        if (!codes.some((c) => /^[45]/.test(c))) problems.push(`${m.toUpperCase()} ${p}: no error response`);
        // A browser step (the single sign-on callback) succeeds with a 303 to the next page.
        const success = codes.filter((c) => /^2/.test(c) || c === '303');
        if (!success.length) problems.push(`${m.toUpperCase()} ${p}: no success response`);
        for (const c of success) {
          const r = responses[c];
          if (c !== '204' && c !== '303' && !r.$ref && !r.content)
            problems.push(`${m.toUpperCase()} ${p}: ${c} has no content schema`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('/docs', () => {
  it('serves an HTML viewer whose scripts and styles all come from this server', async () => {
    const res = await call(s.url, 'GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const urls = assetUrls(res.body as string);
    expect(urls.length).toBeGreaterThanOrEqual(3);
    expect(urls.filter((u) => EXTERNAL.test(u))).toEqual([]);
    for (const u of urls) {
      const asset = await fetch(new URL(u, s.url + '/docs'));
      expect(asset.status, u).toBe(200);
      const body = await asset.text();
      expect(body.length, u).toBeGreaterThan(0);
      if (u.endsWith('.js') && !u.includes('swagger-ui-bundle'))
        expect(body.match(/https?:\/\/[^\s'"]+/g) ?? [], u).toEqual([]);
    }
  });

  it('points the viewer at /openapi.json and turns off the online validator badge', async () => {
    const init = await fetch(s.url + '/docs/init.js').then((r) => r.text());
    expect(init).toContain("url: '/openapi.json'");
    expect(init).toContain('validatorUrl: null');
  });
});
