/**
 * Routing: the tenant's route tree (Alertmanager's model) as a tree, editable by admins (a route's matchers,
 * receiver, group_by and continue; add or remove a child; each change replaces the tree whole), and the
 * "which route does this alert take" tester for a label set.
 */
import { useState } from 'react';
import { useClient, useMutation, useQuery } from 'urql';
import { CheckboxField, MutationForm, TextField } from '../components/Field';
import { Card, Page } from '../components/Page';
import { ErrorView } from '../components/ErrorView';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { graphql, type ResultOf } from '../lib/graphql';

const TreeQuery = graphql(`
  query ConsoleRoutingTree {
    routingTree {
      custom
      updatedAt
      routes {
        id
        parentId
        matchers {
          name
          type
          value
        }
        continue
        receiver
        groupBy
        groupWait
        groupInterval
        repeatInterval
        muteTimeIntervals
        activeTimeIntervals
      }
    }
    routingReceivers {
      id
      name
    }
  }
`);
const Replace = graphql(`
  mutation ConsoleReplaceRoutingTree($input: RoutingTreeInput!) {
    replaceRoutingTree(input: $input) {
      custom
    }
  }
`);
const TestQuery = graphql(`
  query ConsoleRouteTest($labels: JSON!) {
    routeTest(labels: $labels) {
      routeId
      path
      receiver
      groupBy
      groupByAll
      groupWaitSeconds
      mutedNow
    }
  }
`);

type RouteRow = ResultOf<typeof TreeQuery>['routingTree']['routes'][number];
type MatcherType = RouteRow['matchers'][number]['type'];
const OPS: Record<string, MatcherType> = { '=': 'EQUAL', '!=': 'NOT_EQUAL', '=~': 'REGEX', '!~': 'NOT_REGEX' };
const SYMBOL: Record<string, string> = { EQUAL: '=', NOT_EQUAL: '!=', REGEX: '=~', NOT_REGEX: '!~' };

const matchersText = (r: RouteRow) => r.matchers.map((m) => `${m.name}${SYMBOL[m.type]}"${m.value}"`).join(', ');

/** `team="db", severity=~"crit.*"` → matchers (the server checks names and regexes). */
function parseMatchers(text: string): RouteRow['matchers'] {
  const out: RouteRow['matchers'] = [];
  const re = /\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(=~|!~|!=|=)\s*(?:"((?:[^"\\]|\\.)*)"|([^,]*))\s*(?:,|$)/gy;
  const rest = text.trim();
  if (!rest) return out;
  let m: RegExpExecArray | null;
  while (re.lastIndex < rest.length && (m = re.exec(rest))) {
    out.push({ name: m[1]!, type: OPS[m[2]!]!, value: (m[3] ?? m[4] ?? '').replace(/\\(.)/g, '$1').trim() });
    if (m[0] === '') break;
  }
  if (re.lastIndex < rest.length) throw new Error(`Cannot read the matchers from "${rest.slice(re.lastIndex)}".`);
  return out;
}

/** `a=b, c=d` → a label set. */
function parseLabels(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    const i = part.indexOf('=');
    if (i > 0)
      out[part.slice(0, i).trim()] = part
        .slice(i + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
  }
  return out;
}

const toInput = (r: RouteRow) => ({
  id: r.id,
  parentId: r.parentId,
  matchers: r.matchers.map((m) => ({ name: m.name, type: m.type, value: m.value })),
  continue: r.continue,
  receiver: r.receiver,
  groupBy: r.groupBy,
  groupWait: r.groupWait,
  groupInterval: r.groupInterval,
  repeatInterval: r.repeatInterval,
  muteTimeIntervals: r.muteTimeIntervals,
  activeTimeIntervals: r.activeTimeIntervals,
});

function describeRoute(r: RouteRow): string {
  const parts = [r.parentId === null ? 'root (every alert)' : matchersText(r) || 'every alert'];
  parts.push(`→ ${r.receiver ?? (r.parentId === null ? 'default policy' : 'inherited receiver')}`);
  if (r.groupBy) parts.push(`group by ${r.groupBy.join(', ') || 'nothing'}`);
  if (r.continue) parts.push('continue');
  return parts.join(' · ');
}

