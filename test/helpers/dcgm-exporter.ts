/**
 * A stand-in for NVIDIA dcgm-exporter (which needs a GPU) in tests: Prometheus text written the way the
 * exporter's template writes it (HELP/TYPE lines, labels gpu, UUID, pci_bus_id, device, modelName,
 * Hostname; DCGM's blank sentinels for fields a GPU does not support), served on 127.0.0.1 by the test.
 */
export interface FakeGpu {
  index: number;
  uuid: string;
  util: number;
  temp: number;
  xid: number;
  /** Raw exporter values (strings as printed), so sentinels can be served verbatim. */
  powerLimit: string;
  eccDbe: string;
}

export const INT64_NOT_SUPPORTED = '9223372036854775794'; // DCGM_INT64_BLANK + 2
export const FP64_BLANK = '140737488355328.000000'; // DCGM_FP64_BLANK (2^47)

/** Prometheus text in dcgm-exporter's layout for the given GPUs of one host. */
export function exporterText(host: string, gpus: FakeGpu[]): string {
  const labels = (g: FakeGpu) =>
    `gpu="${g.index}",UUID="${g.uuid}",pci_bus_id="00000000:${(0x18 + g.index).toString(16).toUpperCase()}:00.0",device="nvidia${g.index}",modelName="NVIDIA H100 80GB HBM3",Hostname="${host}"`;
  const families: Array<[string, string, string, (g: FakeGpu) => string]> = [
    ['DCGM_FI_DEV_SM_CLOCK', 'gauge', 'SM clock frequency (in MHz).', () => '1980'],
    ['DCGM_FI_DEV_MEMORY_TEMP', 'gauge', 'Memory temperature (in C).', () => INT64_NOT_SUPPORTED],
    ['DCGM_FI_DEV_GPU_TEMP', 'gauge', 'GPU temperature (in C).', (g) => String(g.temp)],
    ['DCGM_FI_DEV_POWER_USAGE', 'gauge', 'Power draw (in W).', () => '250.125000'],
    ['DCGM_FI_DEV_POWER_MGMT_LIMIT', 'gauge', 'Power management limit (in W).', (g) => g.powerLimit],
    [
      'DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION',
      'counter',
      'Total energy consumption since boot (in mJ).',
      () => '912345678',
    ],
    ['DCGM_FI_DEV_GPU_UTIL', 'gauge', 'GPU utilization (in %).', (g) => String(g.util)],
    ['DCGM_FI_DEV_XID_ERRORS', 'gauge', 'Value of the last XID error encountered.', (g) => String(g.xid)],
    ['DCGM_FI_DEV_FB_FREE', 'gauge', 'Framebuffer memory free (in MiB).', () => '61000'],
    ['DCGM_FI_DEV_FB_USED', 'gauge', 'Framebuffer memory used (in MiB).', () => '20000'],
    ['DCGM_FI_DEV_ECC_DBE_VOL_TOTAL', 'counter', 'Total number of double-bit volatile ECC errors.', (g) => g.eccDbe],
  ];
  return (
    families
      .map(([name, type, help, value]) =>
        [
          `# HELP ${name} ${help}`,
          `# TYPE ${name} ${type}`,
          ...gpus.map((g) => `${name}{${labels(g)}} ${value(g)}`),
        ].join('\n'),
      )
      .join('\n') + '\n'
  );
}
