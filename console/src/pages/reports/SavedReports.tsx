/** Saved reports: load into the builder, run, replace the query, delete (owner or admin: `canEdit`). */
import { useMutation } from 'urql';
import { ActionButton } from '../../components/ActionButton';
import { DataTable } from '../../components/DataTable';
import { when } from '../../lib/format';
import { graphql, readFragment, type FragmentOf, type Json } from '../../lib/graphql';
import { ReportResultFields, type ReportResultRef } from './result';
import { builderOf, type Builder } from './query';

export const SavedReportFields = graphql(`
  fragment ConsoleSavedReport on SavedReport {
    id
    name
    description
    entity
    query
    canEdit
    updatedAt
  }
`);

const UpdateSavedReport = graphql(`
  mutation ConsoleUpdateSavedReport($id: ID!, $input: UpdateSavedReportInput!) {
    updateSavedReport(id: $id, input: $input) {
      id
      query
      updatedAt
    }
  }
`);
const DeleteSavedReport = graphql(`
  mutation ConsoleDeleteSavedReport($id: ID!) {
    deleteSavedReport(id: $id)
  }
`);
const RunSavedReport = graphql(
  `
    mutation ConsoleRunSavedReport($id: ID!) {
      runSavedReport(id: $id) {
        ...ConsoleReportResult
      }
    }
  `,
  [ReportResultFields],
);

export function SavedReports(props: {
  reports: readonly FragmentOf<typeof SavedReportFields>[] | undefined;
  /** The builder's current query document (what "Replace query" stores). */
  query: Json;
  onLoad: (b: Builder) => void;
  onResult: (result: ReportResultRef, title: string) => void;
  onDone: () => void;
}) {
  const reports = props.reports && readFragment(SavedReportFields, props.reports);
  const [, updateSaved] = useMutation(UpdateSavedReport);
  const [, deleteSaved] = useMutation(DeleteSavedReport);
  const [, runSaved] = useMutation(RunSavedReport);
  return (
    <DataTable
      caption="Saved reports"
      rows={reports}
      rowKey={(r) => r.id}
      empty="No saved reports yet."
      columns={[
        { header: 'Name', cell: (r) => r.name },
        { header: 'Entity', cell: (r) => r.entity.toLowerCase() },
        { header: 'Description', cell: (r) => r.description ?? '—', wide: true },
        { header: 'Updated', cell: (r) => when(r.updatedAt), wide: true },
        {
          header: 'Actions',
          cell: (r) => {
            const denied = r.canEdit ? null : 'Only its owner or an admin can change it.';
            return (
              <div className="row-actions" role="group" aria-label={`Actions for ${r.name}`}>
                <button type="button" className="plain" onClick={() => props.onLoad(builderOf(r.query))}>
                  Load
                </button>
                <ActionButton
                  run={async () => {
                    const x = await runSaved({ id: r.id });
                    if (x.data) props.onResult(x.data.runSavedReport, r.name);
                    return x;
                  }}
                >
                  Run
                </ActionButton>
                <ActionButton
                  run={() => updateSaved({ id: r.id, input: { query: props.query } })}
                  deniedBecause={denied}
                  onDone={props.onDone}
                >
                  Replace query
                </ActionButton>
                <ActionButton
                  variant="danger"
                  confirm={`Delete the report ${r.name}? Its schedules are disabled.`}
                  run={() => deleteSaved({ id: r.id })}
                  deniedBecause={denied}
                  onDone={props.onDone}
                >
                  Delete
                </ActionButton>
              </div>
            );
          },
        },
      ]}
    />
  );
}
