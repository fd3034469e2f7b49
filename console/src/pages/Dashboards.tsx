/**
 * Dashboards: named grids of panels, each a saved report shown as a table, line, bar or single
 * figure (the server runs each distinct report once per request). Any user creates one; changing or
 * deleting it is for its owner or an admin (`canEdit`).
 */
import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, SelectField, TextField } from '../components/Field';
import { Card, Page } from '../components/Page';
import { ReportResultFields, ResultChart, ResultTable, statOf } from './reports/result';
import { when } from '../lib/format';
import { graphql, readFragment, type FragmentOf, type ResultOf, type VariablesOf } from '../lib/graphql';

/** One panel as drawn: its title, width and the report's answer (or why there is none). */
const PanelFields = graphql(
  `
    fragment ConsoleDashboardPanel on DashboardPanel {
      title
      viz
      position {
        w
      }
      error
      data {
        ...ConsoleReportResult
      }
    }
  `,
  [ReportResultFields],
);

const DashboardsQuery = graphql(
  `
    query ConsoleDashboards {
      dashboards {
        id
        name
        canEdit
        updatedAt
        panels {
          index
          title
          viz
          savedReportId
          position {
            x
            y
            w
            h
          }
          ...ConsoleDashboardPanel
        }
      }
      savedReports {
        id
        name
      }
    }
  `,
  [PanelFields],
);
const CreateDashboard = graphql(`
  mutation ConsoleCreateDashboard($input: DashboardInput!) {
    createDashboard(input: $input) {
      id
      name
    }
  }
`);
const UpdateDashboard = graphql(`
  mutation ConsoleUpdateDashboard($id: ID!, $input: UpdateDashboardInput!) {
    updateDashboard(id: $id, input: $input) {
      id
      updatedAt
    }
  }
`);
const DeleteDashboard = graphql(`
  mutation ConsoleDeleteDashboard($id: ID!) {
    deleteDashboard(id: $id)
  }
`);

type Panel = ResultOf<typeof DashboardsQuery>['dashboards'][number]['panels'][number];
type PanelInput = NonNullable<VariablesOf<typeof UpdateDashboard>['input']['panels']>[number];
type Viz = PanelInput['viz'];
const VIZ = ['TABLE', 'LINE', 'BAR', 'STAT'] as const satisfies readonly Viz[];

/** The panels as the mutation takes them (the patch replaces the whole list). */
const panelInputs = (panels: readonly Panel[]): PanelInput[] =>
  panels.map((p) => ({
    title: p.title,
    viz: p.viz,
    savedReportId: p.savedReportId,
    position: { x: p.position.x, y: p.position.y, w: p.position.w, h: p.position.h },
  }));

function PanelView({ panel: ref }: { panel: FragmentOf<typeof PanelFields> }) {
  const panel = readFragment(PanelFields, ref);
  const d = panel.data;
  let body;
  if (!d) body = <p className="error">{panel.error ?? 'The report is gone.'}</p>;
  else if (panel.viz === 'STAT') {
    const v = statOf(d);
    body = (
      <p className="stat" aria-label={`${panel.title} value`} title={v.how}>
        {v.value}
      </p>
    );
  } else if (panel.viz === 'TABLE') body = <ResultTable result={d} caption={panel.title} />;
  else body = <ResultChart result={d} kind={panel.viz} label={panel.title} />;
  return (
    <section
      className="card panel"
      aria-label={`Panel ${panel.title}`}
      style={{ gridColumn: `span ${Math.min(12, Math.max(3, panel.position.w))}` }}
    >
      <h3>{panel.title}</h3>
      {body}
    </section>
  );
}

