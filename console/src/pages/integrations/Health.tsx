/** An integration's verdict with each check (config, reachable, freshness, errors) and when it was checked. */
import { Badge } from '../../components/Page';
import { when } from '../../lib/format';
import { graphql, readFragment, type FragmentOf } from '../../lib/graphql';

export const HealthFields = graphql(`
  fragment ConsoleIntegrationHealth on IntegrationHealth {
    status
    reason
    checkedAt
    checks {
      config {
        ok
        problems {
          field
          message
        }
      }
      reachable {
        ok
        message
        latencyMs
      }
      freshness {
        ok
        message
      }
      errors {
        ok
        count
        lastError
      }
    }
  }
`);

function CheckLine({ name, ok, message }: { name: string; ok: boolean | null; message: string }) {
  return (
    <li>
      <Badge value={ok === null ? 'skipped' : ok ? 'ok' : 'failed'} /> <strong>{name}</strong>: {message}
    </li>
  );
}

export function HealthView({ health: ref }: { health: FragmentOf<typeof HealthFields> }) {
  const health = readFragment(HealthFields, ref);
  const c = health.checks;
  return (
    <div>
      <Badge value={health.status} /> {health.reason && <small>{health.reason}</small>}
      {c && (
        <ul className="checks" aria-label="Health checks">
          <CheckLine
            name="config"
            ok={c.config.ok}
            message={c.config.ok ? 'valid' : c.config.problems.map((p) => `${p.field}: ${p.message}`).join('; ')}
          />
          <CheckLine
            name="reachable"
            ok={c.reachable.ok}
            message={`${c.reachable.message}${c.reachable.latencyMs !== null ? ` (${c.reachable.latencyMs} ms)` : ''}`}
          />
          <CheckLine name="freshness" ok={c.freshness.ok} message={c.freshness.message} />
          <CheckLine
            name="errors"
            ok={c.errors.ok}
            message={
              c.errors.count
                ? `${c.errors.count} in the last hour${c.errors.lastError ? `: ${c.errors.lastError}` : ''}`
                : 'none'
            }
          />
        </ul>
      )}
      <small className="hint">checked {when(health.checkedAt)}</small>
    </div>
  );
}
