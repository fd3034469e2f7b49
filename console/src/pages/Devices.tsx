/** The device inventory: search and filters, live (deviceChanged); admins add and delete devices (edits: the device's page). */
import { useMemo, useState } from 'react';
import { useMutation } from 'urql';
import { Link } from 'wouter';
import { ActionButton } from '../components/ActionButton';
import { DataTable } from '../components/DataTable';
import { MutationForm, TextField } from '../components/Field';
import { Badge, Page } from '../components/Page';
import { useLiveQuery } from '../components/useLive';
import { useDebounced } from '../components/useDebounced';
import { useMe } from '../lib/session';
import { adminOnly } from '../lib/permissions';
import { when } from '../lib/format';
import { graphql, type VariablesOf } from '../lib/graphql';

type DeviceFilter = NonNullable<VariablesOf<typeof DevicesQuery>['filter']>;

const DevicesQuery = graphql(`
  query ConsoleDevices($filter: DeviceFilter, $first: Int) {
    devices(filter: $filter, first: $first) {
      totalCount
      edges {
        node {
          id
          name
          site
          role
          platform
          managementAddress
          updatedAt
          drift {
            status
          }
          intent {
            version
          }
        }
      }
    }
  }
`);
const DeviceChangedAny = graphql(`
  subscription ConsoleDevicesChanged {
    deviceChanged {
      id
      change
      name
    }
  }
`);
const DeleteDevice = graphql(`
  mutation ConsoleDeleteDeviceFromList($id: ID!) {
    deleteDevice(id: $id)
  }
`);
const CreateDevice = graphql(`
  mutation ConsoleCreateDevice($input: DeviceInput!) {
    createDevice(input: $input) {
      id
      name
    }
  }
`);

export function Devices() {
  const me = useMe();
  const [search, setSearch] = useState('');
  const [site, setSite] = useState('');
  const [role, setRole] = useState('');
  const typed = useDebounced({ search, site, role });
  const filter = useMemo(() => Object.fromEntries(Object.entries(typed).filter(([, v]) => v)) as DeviceFilter, [typed]);
  const { result, refetch } = useLiveQuery({
    query: DevicesQuery,
    variables: { filter, first: 200 },
    subscription: DeviceChangedAny,
    // New events change no column of the list.
    refetchWhen: (m) => m.deviceChanged.change !== 'events_linked',
  });
  const [, create] = useMutation(CreateDevice);
  const [, remove] = useMutation(DeleteDevice);
  const [form, setForm] = useState({ name: '', site: '', role: '', platform: '', managementAddress: '' });
  const set = (k: keyof typeof form) => (v: string) => setForm({ ...form, [k]: v });
  return (
    <Page title="Devices" error={result.error} loading={result.fetching && !result.data}>
      <div className="filters" role="search" aria-label="Filter devices">
        <TextField label="Search" value={search} onChange={setSearch} placeholder="name or address" />
        <TextField label="Site" value={site} onChange={setSite} />
        <TextField label="Role" value={role} onChange={setRole} />
      </div>
      <DataTable
        caption="Devices"
        rows={result.data?.devices.edges.map((e) => e.node)}
        rowKey={(d) => d.id}
        columns={[
          { header: 'Name', cell: (d) => <Link href={`/devices/${d.id}`}>{d.name}</Link> },
          { header: 'Site', cell: (d) => d.site ?? '—' },
          { header: 'Role', cell: (d) => d.role ?? '—', wide: true },
          { header: 'Platform', cell: (d) => d.platform ?? '—', wide: true },
          { header: 'Address', cell: (d) => d.managementAddress ?? '—', collapse: true },
          { header: 'Intent', cell: (d) => (d.intent ? `v${d.intent.version}` : '—') },
          { header: 'Drift', cell: (d) => <Badge value={d.drift?.status ?? 'UNKNOWN'} /> },
          { header: 'Updated', cell: (d) => when(d.updatedAt), collapse: true },
          {
            header: 'Actions',
            cell: (d) => (
              <ActionButton
                variant="danger"
                label={`Delete ${d.name}`}
                deniedBecause={adminOnly(me)}
                confirm={`Delete ${d.name} with its intent history? Its alerts, events and proposals stay, detached.`}
                run={() => remove({ id: d.id })}
                onDone={refetch}
              >
                Delete
              </ActionButton>
            ),
          },
        ]}
      />
      <MutationForm
        title="Add a device"
        submitLabel="Add device"
        deniedBecause={adminOnly(me)}
        onSubmit={async () => {
          const input = Object.fromEntries(Object.entries(form).filter(([, v]) => v)) as typeof form;
          const r = await create({ input });
          if (!r.error) setForm({ name: '', site: '', role: '', platform: '', managementAddress: '' });
          return r;
        }}
      >
        <TextField label="Device name" value={form.name} onChange={set('name')} required />
        <TextField label="Device site" value={form.site} onChange={set('site')} />
        <TextField label="Device role" value={form.role} onChange={set('role')} />
        <TextField label="Platform" value={form.platform} onChange={set('platform')} />
        <TextField label="Management address" value={form.managementAddress} onChange={set('managementAddress')} />
      </MutationForm>
    </Page>
  );
}