export function Dashboards() {
  // One request per change: a mutation that answers with a Dashboard makes urql's cache fetch this query
  // again (additionalTypenames covers an empty list). A second, explicit refetch on top made two requests
  // overlap, each running every panel's report in a report slot of the tenant, so past the tenant's cap
  // (REPORTS_TENANT_CONCURRENCY) the new panel said its report could not run until a reload.
  const context = useMemo(() => ({ additionalTypenames: ['Dashboard'] }), []);
  const [result, refetch] = useQuery({ query: DashboardsQuery, requestPolicy: 'cache-and-network', context });
  // Only for deleting, whose answer is an ID (no typename to invalidate by).
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const [, create] = useMutation(CreateDashboard);
  const [, update] = useMutation(UpdateDashboard);
  const [, remove] = useMutation(DeleteDashboard);
  const [name, setName] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  const [panel, setPanel] = useState({ title: '', viz: 'TABLE' as Viz, savedReportId: '', w: '6' });
  const dashboards = result.data?.dashboards;
  const open = dashboards?.find((d) => d.id === openId) ?? dashboards?.[0];
  const reports = result.data?.savedReports ?? [];
  const denied = open && !open.canEdit ? 'Only its owner or an admin can change this dashboard.' : null;

  return (
    <Page title="Dashboards" error={result.error} loading={result.fetching && !result.data}>
      <DataTable
        caption="Dashboards"
        rows={dashboards}
        rowKey={(d) => d.id}
        empty="No dashboards yet."
        columns={[
          { header: 'Name', cell: (d) => (d.id === open?.id ? <strong>{d.name}</strong> : d.name) },
          { header: 'Panels', cell: (d) => d.panels.length },
          { header: 'Updated', cell: (d) => when(d.updatedAt), wide: true },
          {
            header: 'Actions',
            cell: (d) => (
              <div className="row-actions" role="group" aria-label={`Actions for ${d.name}`}>
                <button type="button" className="plain" onClick={() => setOpenId(d.id)}>
                  Open
                </button>
                <ActionButton
                  variant="danger"
                  confirm={`Delete the dashboard ${d.name}?`}
                  run={() => remove({ id: d.id })}
                  deniedBecause={d.canEdit ? null : 'Only its owner or an admin can delete it.'}
                  onDone={reload}
                >
                  Delete
                </ActionButton>
              </div>
            ),
          },
        ]}
      />
      <MutationForm
        title="New dashboard"
        submitLabel="Create dashboard"
        onSubmit={async () => {
          const r = await create({ input: { name } });
          if (r.data) {
            setOpenId(r.data.createDashboard.id);
            setName('');
          }
          return r;
        }}
      >
        <TextField label="Dashboard name" value={name} onChange={setName} required />
      </MutationForm>

      {open && (
        <Card title={open.name}>
          {open.panels.length === 0 && <p className="empty">No panels yet: add one from a saved report.</p>}
          <div className="panel-grid">
            {[...open.panels]
              .sort((a, b) => a.position.y - b.position.y || a.position.x - b.position.x)
              .map((p) => (
                <div
                  key={p.index}
                  className="panel-cell"
                  style={{ gridColumn: `span ${Math.min(12, Math.max(3, p.position.w))}` }}
                >
                  <PanelView panel={p} />
                  <ActionButton
                    run={() =>
                      update({
                        id: open.id,
                        input: { panels: panelInputs(open.panels.filter((x) => x.index !== p.index)) },
                      })
                    }
                    deniedBecause={denied}
                  >
                    Remove panel {p.title}
                  </ActionButton>
                </div>
              ))}
          </div>
          <MutationForm
            title="Add a panel"
            submitLabel="Add panel"
            deniedBecause={denied}
            onSubmit={async () => {
              const y = Math.max(0, ...open.panels.map((p) => p.position.y + p.position.h));
              const next = [
                ...panelInputs(open.panels),
                {
                  title: panel.title,
                  viz: panel.viz,
                  savedReportId: panel.savedReportId,
                  position: { x: 0, y, w: Number(panel.w), h: 4 },
                },
              ];
              const r = await update({ id: open.id, input: { panels: next } });
              if (!r.error) setPanel({ ...panel, title: '' });
              return r;
            }}
          >
            <TextField
              label="Panel title"
              value={panel.title}
              onChange={(title) => setPanel({ ...panel, title })}
              required
            />
            <SelectField
              label="Panel report"
              value={panel.savedReportId}
              onChange={(savedReportId) => setPanel({ ...panel, savedReportId })}
              options={[{ value: '', label: '—' }, ...reports.map((r) => ({ value: r.id, label: r.name }))]}
              hint={reports.length ? undefined : 'Save a report on the Reports page first.'}
            />
            <SelectField
              label="Show as"
              value={panel.viz}
              onChange={(viz) => setPanel({ ...panel, viz })}
              options={VIZ}
            />
            <SelectField
              label="Width"
              value={panel.w}
              onChange={(w) => setPanel({ ...panel, w })}
              options={[
                { value: '4', label: 'third' },
                { value: '6', label: 'half' },
                { value: '12', label: 'full' },
              ]}
            />
          </MutationForm>
        </Card>
      )}
    </Page>
  );
}