export function Routing() {
  const me = useMe();
  const client = useClient();
  const [result, refetch] = useQuery({ query: TreeQuery });
  const [, replace] = useMutation(Replace);
  const tree = result.data?.routingTree;
  const routes = tree?.routes ?? [];
  const [selected, setSelected] = useState<string | null>(null);
  const sel = routes.find((r) => r.id === selected) ?? null;
  const [form, setForm] = useState({ matchers: '', receiver: '', groupBy: '', cont: false });
  const [labels, setLabels] = useState('alertname=DiskFull, severity=critical');
  const [tested, setTested] = useState<ResultOf<typeof TestQuery>['routeTest'] | null>(null);
  const [testError, setTestError] = useState<Error | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const save = (next: RouteRow[]) => replace({ input: { routes: next.map(toInput) } });

  const select = (r: RouteRow) => {
    setSelected(r.id);
    setForm({
      matchers: matchersText(r),
      receiver: r.receiver ?? '',
      groupBy: r.groupBy?.join(', ') ?? '',
      cont: r.continue,
    });
  };
  const descendants = (id: string): string[] =>
    routes.filter((r) => r.parentId === id).flatMap((c) => [c.id, ...descendants(c.id)]);

  const renderChildren = (parentId: string | null) => {
    const kids = routes.filter((r) => r.parentId === parentId);
    if (!kids.length) return null;
    return (
      <ul className="route-tree">
        {kids.map((r) => (
          <li key={r.id}>
            <button
              type="button"
              className={r.id === selected ? 'link selected' : 'link'}
              aria-label={`Route ${describeRoute(r)}`}
              onClick={() => select(r)}
            >
              {describeRoute(r)}
            </button>
            {renderChildren(r.id)}
          </li>
        ))}
      </ul>
    );
  };

  return (
    <Page title="Routing" error={result.error} loading={result.fetching && !tree}>
      {tree && (
        <>
          <Card title="Route tree">
            <p>
              {tree.custom
                ? 'Alerts take the first matching route at each level (and the next ones after a route with continue).'
                : 'The implicit default: every alert goes to the default policy, one group per alert.'}{' '}
              Receivers: {result.data!.routingReceivers.map((r) => r.name).join(', ') || 'none yet'}.
            </p>
            {renderChildren(null)}
          </Card>
          {sel && (
            <MutationForm
              title="Edit route"
              submitLabel="Save route"
              deniedBecause={adminOnly(me)}
              onSubmit={() =>
                save(
                  routes.map((r) =>
                    r.id !== sel.id
                      ? r
                      : {
                          ...r,
                          matchers: r.parentId === null ? [] : parseMatchers(form.matchers),
                          receiver: form.receiver.trim() || null,
                          groupBy: form.groupBy.trim() ? form.groupBy.split(',').map((s) => s.trim()) : null,
                          continue: r.parentId === null ? false : form.cont,
                        },
                  ),
                )
              }
              onDone={reload}
            >
              {sel.parentId !== null && (
                <TextField
                  label="Matchers"
                  value={form.matchers}
                  onChange={(v) => setForm({ ...form, matchers: v })}
                  hint='Alertmanager syntax: team="db", severity=~"critical|page"'
                />
              )}
              <TextField
                label="Receiver"
                value={form.receiver}
                onChange={(v) => setForm({ ...form, receiver: v })}
                hint="A receiver's name; empty inherits (at the root: the default policy)."
              />
              <TextField
                label="Group by"
                value={form.groupBy}
                onChange={(v) => setForm({ ...form, groupBy: v })}
                hint="Label names separated by commas; ... is every label; empty inherits."
              />
              {sel.parentId !== null && (
                <CheckboxField label="Continue" checked={form.cont} onChange={(v) => setForm({ ...form, cont: v })} />
              )}
            </MutationForm>
          )}
          {sel && (
            <Card title="Children">
              <MutationForm
                submitLabel="Add child route"
                deniedBecause={adminOnly(me)}
                onSubmit={() =>
                  save([
                    ...routes,
                    {
                      id: crypto.randomUUID(),
                      parentId: sel.id,
                      matchers: [],
                      continue: false,
                      receiver: null,
                      groupBy: null,
                      groupWait: null,
                      groupInterval: null,
                      repeatInterval: null,
                      muteTimeIntervals: [],
                      activeTimeIntervals: [],
                    },
                  ])
                }
                onDone={reload}
              >
                <span />
              </MutationForm>
              {sel.parentId !== null && (
                <MutationForm
                  submitLabel="Remove route"
                  deniedBecause={adminOnly(me)}
                  onSubmit={() => {
                    const gone = new Set([sel.id, ...descendants(sel.id)]);
                    return save(routes.filter((r) => !gone.has(r.id)));
                  }}
                  onDone={() => {
                    setSelected(null);
                    reload();
                  }}
                >
                  <span />
                </MutationForm>
              )}
            </Card>
          )}
          <form
            className="card form"
            aria-label="Which route"
            onSubmit={(e) => {
              e.preventDefault();
              setTestError(null);
              void client
                .query(TestQuery, { labels: parseLabels(labels) }, { requestPolicy: 'network-only' })
                .toPromise()
                .then((r) => (r.error ? setTestError(r.error) : setTested(r.data?.routeTest ?? [])));
            }}
          >
            <h2>Which route does this alert take</h2>
            <TextField label="Labels" value={labels} onChange={setLabels} hint="name=value, separated by commas" />
            <div className="form-actions">
              <button type="submit" className="primary">
                Test route
              </button>
            </div>
            <ErrorView error={testError} />
            {tested && (
              <ol aria-label="Routes taken">
                {tested.map((m) => (
                  <li key={m.routeId}>
                    {m.receiver ?? 'default policy'} (path {m.path.join(' › ')}; group by{' '}
                    {m.groupByAll ? 'every label' : m.groupBy.join(', ') || 'nothing'}; wait {m.groupWaitSeconds}s
                    {m.mutedNow ? '; muted now' : ''})
                  </li>
                ))}
              </ol>
            )}
          </form>
        </>
      )}
    </Page>
  );
}
