/** Report schedules (admins): a saved report delivered to an outbound webhook on a cron; run now, enable, delete. */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ActionButton } from '../../components/ActionButton';
import { DataTable } from '../../components/DataTable';
import { ErrorView } from '../../components/ErrorView';
import { MutationForm, SelectField, TextField } from '../../components/Field';
import { Badge, Card } from '../../components/Page';
import { when } from '../../lib/format';
import { graphql, readFragment, type FragmentOf, type ResultOf, type VariablesOf } from '../../lib/graphql';

/** What a schedule shows of a saved report. */
export const ScheduleReportFields = graphql(`
  fragment ConsoleScheduleReport on SavedReport {
    id
    name
  }
`);

const SchedulesQuery = graphql(`
  query ConsoleReportSchedules {
    reportSchedules {
      id
      savedReportId
      webhookId
      cron
      timezone
      format
      enabled
      disabledReason
      lastRunAt
      lastError
    }
    outboundWebhooks {
      id
      name
    }
  }
`);
const CreateSchedule = graphql(`
  mutation ConsoleCreateReportSchedule($input: ReportScheduleInput!) {
    createReportSchedule(input: $input) {
      id
    }
  }
`);
const UpdateSchedule = graphql(`
  mutation ConsoleUpdateReportSchedule($id: ID!, $input: UpdateReportScheduleInput!) {
    updateReportSchedule(id: $id, input: $input) {
      id
      enabled
      disabledReason
    }
  }
`);
const RunSchedule = graphql(`
  mutation ConsoleRunReportSchedule($id: ID!) {
    runReportSchedule(id: $id) {
      scheduleId
      status
      rowCount
      reason
    }
  }
`);
const DeleteSchedule = graphql(`
  mutation ConsoleDeleteReportSchedule($id: ID!) {
    deleteReportSchedule(id: $id)
  }
`);

type Format = VariablesOf<typeof CreateSchedule>['input']['format'] & string;
const FORMATS = ['CSV', 'JSON'] as const satisfies readonly Format[];

function runNoteOf(r: ResultOf<typeof RunSchedule>['runReportSchedule']): string {
  return `Run: ${r.status.toLowerCase()}${r.rowCount !== null ? `, ${r.rowCount} rows` : ''}${r.reason ? ` (${r.reason})` : ''}`;
}

export function Schedules({
  reports: refs,
  denied,
}: {
  reports: readonly FragmentOf<typeof ScheduleReportFields>[] | undefined;
  denied: string | null;
}) {
  const reports = readFragment(ScheduleReportFields, refs ?? []);
  const [schedules, refetchSchedules] = useQuery({
    query: SchedulesQuery,
    pause: !!denied,
    requestPolicy: 'cache-and-network',
  });
  const reload = () => refetchSchedules({ requestPolicy: 'network-only' });
  const [, createSchedule] = useMutation(CreateSchedule);
  const [, updateSchedule] = useMutation(UpdateSchedule);
  const [, runSchedule] = useMutation(RunSchedule);
  const [, deleteSchedule] = useMutation(DeleteSchedule);
  const [sched, setSched] = useState({
    savedReportId: '',
    webhookId: '',
    cron: '0 8 * * 1',
    timezone: 'UTC',
    format: 'CSV' as Format,
  });
  const [runNote, setRunNote] = useState<string | null>(null);
  const savedName = (id: string | null) =>
    reports.find((r) => r.id === id)?.name ?? (id ? id.slice(0, 8) : 'deleted report');
  const webhookName = (id: string) => schedules.data?.outboundWebhooks.find((w) => w.id === id)?.name ?? id.slice(0, 8);

  return (
    <Card title="Schedules">
      {denied ? (
        <p className="reason">Only admins can see and change report schedules.</p>
      ) : (
        <>
          <ErrorView error={schedules.error} />
          {runNote && (
            <p role="status" className="hint">
              {runNote}
            </p>
          )}
          <DataTable
            caption="Report schedules"
            rows={schedules.data?.reportSchedules}
            rowKey={(x) => x.id}
            empty="No schedules."
            columns={[
              { header: 'Report', cell: (x) => savedName(x.savedReportId) },
              { header: 'When', cell: (x) => `${x.cron} (${x.timezone})` },
              { header: 'To', cell: (x) => `${webhookName(x.webhookId)} as ${x.format.toLowerCase()}`, wide: true },
              {
                header: 'State',
                cell: (x) =>
                  x.enabled ? (
                    <Badge value="active" />
                  ) : (
                    <span>disabled{x.disabledReason ? `: ${x.disabledReason}` : ''}</span>
                  ),
              },
              {
                header: 'Last run',
                cell: (x) => (x.lastError ? `${when(x.lastRunAt)} — ${x.lastError}` : when(x.lastRunAt)),
                wide: true,
              },
              {
                header: 'Actions',
                cell: (x) => (
                  <div className="row-actions" role="group" aria-label={`Actions for schedule ${x.cron}`}>
                    <ActionButton
                      run={async () => {
                        const r = await runSchedule({ id: x.id });
                        if (r.data) setRunNote(runNoteOf(r.data.runReportSchedule));
                        return r;
                      }}
                      onDone={reload}
                    >
                      Run now
                    </ActionButton>
                    <ActionButton run={() => updateSchedule({ id: x.id, input: { enabled: !x.enabled } })}>
                      {x.enabled ? 'Disable' : 'Enable'}
                    </ActionButton>
                    <ActionButton variant="danger" run={() => deleteSchedule({ id: x.id })} onDone={reload}>
                      Delete
                    </ActionButton>
                  </div>
                ),
              },
            ]}
          />
        </>
      )}
      <MutationForm
        title="New schedule"
        submitLabel="Create schedule"
        deniedBecause={denied}
        onSubmit={() =>
          createSchedule({
            input: {
              savedReportId: sched.savedReportId,
              webhookId: sched.webhookId,
              cron: sched.cron,
              timezone: sched.timezone || undefined,
              format: sched.format,
            },
          })
        }
        onDone={reload}
      >
        <SelectField
          label="Saved report"
          value={sched.savedReportId}
          onChange={(savedReportId) => setSched({ ...sched, savedReportId })}
          options={[{ value: '', label: '—' }, ...reports.map((r) => ({ value: r.id, label: r.name }))]}
        />
        <SelectField
          label="Deliver to webhook"
          value={sched.webhookId}
          onChange={(webhookId) => setSched({ ...sched, webhookId })}
          options={[
            { value: '', label: '—' },
            ...(schedules.data?.outboundWebhooks ?? []).map((w) => ({ value: w.id, label: w.name })),
          ]}
        />
        <TextField
          label="Cron"
          value={sched.cron}
          onChange={(cron) => setSched({ ...sched, cron })}
          hint="5 or 6 fields, e.g. 0 8 * * 1 (Mondays 08:00)"
          required
        />
        <TextField label="Time zone" value={sched.timezone} onChange={(timezone) => setSched({ ...sched, timezone })} />
        <SelectField
          label="Format"
          value={sched.format}
          onChange={(format) => setSched({ ...sched, format })}
          options={FORMATS}
        />
      </MutationForm>
    </Card>
  );
}
