/**
 * The labelled incidents of the triage evaluation (test/triage-eval*.test.ts). Each has a symptom
 * that opens an alert, the real cause (or none) and unrelated distractors that arrive closer to the
 * alert than the cause. Relation kinds covered: same device, shared labels (machine, service, pod,
 * namespace, job), payload keys, the rule's dedup labels, same source, site, GPU-node and integration
 * topology, known precursors, the tenant's own change vocabulary, and no cause at all.
 */

export interface Ev {
  type: string;
  source?: string;
  labels?: Record<string, string>;
  payload?: Record<string, unknown>;
}

/** A step that writes events through the public API (ingest, GPU samples, device intent). */
export type Step = { ingest: Ev } | { gpu: { node: string; uuid: string; xid?: number } } | { intent: string };

export interface Incident {
  name: string;
  relation: string;
  devices?: Array<{ name: string; site?: string }>;
  gpus?: Array<{ node: string; uuid: string }>;
  integration?: boolean;
  changeTypes?: string[];
  dedupKeyTemplate?: string;
  symptom: Ev;
  /** The real cause, minutes before the alert; null: nothing related exists. */
  cause: { step: Step; minutes: number } | null;
  /** Unrelated (or less related) steps, closer to the alert. */
  distractors: Array<{ step: Step; minutes: number }>;
}

const ev = (
  type: string,
  labels: Record<string, string> = {},
  source = 'ci',
  payload?: Record<string, unknown>,
): Step => ({ ingest: { type, source, labels, ...(payload ? { payload } : {}) } });
const near = (step: Step, minutes = 2) => ({ step, minutes });

