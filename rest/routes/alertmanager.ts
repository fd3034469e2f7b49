/**
 * Alertmanager API v2 at /api/v1/alertmanager/api/v2/, so Prometheus (`alerting.alertmanagers` with
 * `path_prefix: /api/v1/alertmanager`) and amtool (`--alertmanager.url=<base>/api/v1/alertmanager`)
 * work unchanged. `POST /alerts` takes a tenant ingest key as `Authorization: Bearer`; the rest take
 * a PAT. These are handler routes: the wire shapes, filters and answers are Alertmanager's, not
 * ours; the handlers call the same services as GraphQL (src/alertmanager, src/routing).
 */
import type { RouteEntry } from '../route-types.js';
import { alertmanagerIngestAuth } from '../../src/alertmanager/auth.js';
import { receiveAlertmanagerAlerts } from '../../src/alertmanager/ingest.js';
import {
  alertmanagerStatus,
  deleteAlertmanagerSilence,
  getAlertmanagerSilence,
  listAlertmanagerAlerts,
  listAlertmanagerSilences,
  postAlertmanagerSilence,
} from '../../src/alertmanager/api.js';

const BASE = '/alertmanager/api/v2';

export const alertmanagerRoutes: RouteEntry[] = [
  {
    method: 'post',
    path: `${BASE}/alerts`,
    auth: alertmanagerIngestAuth,
    // The service checks the list as Alertmanager's postableAlerts, with field-named 422s.
    validatesOwnInput: true,
    handler: async (req, res) => {
      await receiveAlertmanagerAlerts(req.ctx.rt, req.ctx.principal!.tenantId, req.body);
      res.status(200).json({});
    },
  },
  {
    method: 'get',
    path: `${BASE}/alerts`,
    variables: (req) => ({ filter: req.query.filter }),
    handler: async (req, res) => {
      res.json(await listAlertmanagerAlerts(req.ctx, req.query as Record<string, unknown>));
    },
  },
  {
    method: 'get',
    path: `${BASE}/silences`,
    variables: (req) => ({ filter: req.query.filter }),
    handler: async (req, res) => {
      res.json(await listAlertmanagerSilences(req.ctx, req.query as Record<string, unknown>));
    },
  },
  {
    method: 'post',
    path: `${BASE}/silences`,
    handler: async (req, res) => {
      res.json(await postAlertmanagerSilence(req.ctx, req.body));
    },
  },
  {
    method: 'get',
    path: `${BASE}/silence/:silenceId`,
    handler: async (req, res) => {
      res.json(await getAlertmanagerSilence(req.ctx, String(req.params.silenceId)));
    },
  },
  {
    method: 'delete',
    path: `${BASE}/silence/:silenceId`,
    handler: async (req, res) => {
      await deleteAlertmanagerSilence(req.ctx, String(req.params.silenceId));
      res.status(200).json({});
    },
  },
  {
    method: 'get',
    path: `${BASE}/status`,
    handler: (req, res) => {
      // Uptime: when this process started (Alertmanager reports its own start).
      res.json(alertmanagerStatus(req.ctx, new Date(Date.now() - process.uptime() * 1000)));
      return Promise.resolve();
    },
  },
];
