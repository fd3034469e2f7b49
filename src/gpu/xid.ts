/**
 * NVIDIA's XID catalogue (the codes of "Xid Errors" in NVIDIA's GPU deployment and management
 * documentation): what a code means, what to do about it, and how urgent it is. Codes 48, 63, 64, 79
 * and the other uncontained or hardware faults are critical; application-side faults are warnings.
 */
export type XidSeverity = 'info' | 'warning' | 'critical';

export interface XidEntry {
  code: number;
  meaning: string;
  action: string;
  severity: XidSeverity;
}

const entries: XidEntry[] = [
  {
    code: 13,
    meaning: 'Graphics engine exception',
    action:
      'Usually an application fault (out-of-range access); check the workload, then run diagnostics if it repeats across workloads.',
    severity: 'warning',
  },
  {
    code: 31,
    meaning: 'GPU memory page fault',
    action: 'Usually an illegal memory access in the application; debug the workload.',
    severity: 'warning',
  },
  {
    code: 32,
    meaning: 'Invalid or corrupted push buffer stream',
    action: 'Check the driver and the PCIe link; run diagnostics if it repeats.',
    severity: 'warning',
  },
  {
    code: 38,
    meaning: 'Driver firmware error',
    action: 'Update the driver; reset the GPU if it repeats.',
    severity: 'warning',
  },
  {
    code: 43,
    meaning: 'GPU stopped processing (channel reset)',
    action: 'Application fault; the GPU remains usable. Restart the workload.',
    severity: 'warning',
  },
  {
    code: 45,
    meaning: 'Preemptive cleanup after earlier errors',
    action: 'Follows other XIDs or a killed process; look at the XIDs before it.',
    severity: 'info',
  },
  {
    code: 48,
    meaning: 'Double-bit ECC error',
    action: 'Drain the node and reset the GPU; replace the GPU if it repeats.',
    severity: 'critical',
  },
  {
    code: 61,
    meaning: 'Internal micro-controller breakpoint/warning',
    action: 'Reset the GPU when convenient; update the driver.',
    severity: 'warning',
  },
  {
    code: 62,
    meaning: 'Internal micro-controller halt',
    action: 'Drain the node and reset the GPU.',
    severity: 'critical',
  },
  {
    code: 63,
    meaning: 'ECC page retirement or row remapping recording event',
    action: 'Reset the GPU at the next opportunity so the remapping takes effect.',
    severity: 'critical',
  },
  {
    code: 64,
    meaning: 'ECC page retirement or row remapping recording failure',
    action: 'Drain the node and reset the GPU; replace it if the failure repeats.',
    severity: 'critical',
  },
  {
    code: 68,
    meaning: 'Video decoder (NVDEC) exception',
    action: 'Application or driver fault; restart the workload.',
    severity: 'warning',
  },
  {
    code: 69,
    meaning: 'Graphics engine class error',
    action: 'Application fault; restart the workload.',
    severity: 'warning',
  },
  {
    code: 74,
    meaning: 'NVLink error',
    action: 'Drain the node; check NVLink connections and run diagnostics.',
    severity: 'critical',
  },
  {
    code: 79,
    meaning: 'GPU has fallen off the bus',
    action: 'Drain the node; check power and the PCIe link, then reboot. Replace the GPU if it repeats.',
    severity: 'critical',
  },
  {
    code: 92,
    meaning: 'High single-bit ECC error rate',
    action: 'Watch the ECC counters; schedule a reset and diagnostics.',
    severity: 'warning',
  },
  {
    code: 94,
    meaning: 'Contained ECC error',
    action: 'The affected application was stopped; restart it. Reset the GPU when convenient.',
    severity: 'warning',
  },
  { code: 95, meaning: 'Uncontained ECC error', action: 'Drain the node and reset the GPU.', severity: 'critical' },
  {
    code: 119,
    meaning: 'GSP RPC timeout',
    action: 'Drain the node and reset the GPU; update the driver.',
    severity: 'critical',
  },
  {
    code: 120,
    meaning: 'GSP error',
    action: 'Drain the node and reset the GPU; update the driver.',
    severity: 'critical',
  },
  { code: 140, meaning: 'Unrecovered ECC error', action: 'Drain the node and reset the GPU.', severity: 'critical' },
];

const byCode = new Map(entries.map((e) => [e.code, e]));

/** The catalogue entry of an XID; an unknown code is a warning that says to look it up. */
export function describeXid(code: number): XidEntry {
  return (
    byCode.get(code) ?? {
      code,
      meaning: `XID ${code} (not in the catalogue)`,
      action: "Look the code up in NVIDIA's XID documentation and run diagnostics.",
      severity: 'warning',
    }
  );
}

export const XID_CATALOGUE: readonly XidEntry[] = entries;
