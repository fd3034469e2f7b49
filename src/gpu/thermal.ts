/**
 * A GPU's thermal excursion follows its temperature across the two limits (GPU_TEMPERATURE_WARN_C and
 * GPU_TEMPERATURE_CRITICAL_C): crossing the warning limit starts it (`gpu.thermal`, warning, or critical
 * when the first hot sample is already past the critical limit); crossing the critical limit during it
 * raises a critical `gpu.thermal`; coming back under the critical limit is a `gpu.thermal_recovered`
 * (`level: "warning"`), so the rule that alerts on critical excursions resolves its alert then; cooling
 * 5 °C under the warning limit ends it (`gpu.thermal_recovered`, `level: "normal"`). Pure, no I/O.
 */
import type { HealthLimits } from './health.js';

/** What the GPU row remembers of its excursion. */
export interface ThermalState {
  /** In an excursion (at or above the warning limit, not yet 5 °C under it). */
  hot: boolean;
  /** At or above the critical limit within the excursion. */
  thermalCritical: boolean;
}

export interface ThermalEvent {
  type: 'gpu.thermal' | 'gpu.thermal_recovered';
  severity: 'info' | 'warning' | 'critical';
  summary: string;
  payload: Record<string, string | number>;
}

/** Degrees under the warning limit at which an excursion ends (so a GPU at the limit does not flap). */
export const THERMAL_HYSTERESIS_C = 5;

/**
 * The event one new temperature reading makes, if any, with `state` advanced. `where` names the GPU
 * ("GPU 1 on node-a"); `uuid` goes into the payload.
 */
export function thermalTransition(
  state: ThermalState,
  temperatureC: number,
  limits: Pick<HealthLimits, 'temperatureWarnC' | 'temperatureCriticalC'>,
  where: string,
  uuid: string,
): ThermalEvent | null {
  const warn = limits.temperatureWarnC;
  const crit = limits.temperatureCriticalC;
  const critical = temperatureC >= crit;
  if (!state.hot) {
    if (temperatureC < warn) return null;
    state.hot = true;
    state.thermalCritical = critical;
    return {
      type: 'gpu.thermal',
      severity: critical ? 'critical' : 'warning',
      summary: `${where} at ${temperatureC} °C (${critical ? 'critical' : 'warning'} limit ${critical ? crit : warn} °C)`,
      payload: {
        temperature_c: temperatureC,
        limit_c: critical ? crit : warn,
        level: critical ? 'critical' : 'warning',
        uuid,
      },
    };
  }
  if (temperatureC < warn - THERMAL_HYSTERESIS_C) {
    const was = state.thermalCritical ? 'critical' : 'warning';
    state.hot = false;
    state.thermalCritical = false;
    return {
      type: 'gpu.thermal_recovered',
      severity: 'info',
      summary: `${where} back to ${temperatureC} °C`,
      payload: { temperature_c: temperatureC, limit_c: warn, level: 'normal', was, uuid },
    };
  }
  if (critical && !state.thermalCritical) {
    state.thermalCritical = true;
    return {
      type: 'gpu.thermal',
      severity: 'critical',
      summary: `${where} at ${temperatureC} °C (critical limit ${crit} °C)`,
      payload: { temperature_c: temperatureC, limit_c: crit, level: 'critical', uuid },
    };
  }
  if (!critical && state.thermalCritical) {
    state.thermalCritical = false;
    return {
      type: 'gpu.thermal_recovered',
      severity: 'info',
      summary: `${where} back under the critical limit ${crit} °C, at ${temperatureC} °C (warning limit ${warn} °C)`,
      payload: { temperature_c: temperatureC, limit_c: crit, level: 'warning', was: 'critical', uuid },
    };
  }
  return null;
}
