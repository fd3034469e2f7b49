/**
 * The service's own address for links it sends (notification actions, invitations, password resets).
 */
import type { Runtime } from './runtime.js';

/** The service's own base URL for links (PUBLIC_BASE_URL, else the bind address). */
export function publicBase(rt: Pick<Runtime, 'config'>): string {
  const c = rt.config;
  if (c.publicBaseUrl) return c.publicBaseUrl.replace(/\/+$/, '');
  const host = c.host === '0.0.0.0' || c.host === '::' ? 'localhost' : c.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${c.port}`;
}
