/** AIPerf load-test runs with their throughput and latency percentiles; admins start and cancel them. */
import { useState } from 'react';
import { useMutation } from 'urql';
import { ActionButton } from '../../components/ActionButton';
import { DataTable } from '../../components/DataTable';
import { CheckboxField, MutationForm, SelectField, TextField } from '../../components/Field';
import { Badge, Card } from '../../components/Page';
import { when } from '../../lib/format';
import { graphql, readFragment, type FragmentOf, type VariablesOf } from '../../lib/graphql';
import { num } from './format';

const LatencyFields = graphql(`
  fragment ConsoleLatency on LatencyStat {
    p50
    p90
    p99
  }
`);
export const AiperfRunFields = graphql(
  `
    fragment ConsoleAiperfRun on AiperfRun {
      id
      status
      model
      endpointUrl
      mode
      concurrency
      requestRate
      createdAt
      finishedAt
      error
      results {
        requests
        errors
        requestsPerS
        outputTokensPerS
        ttftMs {
          ...ConsoleLatency
        }
        itlMs {
          ...ConsoleLatency
        }
        requestLatencyMs {
          ...ConsoleLatency
        }
      }
    }
  `,
  [LatencyFields],
);

const StartRun = graphql(`
  mutation ConsoleStartAiperfRun($input: StartAiperfRunInput!) {
    startAiperfRun(input: $input) {
      id
      status
    }
  }
`);
const CancelRun = graphql(`
  mutation ConsoleCancelAiperfRun($id: ID!) {
    cancelAiperfRun(id: $id) {
      id
      status
    }
  }
`);

type RunInput = VariablesOf<typeof StartRun>['input'];

function pct(ref: FragmentOf<typeof LatencyFields>) {
  const l = readFragment(LatencyFields, ref);
  return `p50 ${num(l.p50, 1)} · p90 ${num(l.p90, 1)} · p99 ${num(l.p99, 1)} ms`;
}

export function LoadTests({
  runs: refs,
  denied,
  onDone,
}: {
  runs: readonly FragmentOf<typeof AiperfRunFields>[] | undefined;
  denied: string | null;
  onDone: () => void;
}) {
  const runs = refs && readFragment(AiperfRunFields, refs);
  const [, startRun] = useMutation(StartRun);
  const [, cancelRun] = useMutation(CancelRun);
  const [run, setRun] = useState({
    endpointUrl: '',
    model: '',
    mode: 'CONCURRENCY' as RunInput['mode'],
    concurrency: '1',
    requestRate: '',
    requestCount: '20',
    streaming: true,
  });
  return (
    <Card title="Load tests (AIPerf)">
      <DataTable
        caption="Load-test runs"
        rows={runs}
        rowKey={(r) => r.id}
        empty="No load-test runs yet."
        columns={[
          { header: 'When', cell: (r) => when(r.createdAt) },
          { header: 'Model', cell: (r) => r.model },
          {
            header: 'Load',
            cell: (r) => (r.mode === 'REQUEST_RATE' ? `${r.requestRate} req/s` : `${r.concurrency ?? 1} clients`),
            wide: true,
          },
          {
            header: 'Status',
            cell: (r) => (
              <span>
                <Badge value={r.status} />
                {r.error && <small className="reason">{r.error}</small>}
              </span>
            ),
          },
          {
            header: 'Throughput',
            cell: (r) =>
              r.results
                ? `${num(r.results.requestsPerS, 2)} req/s · ${num(r.results.outputTokensPerS, 1)} tok/s · ${r.results.errors}/${r.results.requests} errors`
                : '—',
          },
          { header: 'TTFT', cell: (r) => (r.results ? pct(r.results.ttftMs) : '—') },
          { header: 'Inter-token', cell: (r) => (r.results ? pct(r.results.itlMs) : '—'), wide: true },
          { header: 'Request latency', cell: (r) => (r.results ? pct(r.results.requestLatencyMs) : '—'), wide: true },
          {
            header: 'Actions',
            cell: (r) => (
              <ActionButton
                run={() => cancelRun({ id: r.id })}
                deniedBecause={
                  denied ?? (r.status === 'QUEUED' || r.status === 'RUNNING' ? null : 'The run has ended.')
                }
                onDone={onDone}
              >
                Cancel
              </ActionButton>
            ),
          },
        ]}
      />
      <MutationForm
        title="Start a load test"
        submitLabel="Start load test"
        deniedBecause={denied}
        onSubmit={() => {
          const input: RunInput = {
            endpointUrl: run.endpointUrl,
            model: run.model,
            mode: run.mode,
            streaming: run.streaming,
          };
          if (run.concurrency) input.concurrency = Number(run.concurrency);
          if (run.mode === 'REQUEST_RATE' && run.requestRate) input.requestRate = Number(run.requestRate);
          if (run.requestCount) input.requestCount = Number(run.requestCount);
          return startRun({ input });
        }}
        onDone={onDone}
      >
        <TextField
          label="Endpoint URL"
          type="url"
          value={run.endpointUrl}
          onChange={(endpointUrl) => setRun({ ...run, endpointUrl })}
          hint="OpenAI-compatible base URL; /v1/chat/completions is appended"
          required
        />
        <TextField label="Model" value={run.model} onChange={(model) => setRun({ ...run, model })} required />
        <SelectField
          label="Mode"
          value={run.mode}
          onChange={(mode) => setRun({ ...run, mode })}
          options={[
            { value: 'CONCURRENCY', label: 'fixed clients' },
            { value: 'REQUEST_RATE', label: 'request rate' },
          ]}
        />
        <TextField
          label="Clients"
          type="number"
          value={run.concurrency}
          onChange={(concurrency) => setRun({ ...run, concurrency })}
        />
        {run.mode === 'REQUEST_RATE' && (
          <TextField
            label="Requests per second"
            type="number"
            value={run.requestRate}
            onChange={(requestRate) => setRun({ ...run, requestRate })}
          />
        )}
        <TextField
          label="Requests"
          type="number"
          value={run.requestCount}
          onChange={(requestCount) => setRun({ ...run, requestCount })}
        />
        <CheckboxField
          label="Streaming"
          checked={run.streaming}
          onChange={(streaming) => setRun({ ...run, streaming })}
        />
      </MutationForm>
    </Card>
  );
}
