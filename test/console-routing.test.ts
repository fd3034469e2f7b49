/**
 * The Routing page in a real browser (Debian's chromium) against the real server: the implicit default tree,
 * adding a child route and editing its matchers, receiver, group_by and continue (each saved as the whole
 * tree), the "which route" tester answering from the server, and removing the route again.
 */
import { expect, it } from 'vitest';
import { rest } from './helpers/http.js';
import { openPage, screenshot } from './helpers/browser.js';
import { useConsoleSuite, s, t, admin } from './helpers/console-suite.js';

useConsoleSuite({
  setUp: async () => {
    const r = await rest(s.url, t.adminToken).post('/routing/receivers', { name: 'db-team' });
    expect(r.status).toBe(201);
  },
});

const tree = async () => (await rest(s.url, t.adminToken).get('/routing/tree')).body;

it('edits the route tree and tests which route a label set takes', async () => {
  await openPage(admin, 'Routing');
  await admin.getByText('The implicit default').waitFor();
  await admin.getByRole('button', { name: /^Route root \(every alert\)/ }).click();
  await admin.getByRole('button', { name: 'Add child route' }).click();
  await admin.getByRole('button', { name: /^Route every alert · → inherited receiver/ }).click();
  await admin.getByRole('textbox', { name: /^Matchers/ }).fill('team="db", severity=~"critical|page"');
  await admin.getByRole('textbox', { name: /^Receiver/ }).fill('db-team');
  await admin.getByRole('textbox', { name: /^Group by/ }).fill('alertname, cluster');
  await admin.getByRole('checkbox', { name: 'Continue' }).check();
  await admin.getByRole('button', { name: 'Save route' }).click();
  await admin
    .getByRole('button', {
      name: /^Route team="db", severity=~"critical\|page" · → db-team · group by alertname, cluster · continue$/,
    })
    .waitFor();

  const stored = await tree();
  expect(stored.custom).toBe(true);
  expect(stored.routes).toHaveLength(2);
  expect(stored.routes[1]).toMatchObject({
    parent_id: stored.routes[0].id,
    receiver: 'db-team',
    group_by: ['alertname', 'cluster'],
    continue: true,
    matchers: [
      { name: 'team', type: '=', value: 'db' },
      { name: 'severity', type: '=~', value: 'critical|page' },
    ],
  });

  await admin.getByRole('textbox', { name: /^Labels/ }).fill('alertname=DiskFull, team=db, severity=critical');
  await admin.getByRole('button', { name: 'Test route' }).click();
  const taken = admin.getByRole('list', { name: 'Routes taken' });
  await taken.getByText(/^db-team \(path .* › .*; group by alertname, cluster; wait 30s\)$/).waitFor();
  await admin.getByRole('textbox', { name: /^Labels/ }).fill('alertname=DiskFull, team=web');
  await admin.getByRole('button', { name: 'Test route' }).click();
  await taken.getByText(/^default policy \(path root; group by nothing; wait 30s\)$/).waitFor();
  await screenshot(admin, 'routing');

  await admin.getByRole('button', { name: /^Route team="db"/ }).click();
  await admin.getByRole('button', { name: 'Remove route' }).click();
  await admin.getByRole('button', { name: /^Route team="db"/ }).waitFor({ state: 'detached' });
  expect((await tree()).routes).toHaveLength(1);
});
