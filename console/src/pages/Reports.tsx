/**
 * Reports: a query builder driven by `reportSchema` (entities, their fields and the ops each allows,
 * the time buckets and aggregate functions), the result as a table and a chart, CSV export through the
 * REST export URL (`reportExportUrl`, streamed by the server, saved by the browser), saved reports and
 * their schedules (admins). Any user queries, exports and saves; changing or deleting a saved report is
 * for its owner or an admin (`canEdit`). The sections are in `reports/`.
 */
import { useMemo, useState } from 'react';
import { useClient, useMutation, useQuery, type CombinedError } from 'urql';
import { ErrorView } from '../components/ErrorView';
import { MutationForm, TextField } from '../components/Field';
import { Card, Page } from '../components/Page';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { graphql } from '../lib/graphql';
import { ReportResultFields, ResultChart, ResultTable, type ReportResultRef } from './reports/result';
import { builderOf, catalogueOf, EMPTY_BUILDER, queryOf, type Builder } from './reports/query';
import { BuilderForm } from './reports/BuilderForm';
import { SavedReportFields, SavedReports } from './reports/SavedReports';
import { ScheduleReportFields, Schedules } from './reports/Schedules';
import { exportCsv } from './reports/export';

const ReportSchemaQuery = graphql(
  `
    query ConsoleReportSchema {
      reportSchema
      reportExportUrl(format: CSV)
      savedReports {
        ...ConsoleSavedReport
        ...ConsoleScheduleReport
      }
    }
  `,
  [SavedReportFields, ScheduleReportFields],
);
const RunReportQuery = graphql(
  `
    query ConsoleRunReport($query: JSON!) {
      reportQuery(query: $query) {
        ...ConsoleReportResult
      }
    }
  `,
  [ReportResultFields],
);
const TranslateReportQuery = graphql(`
  query ConsoleTranslateReport($text: String!) {
    translateReport(text: $text) {
      valid
      query
      explanation
      errors {
        loc
        msg
      }
    }
  }
`);
const CreateSavedReport = graphql(`
  mutation ConsoleCreateSavedReport($input: SavedReportInput!) {
    createSavedReport(input: $input) {
      id
      name
    }
  }
`);

export function Reports() {
  const me = useMe();
  const client = useClient();
  const [meta, refetchMeta] = useQuery({ query: ReportSchemaQuery, requestPolicy: 'cache-and-network' });
  const reloadMeta = () => refetchMeta({ requestPolicy: 'network-only' });
  const [, createSaved] = useMutation(CreateSavedReport);

  const [b, setB] = useState<Builder>(EMPTY_BUILDER);
  const [result, setResult] = useState<{ data: ReportResultRef; title: string } | null>(null);
  const [runError, setRunError] = useState<CombinedError | Error | string | null>(null);
  const [running, setRunning] = useState(false);
  const [view, setView] = useState<'table' | 'chart'>('table');
  const [exportState, setExportState] = useState<{ error: string | null; done: string | null }>({
    error: null,
    done: null,
  });
  const [english, setEnglish] = useState('');
  const [explanation, setExplanation] = useState<string | null>(null);
  const [save, setSave] = useState({ name: '', description: '' });

  const catalogue = useMemo(() => catalogueOf(meta.data?.reportSchema), [meta.data?.reportSchema]);
  const fields = catalogue.entities.find((e) => e.entity === b.entity)?.fields ?? [];
  const query = queryOf(b, fields);

  async function run() {
    setRunning(true);
    setRunError(null);
    const r = await client.query(RunReportQuery, { query }, { requestPolicy: 'network-only' }).toPromise();
    setRunning(false);
    if (r.error) return setRunError(r.error);
    if (r.data) setResult({ data: r.data.reportQuery, title: `${b.entity} report` });
  }

  async function translate() {
    setExplanation(null);
    const r = await client
      .query(TranslateReportQuery, { text: english }, { requestPolicy: 'network-only' })
      .toPromise();
    if (r.error) return setRunError(r.error);
    const t = r.data!.translateReport;
    if (t.valid && t.query) setB(builderOf(t.query));
    setExplanation(
      t.valid ? t.explanation : `${t.explanation} ${t.errors.map((e) => `${e.loc.join('.')}: ${e.msg}`).join('; ')}`,
    );
  }

  return (
    <Page title="Reports" error={meta.error} loading={meta.fetching && !meta.data}>
      <BuilderForm
        b={b}
        setB={setB}
        entities={catalogue.entities}
        buckets={catalogue.buckets}
        defaultLimit={catalogue.defaultLimit}
        running={running}
        onRun={() => void run()}
        onExport={() => {
          setExportState({ error: null, done: null });
          void exportCsv(meta.data?.reportExportUrl ?? '/api/v1/reports/query/export?format=csv', query, b.entity).then(
            setExportState,
          );
        }}
      >
        {exportState.done && (
          <p className="hint" role="status">
            {exportState.done}
          </p>
        )}
        <ErrorView error={exportState.error ?? runError} />
        <details>
          <summary>Query document</summary>
          <pre aria-label="Query document">{JSON.stringify(query, null, 2)}</pre>
        </details>
      </BuilderForm>

      <Card title="Ask in plain English">
        <div className="inline-form">
          <TextField
            label="Question"
            value={english}
            onChange={setEnglish}
            placeholder="critical alerts in the last 24 hours by source"
          />
          <button type="button" className="plain" onClick={() => void translate()} disabled={!english}>
            Translate
          </button>
        </div>
        {explanation && <p className="hint">{explanation}</p>}
      </Card>

      {result && (
        <Card title="Result">
          <div className="tabs" role="group" aria-label="Show the result as">
            <button
              type="button"
              className={view === 'table' ? 'primary' : 'plain'}
              aria-pressed={view === 'table'}
              onClick={() => setView('table')}
            >
              Table
            </button>
            <button
              type="button"
              className={view === 'chart' ? 'primary' : 'plain'}
              aria-pressed={view === 'chart'}
              onClick={() => setView('chart')}
            >
              Chart
            </button>
          </div>
          {view === 'table' ? (
            <ResultTable result={result.data} caption="Report result" />
          ) : (
            <ResultChart result={result.data} label={`Chart of the ${result.title}`} />
          )}
        </Card>
      )}

      <MutationForm
        title="Save this query"
        submitLabel="Save report"
        onSubmit={async () => {
          const r = await createSaved({
            input: { name: save.name, description: save.description || undefined, query },
          });
          if (!r.error) setSave({ name: '', description: '' });
          return r;
        }}
        onDone={reloadMeta}
      >
        <TextField label="Report name" value={save.name} onChange={(name) => setSave({ ...save, name })} required />
        <TextField
          label="Report description"
          value={save.description}
          onChange={(description) => setSave({ ...save, description })}
        />
      </MutationForm>

      <SavedReports
        reports={meta.data?.savedReports}
        query={query}
        onLoad={setB}
        onResult={(data, title) => setResult({ data, title })}
        onDone={reloadMeta}
      />

      <Schedules reports={meta.data?.savedReports} denied={adminOnly(me)} />
    </Page>
  );
}