export const INCIDENTS: Incident[] = [
  {
    name: 'deploy of the failing service',
    relation: 'shared_label',
    symptom: { type: 'app.error', source: 'checkout-pods', labels: { service: 'checkout' } },
    cause: { step: ev('deploy.finished', { service: 'checkout' }), minutes: 12 },
    distractors: [near(ev('deploy.finished', { service: 'search' }))],
  },
  {
    name: 'service named in the payload',
    relation: 'shared_label',
    symptom: { type: 'app.error', source: 'mon', labels: { service: 'cart' } },
    cause: { step: ev('deploy.done', {}, 'ci', { service: 'cart', version: '7' }), minutes: 20 },
    distractors: [near(ev('deploy.done', {}, 'ci', { service: 'ads' }), 1)],
  },
  {
    name: 'app label matches service label',
    relation: 'shared_label',
    symptom: { type: 'app.latency', source: 'mon', labels: { service: 'billing' } },
    cause: { step: ev('release.published', { app: 'billing' }), minutes: 30 },
    distractors: [near(ev('release.published', { app: 'ledger' }), 3)],
  },
  {
    name: 'rollout of the deployment',
    relation: 'shared_label',
    symptom: { type: 'k8s.availability', source: 'kube', labels: { deployment: 'api-gw', namespace: 'edge' } },
    cause: { step: ev('k8s.rollout.started', { deployment: 'api-gw', namespace: 'edge' }, 'argo'), minutes: 15 },
    distractors: [near(ev('k8s.rollout.started', { deployment: 'web', namespace: 'edge' }, 'argo'))],
  },
  {
    name: 'config change on the failing host',
    relation: 'shared_label',
    symptom: { type: 'host.disk_latency', source: 'node-exporter', labels: { host: 'db-3' } },
    cause: { step: ev('config.changed', { host: 'db-3' }, 'puppet'), minutes: 25 },
    distractors: [near(ev('config.changed', { host: 'db-4' }, 'puppet'))],
  },
  {
    name: 'instance with a port is the host',
    relation: 'shared_label',
    symptom: { type: 'host.cpu_high', source: 'prometheus', labels: { instance: 'web-2:9100' } },
    cause: { step: ev('config.applied', { host: 'web-2' }, 'ansible'), minutes: 18 },
    distractors: [near(ev('config.applied', { host: 'web-5' }, 'ansible'))],
  },
  {
    name: 'fully qualified host name',
    relation: 'shared_label',
    symptom: { type: 'host.mem_high', source: 'prometheus', labels: { host: 'cache-1.dc1.example.com' } },
    cause: { step: ev('os.upgrade', { node: 'cache-1' }, 'apt'), minutes: 40 },
    distractors: [near(ev('os.upgrade', { node: 'cache-9' }, 'apt'))],
  },
  {
    name: 'label-matched deploy from another source',
    relation: 'shared_label',
    symptom: { type: 'app.error', source: 'prometheus', labels: { service: 'payments' } },
    cause: { step: ev('deploy.succeeded', { service: 'payments' }, 'argo'), minutes: 10 },
    distractors: [
      near(ev('deploy.succeeded', { service: 'fraud' }, 'argo'), 1),
      near(ev('deploy.succeeded', { service: 'kyc' }, 'prometheus'), 4),
    ],
  },
  {
    name: 'feature-flag flip',
    relation: 'shared_label',
    symptom: { type: 'app.error', source: 'mon', labels: { service: 'search' } },
    cause: { step: ev('feature_flag.toggled', { service: 'search' }, 'launchdarkly'), minutes: 8 },
    distractors: [near(ev('flag.changed', { service: 'recs' }, 'launchdarkly'), 1)],
  },
  {
    name: 'flag named in the payload',
    relation: 'shared_label',
    symptom: { type: 'app.error', source: 'mon', labels: { app: 'profile' } },
    cause: { step: ev('flags.updated', {}, 'unleash', { app: 'profile', flag: 'new-ui' }), minutes: 6 },
    distractors: [near(ev('flags.updated', {}, 'unleash', { app: 'feed' }), 1)],
  },
  {
    name: 'XID on the node where the job died',
    relation: 'precursor',
    gpus: [
      { node: 'gn-7', uuid: 'GPU-aaaa0007' },
      { node: 'gn-8', uuid: 'GPU-aaaa0008' },
    ],
    symptom: { type: 'job.failed', source: 'slurm', labels: { job_id: 'j-101', node: 'gn-7' } },
    cause: { step: { gpu: { node: 'gn-7', uuid: 'GPU-aaaa0007', xid: 79 } }, minutes: 9 },
    distractors: [
      near({ gpu: { node: 'gn-8', uuid: 'GPU-aaaa0008', xid: 79 } }),
      near(ev('deploy.finished', { service: 'scheduler-ui' }), 1),
    ],
  },
  {
    name: 'GPU fault named by UUID on the job node',
    relation: 'gpu_node',
    gpus: [
      { node: 'gn-2', uuid: 'GPU-bbbb0002' },
      { node: 'gn-3', uuid: 'GPU-bbbb0003' },
    ],
    symptom: { type: 'job.failed', source: 'slurm', labels: { job_id: 'j-202', node: 'gn-2' } },
    cause: { step: ev('gpu.ecc', {}, 'dcgm-exporter', { uuid: 'GPU-bbbb0002' }), minutes: 14 },
    distractors: [near(ev('gpu.ecc', {}, 'dcgm-exporter', { uuid: 'GPU-bbbb0003' }))],
  },
  {
    name: 'XID on the GPU the job ran on',
    relation: 'shared_label',
    symptom: { type: 'training.crashed', source: 'k8s-jobs', labels: { gpu_uuid: 'GPU-cccc0001' } },
    cause: { step: ev('gpu.xid', { uuid: 'GPU-cccc0001' }, 'dcgm'), minutes: 5 },
    distractors: [near(ev('gpu.xid', { uuid: 'GPU-cccc0002' }, 'dcgm'), 1)],
  },
  {
    name: 'intent change of the failing device',
    relation: 'same_device',
    devices: [{ name: 'sw-1' }, { name: 'sw-2' }],
    symptom: { type: 'iface.errors', source: 'snmp', labels: { device: 'sw-1' } },
    cause: { step: { intent: 'sw-1' }, minutes: 22 },
    distractors: [near({ intent: 'sw-2' })],
  },
  {
    name: 'change on a device at the same site',
    relation: 'site',
    devices: [
      { name: 'leaf-1', site: 'ams' },
      { name: 'spine-1', site: 'ams' },
      { name: 'leaf-9', site: 'fra' },
    ],
    symptom: { type: 'iface.down', source: 'snmp', labels: { device: 'leaf-1' } },
    cause: { step: { intent: 'spine-1' }, minutes: 16 },
    distractors: [near({ intent: 'leaf-9' })],
  },
  {
    name: 'site-wide change at the device site',
    relation: 'site',
    devices: [{ name: 'ap-1', site: 'ber' }],
    symptom: { type: 'wifi.degraded', source: 'controller', labels: { device: 'ap-1' } },
    cause: { step: ev('config.changed', { site: 'ber' }, 'netops'), minutes: 35 },
    distractors: [near(ev('config.changed', { site: 'muc' }, 'netops'))],
  },
  {
    name: "integration's degradation before its alerts",
    relation: 'integration',
    integration: true,
    symptom: { type: 'am.firing', source: 'alertmanager/prod-am', labels: { integration_id: '$INTEGRATION' } },
    cause: {
      step: ev('integration.degraded', { integration_id: '$INTEGRATION' }, 'alertmanager/prod-am'),
      minutes: 11,
    },
    distractors: [
      near(ev('integration.degraded', { integration_id: '01900000-0000-7000-8000-00000000abcd' }, 'prometheus/lab')),
    ],
  },
  {
    name: "rule's dedup label",
    relation: 'dedup_label',
    dedupKeyTemplate: 'shop:{{labels.tenant_slug}}',
    symptom: { type: 'shop.errors', source: 'shopmon', labels: { tenant_slug: 'acme' } },
    cause: { step: ev('deploy.finished', { tenant_slug: 'acme' }), minutes: 19 },
    distractors: [near(ev('deploy.finished', { tenant_slug: 'globex' }))],
  },
  {
    name: "rule's dedup key from the payload",
    relation: 'dedup_label',
    dedupKeyTemplate: 'db:{{payload.shard}}',
    symptom: { type: 'db.slow', source: 'pgwatch', payload: { shard: 's-12' } },
    cause: { step: ev('schema.migration.applied', {}, 'flyway', { shard: 's-12' }), minutes: 28 },
    distractors: [near(ev('schema.migration.applied', {}, 'flyway', { shard: 's-3' }))],
  },
  {
    name: 'release from the same source',
    relation: 'same_source',
    symptom: { type: 'orders.errors', source: 'orders-svc' },
    cause: { step: ev('release.published', {}, 'orders-svc'), minutes: 13 },
    distractors: [near(ev('release.published', {}, 'inventory-svc'))],
  },
  {
    name: 'configmap change of the crash-looping pod',
    relation: 'shared_label',
    symptom: { type: 'k8s.crashloop', source: 'kube', labels: { pod: 'api-7f9', namespace: 'prod' } },
    cause: { step: ev('k8s.configmap.changed', { pod: 'api-7f9', namespace: 'prod' }, 'kube-audit'), minutes: 17 },
    distractors: [
      near(ev('sot.proposal_applied', { device: 'core-rtr-2' }, 'sot')),
      near(ev('deploy.finished', { pod: 'web-1a2', namespace: 'prod' }), 1),
    ],
  },
  {
    name: 'upgrade in the same namespace only',
    relation: 'shared_label',
    symptom: { type: 'k8s.errors', source: 'kube', labels: { namespace: 'payments' } },
    cause: { step: ev('helm.upgrade', { namespace: 'payments' }, 'helm'), minutes: 24 },
    distractors: [near(ev('helm.upgrade', { namespace: 'web' }, 'helm'))],
  },
  {
    name: 'interface down on the same host',
    relation: 'precursor',
    symptom: { type: 'app.latency', source: 'apm', labels: { host: 'edge-4' } },
    cause: { step: ev('net.interface_down', { host: 'edge-4' }, 'snmp'), minutes: 7 },
    distractors: [
      near(ev('net.interface_down', { host: 'edge-7' }, 'snmp'), 1),
      near(ev('deploy.finished', { service: 'cms' }), 1),
    ],
  },
  {
    name: 'OOM kill on the same host',
    relation: 'precursor',
    symptom: { type: 'svc.unavailable', source: 'blackbox', labels: { host: 'h9' } },
    cause: { step: ev('kernel.oom_kill', { host: 'h9' }, 'journald'), minutes: 4 },
    distractors: [near(ev('kernel.oom_kill', { host: 'h2' }, 'journald'), 1)],
  },
  {
    name: 'database migration of the service',
    relation: 'shared_label',
    symptom: { type: 'db.errors', source: 'apm', labels: { service: 'ledger' } },
    cause: { step: ev('db.migration.applied', { service: 'ledger' }), minutes: 33 },
    distractors: [near(ev('db.migration.applied', { service: 'auth' }))],
  },
  {
    name: 'scaling of the service',
    relation: 'shared_label',
    symptom: { type: 'queue.backlog', source: 'mon', labels: { service: 'queue' } },
    cause: { step: ev('autoscaler.scaled', { service: 'queue' }, 'hpa'), minutes: 9 },
    distractors: [near(ev('autoscaler.scaled', { service: 'mailer' }, 'hpa'), 1)],
  },
  {
    name: 'restart of the service',
    relation: 'shared_label',
    symptom: { type: 'api.5xx', source: 'lb', labels: { service: 'gateway' } },
    cause: { step: ev('service.restarted', { service: 'gateway' }, 'systemd'), minutes: 3 },
    distractors: [near(ev('service.restarted', { service: 'metrics' }, 'systemd'), 1)],
  },
  {
    name: 'kubelet upgrade on the node',
    relation: 'shared_label',
    symptom: { type: 'node.not_ready', source: 'kube', labels: { node: 'k8s-w3' } },
    cause: { step: ev('kubelet.upgrade', { node: 'k8s-w3' }, 'kops'), minutes: 45 },
    distractors: [near(ev('kubelet.upgrade', { node: 'k8s-w9' }, 'kops'))],
  },
  {
    name: 'secret updated for the service',
    relation: 'shared_label',
    symptom: { type: 'smtp.auth_failed', source: 'mailer', labels: { service: 'mailer' } },
    cause: { step: ev('secret.updated', { service: 'mailer' }, 'vault'), minutes: 21 },
    distractors: [near(ev('secret.updated', { service: 'crm' }, 'vault'))],
  },
  {
    name: "tenant's own change term",
    relation: 'shared_label',
    changeTypes: ['canary'],
    symptom: { type: 'shop.errors', source: 'mon', labels: { service: 'shop' } },
    cause: { step: ev('canary.started', { service: 'shop' }, 'flagger'), minutes: 10 },
    distractors: [near(ev('canary.started', { service: 'blog' }, 'flagger'))],
  },
  {
    name: 'time breaks the tie between two related deploys',
    relation: 'shared_label',
    symptom: { type: 'app.error', source: 'mon', labels: { service: 'auth' } },
    cause: { step: ev('deploy.finished', { service: 'auth', version: '2' }), minutes: 10 },
    distractors: [
      { step: ev('deploy.finished', { service: 'auth', version: '1' }), minutes: 50 },
      near(ev('deploy.finished', { service: 'news' }), 1),
    ],
  },
  {
    name: 'job id shared by the scheduler change',
    relation: 'shared_label',
    symptom: { type: 'batch.failed', source: 'airflow', labels: { job: 'nightly-etl' } },
    cause: { step: ev('dag.config.updated', { job: 'nightly-etl' }, 'airflow-ci'), minutes: 26 },
    distractors: [near(ev('dag.config.updated', { job: 'hourly-sync' }, 'airflow-ci'))],
  },
  {
    name: 'no related change: only another service deployed',
    relation: 'none',
    symptom: { type: 'app.error', source: 'mon', labels: { service: 'checkout' } },
    cause: null,
    distractors: [near(ev('deploy.finished', { service: 'search' })), near(ev('config.changed', { host: 'db-9' }), 1)],
  },
  {
    name: 'no related change: XID on another node',
    relation: 'none',
    gpus: [
      { node: 'gn-1', uuid: 'GPU-dddd0001' },
      { node: 'gn-5', uuid: 'GPU-dddd0005' },
    ],
    symptom: { type: 'job.failed', source: 'slurm', labels: { job_id: 'j-9', node: 'gn-1' } },
    cause: null,
    distractors: [near({ gpu: { node: 'gn-5', uuid: 'GPU-dddd0005', xid: 48 } })],
  },
  {
    name: 'no related change: symptom without entities',
    relation: 'none',
    symptom: { type: 'synthetic.check_failed', source: 'pingdom' },
    cause: null,
    distractors: [
      near(ev('deploy.finished', { service: 'x' })),
      near(ev('feature_flag.toggled', { service: 'y' }, 'launchdarkly'), 1),
    ],
  },
];
