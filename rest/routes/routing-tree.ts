/**
 * REST routes of the routing tree (schema/routing-tree.ts): members read it and ask which route a label
 * set takes; admins replace it, manage receivers and import an alertmanager.yml.
 */
import type { RouteEntry } from '../route-types.js';
import {
  IMPORT_FIELDS,
  presentImport,
  presentReceiver,
  presentRouteMatch,
  presentTree,
  RECEIVER_FIELDS,
  ROUTE_MATCH_FIELDS,
  TREE_FIELDS,
} from '../presenters/routing-tree.js';

export const routingTreeRoutes: RouteEntry[] = [
  {
    method: 'get',
    path: '/routing/tree',
    operation: `query RoutingTree { routingTree { ${TREE_FIELDS} } }`,
    respond: (data) => presentTree(data.routingTree),
  },
  {
    method: 'put',
    path: '/routing/tree',
    operation: `mutation ReplaceRoutingTree($input: RoutingTreeInput!) { replaceRoutingTree(input: $input) { ${TREE_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    respond: (data) => presentTree(data.replaceRoutingTree),
  },
  {
    method: 'post',
    path: '/routing/test',
    operation: `query RouteTest($labels: JSON!) { routeTest(labels: $labels) { ${ROUTE_MATCH_FIELDS} } }`,
    variables: (req) => ({ labels: req.body.labels }),
    respond: (data) => ({ routes: data.routeTest.map(presentRouteMatch) }),
  },
  {
    method: 'post',
    path: '/routing/import',
    operation: `mutation ImportAlertmanagerConfig($input: ImportAlertmanagerConfigInput!) { importAlertmanagerConfig(input: $input) { ${IMPORT_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    respond: (data) => presentImport(data.importAlertmanagerConfig),
  },
  {
    method: 'get',
    path: '/routing/receivers',
    operation: `query RoutingReceivers { routingReceivers { ${RECEIVER_FIELDS} } }`,
    respond: (data) => ({ items: data.routingReceivers.map(presentReceiver) }),
  },
  {
    method: 'post',
    path: '/routing/receivers',
    operation: `mutation CreateRoutingReceiver($input: CreateRoutingReceiverInput!) { createRoutingReceiver(input: $input) { ${RECEIVER_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => presentReceiver(data.createRoutingReceiver),
  },
  {
    method: 'patch',
    path: '/routing/receivers/:receiverId',
    operation: `mutation UpdateRoutingReceiver($id: ID!, $input: UpdateRoutingReceiverInput!) { updateRoutingReceiver(id: $id, input: $input) { ${RECEIVER_FIELDS} } }`,
    variables: (req) => ({ id: req.params.receiverId, input: req.body }),
    respond: (data) => presentReceiver(data.updateRoutingReceiver),
  },
  {
    method: 'delete',
    path: '/routing/receivers/:receiverId',
    operation: 'mutation DeleteRoutingReceiver($id: ID!) { deleteRoutingReceiver(id: $id) }',
    variables: (req) => ({ id: req.params.receiverId }),
    status: 204,
  },
];
