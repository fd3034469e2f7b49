/**
 * REST route of the release this server runs: GET /version, GraphQL `serverInfo` in REST's shape.
 */
import type { RouteEntry } from '../route-types.js';
import { presentServerVersion } from '../presenters/meta.js';

export const metaRoutes: RouteEntry[] = [
  {
    method: 'get',
    path: '/version',
    operation: 'query ServerInfo { serverInfo { version schemaHash features } }',
    respond: (data) => presentServerVersion(data.serverInfo),
  },
];
