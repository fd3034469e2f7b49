/** The device page's proposals: title, status, proposer, when opened, and the way to review them. */
import { Link } from 'wouter';
import { DataTable } from '../../components/DataTable';
import { Badge, Card } from '../../components/Page';
import { when } from '../../lib/format';
import { graphql, readFragment, type FragmentOf } from '../../lib/graphql';

export const DeviceProposalFields = graphql(`
  fragment ConsoleDeviceProposal on Proposal {
    id
    title
    status
    createdAt
    proposer {
      email
    }
  }
`);

export function DeviceProposals({ proposals }: { proposals?: Array<FragmentOf<typeof DeviceProposalFields>> }) {
  const rows = proposals?.map((p) => readFragment(DeviceProposalFields, p));
  return (
    <Card title="Proposals">
      <DataTable
        caption="Device proposals"
        rows={rows}
        rowKey={(p) => p.id}
        columns={[
          { header: 'Title', cell: (p) => p.title },
          { header: 'Status', cell: (p) => <Badge value={p.status} /> },
          { header: 'Proposer', cell: (p) => p.proposer.email },
          { header: 'Opened', cell: (p) => when(p.createdAt) },
        ]}
      />
      <Link href="/proposals">Review proposals</Link>
    </Card>
  );
}
