/** "On call now": who is on call in each schedule at this moment (the home page shows it). */
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { when } from '../../lib/format';
import { graphql } from '../../lib/graphql';

const OnCallQuery = graphql(`
  query ConsoleOnCallNow {
    onCall {
      schedule {
        id
        name
      }
      shift {
        end
        user {
          name
          email
        }
      }
    }
  }
`);

export function OnCallNow() {
  const [result] = useQuery({ query: OnCallQuery });
  const rows = result.data?.onCall;
  if (!rows) return null;
  return (
    <section aria-label="On call now" className="card">
      <h2>On call now</h2>
      {rows.length === 0 ? (
        <p>
          Nobody: <Link href="/schedules">set up a schedule</Link>.
        </p>
      ) : (
        <ul>
          {rows.map((r) => (
            <li key={r.schedule.id}>
              {r.schedule.name}: <strong>{r.shift.user?.name || r.shift.user?.email}</strong> until {when(r.shift.end)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
