/**
 * The operator command `ops cluster join --hub <url> --invite <token> --name <name> [--tenant T]`,
 * shaped like the CLI's Command entries (name, synopsis, options, run → {json, text}) so the CLI lists
 * it with one line. The logic is joinCluster (member.ts). The credential is never printed.
 */
import type { Runtime } from '../runtime.js';
import { joinCluster } from './member.js';

type Values = Record<string, string | boolean | undefined>;

export const clusterJoinCommand = {
  name: 'cluster join',
  summary: "Join a hub installation as a member cluster with a single-use invite from the hub's POST /clusters/invite.",
  synopsis: '--hub URL --invite TOKEN --name NAME [--tenant T] [--json]',
  options: {
    hub: { type: 'string' as const },
    invite: { type: 'string' as const },
    name: { type: 'string' as const },
    tenant: { type: 'string' as const },
  },
  required: ['hub', 'invite', 'name'],
  fieldOptions: { hub: '--hub', invite: '--invite', name: '--name', tenant: '--tenant' },
  async run(rt: Runtime, v: Values): Promise<{ json: unknown; text: string }> {
    const { link, clusterId } = await joinCluster(rt, {
      hub: String(v.hub ?? ''),
      invite: String(v.invite ?? ''),
      name: String(v.name ?? ''),
      tenant: typeof v.tenant === 'string' ? v.tenant : null,
    });
    return {
      json: {
        cluster_id: clusterId,
        hub: link.hubUrl,
        name: link.name,
        last_heartbeat_at: link.lastHeartbeatAt?.toISOString() ?? null,
      },
      text: [
        `Joined ${link.hubUrl} as cluster "${link.name}" (id ${clusterId} on the hub).`,
        "Heartbeats and critical alerts are sent by this installation's workers every CLUSTER_HEARTBEAT_MS.",
      ].join('\n'),
    };
  },
};
