/** Fleet totals, and each GPU's verdict with its reasons and latest values. */
import { DataTable } from '../../components/DataTable';
import { Badge } from '../../components/Page';
import { when } from '../../lib/format';
import { graphql, readFragment, type FragmentOf } from '../../lib/graphql';
import { num } from './format';

export const FleetFields = graphql(`
  fragment ConsoleGpuFleet on GpuFleet {
    gpus
    nodes
    avgUtilization
    powerW
    memUsedMib
    memTotalMib
    byHealth {
      healthy
      warning
      critical
      missing
      unknown
    }
  }
`);
export const GpuRowFields = graphql(`
  fragment ConsoleGpuRow on Gpu {
    id
    index
    node
    model
    lastSeenAt
    lastXid
    health {
      status
      reasons
    }
    latest {
      utilization
      temperatureC
      powerW
      powerLimitW
      memUsedMib
      memTotalMib
    }
  }
`);

export function FleetStats({ fleet: ref }: { fleet: FragmentOf<typeof FleetFields> }) {
  const fleet = readFragment(FleetFields, ref);
  return (
    <dl className="stats" aria-label="Fleet">
      <div>
        <dt>GPUs</dt>
        <dd>{fleet.gpus}</dd>
      </div>
      <div>
        <dt>Nodes</dt>
        <dd>{fleet.nodes}</dd>
      </div>
      <div>
        <dt>Avg utilization</dt>
        <dd>{num(fleet.avgUtilization, 1)} %</dd>
      </div>
      <div>
        <dt>Power</dt>
        <dd>{num(fleet.powerW)} W</dd>
      </div>
      <div>
        <dt>Memory</dt>
        <dd>
          {num(fleet.memUsedMib / 1024, 1)} / {num(fleet.memTotalMib / 1024, 1)} GiB
        </dd>
      </div>
      <div>
        <dt>Health</dt>
        <dd>
          {Object.entries(fleet.byHealth)
            .filter(([k, v]) => !k.startsWith('__') && v)
            .map(([k, v]) => `${v} ${k}`)
            .join(' · ') || '—'}
        </dd>
      </div>
    </dl>
  );
}

export function GpuTable({ gpus: refs }: { gpus: readonly FragmentOf<typeof GpuRowFields>[] }) {
  const gpus = readFragment(GpuRowFields, refs);
  return (
    <DataTable
      caption="GPUs"
      rows={gpus}
      rowKey={(g) => g.id}
      empty="No GPU has reported yet: run the collector or add a dcgm integration."
      columns={[
        { header: 'GPU', cell: (g) => `${g.node} #${g.index}` },
        { header: 'Model', cell: (g) => g.model ?? '—', wide: true },
        {
          header: 'Health',
          cell: (g) => (
            <span>
              <Badge value={g.health.status} />
              {g.health.reasons.length > 0 && <small className="reason">{g.health.reasons.join('; ')}</small>}
            </span>
          ),
        },
        { header: 'Util', cell: (g) => `${num(g.latest.utilization)} %` },
        { header: 'Temp', cell: (g) => `${num(g.latest.temperatureC)} °C` },
        {
          header: 'Power',
          cell: (g) => `${num(g.latest.powerW)}${g.latest.powerLimitW ? ` / ${num(g.latest.powerLimitW)}` : ''} W`,
          wide: true,
        },
        { header: 'Memory', cell: (g) => `${num(g.latest.memUsedMib)} / ${num(g.latest.memTotalMib)} MiB`, wide: true },
        { header: 'Last XID', cell: (g) => g.lastXid ?? '—', wide: true },
        { header: 'Last seen', cell: (g) => when(g.lastSeenAt), wide: true },
      ]}
    />
  );
}
