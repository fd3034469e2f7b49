/**
 * REST routes of GPU diagnostics and load-test runs; each runs a GraphQL operation of schema/gpu-runs.ts.
 */
import type { RouteEntry } from '../route-types.js';
import {
  AIPERF_RUN_FIELDS,
  GPU_DIAGNOSTIC_FIELDS,
  presentAiperfRun,
  presentGpuDiagnostic,
} from '../presenters/gpu-runs.js';

const num = (v: unknown) => (v == null ? null : Number(v));

export const gpuRunsRoutes: RouteEntry[] = [
  {
    method: 'post',
    path: '/ai-factory/gpu/diagnostics',
    operation: `mutation StartGpuDiagnostic($input: StartGpuDiagnosticInput!) { startGpuDiagnostic(input: $input) { ${GPU_DIAGNOSTIC_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    status: 202,
    respond: (data) => presentGpuDiagnostic(data.startGpuDiagnostic),
  },
  {
    method: 'get',
    path: '/ai-factory/gpu/diagnostics',
    operation: `query GpuDiagnostics($limit: Int) { gpuDiagnostics(limit: $limit) { ${GPU_DIAGNOSTIC_FIELDS} } }`,
    variables: (req) => ({ limit: num(req.query.limit) }),
    respond: (data) => ({ items: data.gpuDiagnostics.map(presentGpuDiagnostic) }),
  },
  {
    method: 'get',
    path: '/ai-factory/gpu/diagnostics/:diagnosticId',
    operation: `query GpuDiagnostic($id: ID!) { gpuDiagnostic(id: $id) { ${GPU_DIAGNOSTIC_FIELDS} } }`,
    variables: (req) => ({ id: req.params.diagnosticId }),
    respond: (data) => presentGpuDiagnostic(data.gpuDiagnostic),
  },
  {
    method: 'post',
    path: '/ai-factory/aiperf/runs',
    operation: `mutation StartAiperfRun($input: StartAiperfRunInput!) { startAiperfRun(input: $input) { ${AIPERF_RUN_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    status: 202,
    respond: (data) => presentAiperfRun(data.startAiperfRun),
  },
  {
    method: 'get',
    path: '/ai-factory/aiperf/runs',
    operation: `query AiperfRuns($status: AiperfRunStatus, $limit: Int) { aiperfRuns(status: $status, limit: $limit) { ${AIPERF_RUN_FIELDS} } }`,
    variables: (req) => ({ status: req.query.status ?? null, limit: num(req.query.limit) }),
    respond: (data) => ({ items: data.aiperfRuns.map(presentAiperfRun) }),
  },
  {
    method: 'get',
    path: '/ai-factory/aiperf/runs/:runId',
    operation: `query AiperfRun($id: ID!) { aiperfRun(id: $id) { ${AIPERF_RUN_FIELDS} } }`,
    variables: (req) => ({ id: req.params.runId }),
    respond: (data) => presentAiperfRun(data.aiperfRun),
  },
  {
    method: 'post',
    path: '/ai-factory/aiperf/runs/:runId/cancel',
    operation: `mutation CancelAiperfRun($id: ID!) { cancelAiperfRun(id: $id) { ${AIPERF_RUN_FIELDS} } }`,
    variables: (req) => ({ id: req.params.runId }),
    respond: (data) => presentAiperfRun(data.cancelAiperfRun),
  },
];
