/**
 * The built-in providers. A new provider is a module next to these and one line here.
 */
import { registerProvider, findProvider } from '../registry.js';
import { alertmanagerProvider } from './alertmanager.js';
import { dcgmProvider } from './dcgm.js';
import { pagerdutyProvider } from './pagerduty.js';
import { prometheusProvider } from './prometheus.js';
import { webhookProvider } from './webhook.js';

for (const p of [alertmanagerProvider, dcgmProvider, pagerdutyProvider, prometheusProvider, webhookProvider])
  if (!findProvider(p.id)) registerProvider(p);
