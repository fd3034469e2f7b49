/** GPU diagnostics: the runs with their checks as they complete; admins start one for a GPU or a node. */
import { useState } from 'react';
import { useMutation } from 'urql';
import { DataTable } from '../../components/DataTable';
import { MutationForm, SelectField } from '../../components/Field';
import { Badge, Card } from '../../components/Page';
import { when } from '../../lib/format';
import { graphql, readFragment, type FragmentOf } from '../../lib/graphql';

export const DiagnosticFields = graphql(`
  fragment ConsoleGpuDiagnostic on GpuDiagnostic {
    id
    status
    result
    level
    gpu
    node
    createdAt
    error
    checks {
      name
      status
      detail
      gpuUuid
    }
  }
`);
/** What the diagnostics show of a GPU: a name for a check's GPU, and a target to diagnose. */
export const DiagnosticTargetFields = graphql(`
  fragment ConsoleGpuDiagnosticTarget on Gpu {
    id
    uuid
    index
    node
  }
`);

const StartDiagnostic = graphql(`
  mutation ConsoleStartGpuDiagnostic($input: StartGpuDiagnosticInput!) {
    startGpuDiagnostic(input: $input) {
      id
      status
    }
  }
`);

/** Check and result statuses → the badge colours the stylesheet has. */
const CHECK_BADGE: Record<string, string> = { PASS: 'ok', WARN: 'warning', FAIL: 'failed', SKIP: 'skipped' };

export function Diagnostics(props: {
  diagnostics: readonly FragmentOf<typeof DiagnosticFields>[] | undefined;
  gpus: readonly FragmentOf<typeof DiagnosticTargetFields>[];
  denied: string | null;
  onDone: () => void;
}) {
  const diagnostics = props.diagnostics && readFragment(DiagnosticFields, props.diagnostics);
  const gpus = readFragment(DiagnosticTargetFields, props.gpus);
  const nodes = [...new Set(gpus.map((g) => g.node))];
  const gpuName = (uuid: string) => {
    const g = gpus.find((x) => x.uuid === uuid);
    return g ? `${g.node} #${g.index}` : uuid;
  };
  const [, startDiagnostic] = useMutation(StartDiagnostic);
  const [diag, setDiag] = useState({ target: '', level: '1' });
  return (
    <Card title="Diagnostics">
      <DataTable
        caption="Diagnostics"
        rows={diagnostics}
        rowKey={(d) => d.id}
        empty="No diagnostics run yet."
        columns={[
          { header: 'When', cell: (d) => when(d.createdAt) },
          { header: 'Target', cell: (d) => `${d.gpu ?? d.node ?? '—'} (level ${d.level})` },
          {
            header: 'Status',
            cell: (d) => (
              <span>
                <Badge value={d.status} /> {d.result && <Badge value={CHECK_BADGE[d.result]} />}
              </span>
            ),
          },
          {
            header: 'Checks',
            cell: (d) =>
              d.error ? (
                d.error
              ) : d.checks.length ? (
                <ul className="checks" aria-label="Checks">
                  {d.checks.map((c, i) => (
                    <li key={i}>
                      <Badge value={CHECK_BADGE[c.status]} />{' '}
                      {c.gpuUuid ? <small className="hint">{gpuName(c.gpuUuid)} </small> : null}
                      {c.name}: {c.status.toLowerCase()}
                      {c.status !== 'PASS' && c.detail ? ` (${c.detail})` : ''}
                    </li>
                  ))}
                </ul>
              ) : (
                '—'
              ),
          },
        ]}
      />
      <MutationForm
        title="Run diagnostics"
        submitLabel="Start diagnostics"
        deniedBecause={props.denied}
        onSubmit={() => {
          const [kind, value] = diag.target.split(':', 2);
          return startDiagnostic({
            input: { level: Number(diag.level), ...(kind === 'node' ? { node: value } : { gpu: value }) },
          });
        }}
        onDone={props.onDone}
      >
        <SelectField
          label="Diagnose"
          value={diag.target}
          onChange={(target) => setDiag({ ...diag, target })}
          options={[
            { value: '', label: '—' },
            ...nodes.map((n) => ({ value: `node:${n}`, label: `every GPU of ${n}` })),
            ...gpus.map((g) => ({ value: `gpu:${g.id}`, label: `${g.node} #${g.index}` })),
          ]}
        />
        <SelectField
          label="Level"
          value={diag.level}
          onChange={(level) => setDiag({ ...diag, level })}
          options={[
            { value: '1', label: '1 (quick)' },
            { value: '2', label: '2' },
            { value: '3', label: '3 (long)' },
          ]}
        />
      </MutationForm>
    </Card>
  );
}
