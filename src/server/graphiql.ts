/**
 * GraphiQL that works offline. Yoga's default page loads GraphiQL from a CDN, which these machines
 * cannot reach; `@graphql-yoga/render-graphiql` bundles the same GraphiQL build. Rather than inlining
 * its ~9 MB into every page, the page references the bundle, the stylesheet and the Monaco editor
 * workers as static assets served (and cached by browsers) from this server.
 */
import crypto from 'node:crypto';
import express, { type Router } from 'express';
import type { GraphiQLOptions } from 'graphql-yoga';
import { DomainError } from '../errors.js';
import { restError } from '../http/error-mapping.js';

export const GRAPHIQL_ASSETS_PATH = '/graphiql/assets';

interface Asset {
  type: string;
  body: Buffer;
  etag: string;
}

type Bundle = typeof import('@graphql-yoga/render-graphiql/graphiql');

/** Asset file name → how to get its content from the bundle. */
const ASSETS: Record<string, { type: string; pick: (b: Bundle) => Buffer }> = {
  'yoga-graphiql.js': { type: 'application/javascript; charset=utf-8', pick: (b) => Buffer.from(b.js) },
  'graphiql.css': { type: 'text/css; charset=utf-8', pick: (b) => Buffer.from(b.css) },
  'editor.worker.js': {
    type: 'application/javascript; charset=utf-8',
    pick: (b) => Buffer.from(b.editorWorkerService),
  },
  'json.worker.js': { type: 'application/javascript; charset=utf-8', pick: (b) => Buffer.from(b.jsonWorker) },
  'graphql.worker.js': { type: 'application/javascript; charset=utf-8', pick: (b) => Buffer.from(b.graphqlWorker) },
  'favicon.ico': {
    type: 'image/x-icon',
    pick: (b) => Buffer.from(b.favicon.slice(b.favicon.indexOf(',') + 1), 'base64'),
  },
};

let loaded: Promise<Map<string, Asset>> | undefined;

/** The assets, loaded on first use (the bundle is large; servers that never show GraphiQL skip it). */
function assets(): Promise<Map<string, Asset>> {
  loaded ??= import('@graphql-yoga/render-graphiql/graphiql').then((bundle) => {
    const map = new Map<string, Asset>();
    for (const [name, a] of Object.entries(ASSETS)) {
      const body = a.pick(bundle);
      map.set(name, {
        type: a.type,
        body,
        etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      });
    }
    return map;
  });
  return loaded;
}

/** Serves the GraphiQL bundle, stylesheet, editor workers and icon; unknown names are 404. */
export function graphiqlAssets(): Router {
  const router = express.Router();
  router.get('/:file', async (req, res, next) => {
    try {
      const asset = (await assets()).get(req.params.file);
      if (!asset) {
        const e = restError(new DomainError('NOT_FOUND', 'No such GraphiQL asset.', {}, 'ROUTE_NOT_FOUND'));
        res.status(e.status).json(e.body);
        return;
      }
      res.setHeader('content-type', asset.type);
      res.setHeader('cache-control', 'public, max-age=86400');
      res.setHeader('etag', asset.etag);
      if (req.headers['if-none-match'] === asset.etag) {
        res.status(304).end();
        return;
      }
      res.send(asset.body);
    } catch (err) {
      next(err);
    }
  });
  return router;
}

/** JSON safe to embed in an inline <script> (no `</script>` or `<!--` can end it early). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The GraphiQL page (yoga's `renderGraphiQL`): every script, style and worker comes from this server. */
export function renderOfflineGraphiQL(opts: GraphiQLOptions): string {
  const a = GRAPHIQL_ASSETS_PATH;
  const workers = {
    editorWorkerService: `${a}/editor.worker.js`,
    json: `${a}/json.worker.js`,
    graphql: `${a}/graphql.worker.js`,
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(opts.title ?? 'GraphiQL')}</title>
<link rel="icon" href="${a}/favicon.ico">
<link rel="stylesheet" href="${a}/graphiql.css">
</head>
<body id="body" class="no-focus-outline">
<noscript>You need to enable JavaScript to run GraphiQL.</noscript>
<div id="root"></div>
<script>
const workerUrls = ${scriptJson(workers)};
self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_moduleId, label) => workerUrls[label] ?? workerUrls.editorWorkerService };
</script>
<script src="${a}/yoga-graphiql.js"></script>
<script>YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), ${scriptJson(opts)});</script>
</body>
</html>
`;
}
