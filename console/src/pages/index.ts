/**
 * The page registry: one line per page. The navigation is built from it (grouped by `section`,
 * `adminOnly` pages hidden from members, `nav: false` for detail routes), and so are the routes.
 * To add a page: write `pages/<Area>.tsx` (its GraphQL documents at the top, then the component),
 * then add its line here. More specific paths before their prefixes is not needed (wouter's Switch
 * takes the first match, and `/alerts/:id` never matches `/alerts`).
 */
import type { ComponentType } from 'react';
import { Timeline } from './Timeline';
import { Alerts } from './Alerts';
import { AlertDetail } from './AlertDetail';
import { EventDetail } from './EventDetail';
import { TriageSettings } from './TriageSettings';
import { Proposals } from './Proposals';
import { Devices } from './Devices';
import { DeviceDetail } from './DeviceDetail';
import { Rules } from './Rules';
import { Inbound } from './Inbound';
import { Outbound } from './Outbound';
import { OutboundDetail } from './OutboundDetail';
import { Tokens } from './Tokens';
import { Users } from './Users';
import { Audit } from './Audit';
import { Reports } from './Reports';
import { Dashboards } from './Dashboards';
import { Integrations } from './Integrations';
import { Clusters } from './Clusters';
import { GpuOverview } from './Gpu';
import { Copilot } from './Copilot';
import { Billing } from './Billing';

export const NAV_SECTIONS = ['Operate', 'Configure', 'Insight', 'Account', 'Admin'] as const;

export interface PageEntry {
  path: string;
  title: string;
  section: (typeof NAV_SECTIONS)[number];
  // Route components receive `params` (from `:name` segments) or nothing.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  component: ComponentType<any>;
  /** false: a detail route, not in the navigation. */
  nav?: boolean;
  /** Hidden from members' navigation (the server refuses them anyway; the page shows its 403). */
  adminOnly?: boolean;
}

export const PAGES: PageEntry[] = [
  { path: '/', title: 'Timeline', section: 'Operate', component: Timeline },
  { path: '/alerts', title: 'Alerts', section: 'Operate', component: Alerts },
  { path: '/alerts/:id', title: 'Alert', section: 'Operate', component: AlertDetail, nav: false },
  { path: '/events/:id', title: 'Event', section: 'Operate', component: EventDetail, nav: false },
  { path: '/proposals', title: 'Proposals', section: 'Operate', component: Proposals },
  { path: '/devices', title: 'Devices', section: 'Operate', component: Devices },
  { path: '/devices/:id', title: 'Device', section: 'Operate', component: DeviceDetail, nav: false },
  { path: '/rules', title: 'Alert rules', section: 'Configure', component: Rules },
  { path: '/triage-settings', title: 'Triage settings', section: 'Configure', component: TriageSettings },
  { path: '/inbound', title: 'Inbound webhooks', section: 'Configure', component: Inbound },
  { path: '/webhooks', title: 'Outbound webhooks', section: 'Configure', component: Outbound },
  { path: '/webhooks/:id', title: 'Outbound webhook', section: 'Configure', component: OutboundDetail, nav: false },
  { path: '/reports', title: 'Reports', section: 'Insight', component: Reports },
  { path: '/dashboards', title: 'Dashboards', section: 'Insight', component: Dashboards },
  { path: '/integrations', title: 'Integrations', section: 'Insight', component: Integrations },
  { path: '/clusters', title: 'Clusters', section: 'Insight', component: Clusters },
  { path: '/gpu', title: 'GPU overview', section: 'Insight', component: GpuOverview },
  { path: '/billing', title: 'Billing', section: 'Insight', component: Billing },
  { path: '/copilot', title: 'Copilot', section: 'Insight', component: Copilot },
  { path: '/tokens', title: 'Tokens', section: 'Account', component: Tokens },
  { path: '/admin/users', title: 'Users', section: 'Admin', component: Users, adminOnly: true },
  { path: '/admin/audit', title: 'Audit log', section: 'Admin', component: Audit, adminOnly: true },
];
