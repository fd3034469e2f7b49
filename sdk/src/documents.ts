/**
 * Typed documents for the common reads and live views: open alerts, one alert with its timeline, who is on call, and
 * the alert and event subscriptions. Write your own with `graphql(\`…\`)`: a field the schema does not have is a type
 * error.
 */
import { graphql } from './graphql.js';

export const OpenAlerts = graphql(`
  query OpenAlerts($first: Int, $severity: Severity) {
    alerts(first: $first, filter: { status: [OPEN, ACKNOWLEDGED], severity: $severity }) {
      totalCount
      edges {
        node {
          id
          summary
          severity
          status
          count
          labels
          lastSeenAt
        }
      }
    }
  }
`);

export const AlertById = graphql(`
  query AlertById($id: ID!) {
    alert(id: $id) {
      id
      summary
      severity
      status
      dedupKey
      labels
      firstSeenAt
      lastSeenAt
      acknowledgedAt
      resolvedAt
    }
  }
`);

export const AlertChanges = graphql(`
  subscription AlertChanges {
    alertChanged {
      change
      alert {
        id
        summary
        severity
        status
      }
    }
  }
`);

export const EventsAdded = graphql(`
  subscription EventsAdded($filter: EventFilter) {
    eventAdded(filter: $filter) {
      id
      type
      source
      severity
      summary
      receivedAt
    }
  }
`);
