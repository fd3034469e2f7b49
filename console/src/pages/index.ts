/**
 * The page registry: one line per page. The navigation is built from it (grouped by `section`,
 * `adminOnly` pages hidden from members), and so are the routes. To add a page: write
 * `pages/<Area>.tsx` (documents at the top, then the component), then add its line here.
 */
import type { ComponentType } from 'react';
import { Timeline } from './Timeline';
import { Tokens } from './Tokens';

export const NAV_SECTIONS = ['Operate', 'Configure', 'Insight', 'Account', 'Admin'] as const;

export interface PageEntry {
  path: string;
  title: string;
  section: (typeof NAV_SECTIONS)[number];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  component: ComponentType<any>;
  /** false: a detail route, not in the navigation. */
  nav?: boolean;
  adminOnly?: boolean;
}

export const PAGES: PageEntry[] = [
  { path: '/', title: 'Timeline', section: 'Operate', component: Timeline },
  { path: '/tokens', title: 'Tokens', section: 'Account', component: Tokens },
];
