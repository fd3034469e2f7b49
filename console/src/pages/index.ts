/**
 * The page registry: one line per page. The navigation is built from it (grouped by `section`,
 * `adminOnly` pages hidden from members, `nav: false` for detail routes), and so are the routes.
 * To add a page: write `pages/<Area>.tsx` (its GraphQL documents at the top, then the component),
 * then add its `page()` line and its entry here. More specific paths before their prefixes is not needed (wouter's Switch
 * takes the first match, and `/alerts/:id` never matches `/alerts`).
 */
import { lazy, type ComponentType } from 'react';

/**
 * Each page is its own chunk, fetched when its route is first shown (the shell renders routes inside
 * `<Suspense>`), so the first load carries only the shell, the client and the sign-in page.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function page<K extends string>(load: () => Promise<Record<K, ComponentType<any>>>, name: K) {
  return lazy(() => load().then((m) => ({ default: m[name] })));
}

const Home = page(() => import('./Home'), 'Home');
const Timeline = page(() => import('./Timeline'), 'Timeline');
const Alerts = page(() => import('./Alerts'), 'Alerts');
const AlertDetail = page(() => import('./AlertDetail'), 'AlertDetail');
const EventDetail = page(() => import('./EventDetail'), 'EventDetail');
const TriageSettings = page(() => import('./TriageSettings'), 'TriageSettings');
const Proposals = page(() => import('./Proposals'), 'Proposals');
const Devices = page(() => import('./Devices'), 'Devices');
const DeviceDetail = page(() => import('./DeviceDetail'), 'DeviceDetail');
const Rules = page(() => import('./Rules'), 'Rules');
const InboundWebhooks = page(() => import('./InboundWebhooks'), 'InboundWebhooks');
const OutboundWebhooks = page(() => import('./OutboundWebhooks'), 'OutboundWebhooks');
const OutboundWebhookDetail = page(() => import('./OutboundWebhookDetail'), 'OutboundWebhookDetail');
const Tokens = page(() => import('./Tokens'), 'Tokens');
const Users = page(() => import('./Users'), 'Users');
const Audit = page(() => import('./Audit'), 'Audit');
const Reports = page(() => import('./Reports'), 'Reports');
const Dashboards = page(() => import('./Dashboards'), 'Dashboards');
const Integrations = page(() => import('./Integrations'), 'Integrations');
const Clusters = page(() => import('./Clusters'), 'Clusters');
const GpuOverview = page(() => import('./Gpu'), 'GpuOverview');
const Copilot = page(() => import('./Copilot'), 'Copilot');
const Billing = page(() => import('./Billing'), 'Billing');
const Schedules = page(() => import('./Schedules'), 'Schedules');
const EscalationPolicies = page(() => import('./EscalationPolicies'), 'EscalationPolicies');
const Profile = page(() => import('./Profile'), 'Profile');
const Routing = page(() => import('./Routing'), 'Routing');
const Silences = page(() => import('./Silences'), 'Silences');
const InhibitRules = page(() => import('./InhibitRules'), 'InhibitRules');
const TimeIntervals = page(() => import('./TimeIntervals'), 'TimeIntervals');

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
  { path: '/', title: 'Home', section: 'Operate', component: Home },
  { path: '/timeline', title: 'Timeline', section: 'Operate', component: Timeline },
  { path: '/events/:id', title: 'Event', section: 'Operate', component: EventDetail, nav: false },
  { path: '/alerts', title: 'Alerts', section: 'Operate', component: Alerts },
  { path: '/alerts/:id', title: 'Alert', section: 'Operate', component: AlertDetail, nav: false },
  { path: '/proposals', title: 'Proposals', section: 'Operate', component: Proposals },
  { path: '/devices', title: 'Devices', section: 'Operate', component: Devices },
  { path: '/devices/:id', title: 'Device', section: 'Operate', component: DeviceDetail, nav: false },
  { path: '/schedules', title: 'Schedules', section: 'Operate', component: Schedules },
  { path: '/rules', title: 'Alert rules', section: 'Configure', component: Rules },
  { path: '/escalation-policies', title: 'Escalation policies', section: 'Configure', component: EscalationPolicies },
  { path: '/routing', title: 'Routing', section: 'Configure', component: Routing },
  { path: '/silences', title: 'Silences', section: 'Configure', component: Silences },
  { path: '/inhibit-rules', title: 'Inhibition rules', section: 'Configure', component: InhibitRules },
  { path: '/time-intervals', title: 'Time intervals', section: 'Configure', component: TimeIntervals },
  { path: '/triage-settings', title: 'Triage settings', section: 'Configure', component: TriageSettings },
  { path: '/inbound', title: 'Inbound webhooks', section: 'Configure', component: InboundWebhooks },
  { path: '/webhooks', title: 'Outbound webhooks', section: 'Configure', component: OutboundWebhooks },
  {
    path: '/webhooks/:id',
    title: 'Outbound webhook',
    section: 'Configure',
    component: OutboundWebhookDetail,
    nav: false,
  },
  { path: '/reports', title: 'Reports', section: 'Insight', component: Reports },
  { path: '/dashboards', title: 'Dashboards', section: 'Insight', component: Dashboards },
  { path: '/integrations', title: 'Integrations', section: 'Insight', component: Integrations },
  { path: '/clusters', title: 'Clusters', section: 'Insight', component: Clusters },
  { path: '/gpu', title: 'GPU overview', section: 'Insight', component: GpuOverview },
  { path: '/billing', title: 'Billing', section: 'Insight', component: Billing },
  { path: '/copilot', title: 'Copilot', section: 'Insight', component: Copilot },
  { path: '/profile', title: 'My profile', section: 'Account', component: Profile },
  { path: '/tokens', title: 'Tokens', section: 'Account', component: Tokens },
  { path: '/admin/users', title: 'Users', section: 'Admin', component: Users, adminOnly: true },
  { path: '/admin/audit', title: 'Audit log', section: 'Admin', component: Audit, adminOnly: true },
];
