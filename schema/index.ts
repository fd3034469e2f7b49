/**
 * Builds the GraphQL schema from the area modules. Each module registers its own types and fields on
 * the builder.
 */
import { builder } from './builder.js';
import './users.js';
import './auth.js';
import './sso.js';
import './events.js';
import './rules.js';
import './alerts.js';
import './alerts-work.js';
import './alerts-overview.js';
import './maintenance-windows.js';
import './routing.js';
import './routing-tree.js';
import './inhibit-rules.js';
import './schedules.js';
import './escalation.js';
import './webhooks.js';
import './devices.js';
import './device-config.js';
import './proposals.js';
import './assistant.js';
import './assistant-action-state.js';
import './assistant-chat.js';
import './reports.js';
import './report-schedules.js';
import './integration-health.js';
import './integrations.js';
import './clusters.js';
import './gpu.js';
import './gpu-runs.js';
import './billing.js';
import './history.js';
import './deprecated.js';
import './server-info.js';
import './notifications.js';
import './node.js';

export const schema = builder.toSchema({ sortSchema: true });
