/** Raw `tools.loopDetection` config as an operator writes it; every field optional. */
export interface ToolLoopDetectionConfig {
  enabled?: boolean;
  historySize?: number;
  warningThreshold?: number;
  unknownToolThreshold?: number;
  criticalThreshold?: number;
  globalCircuitBreakerThreshold?: number;
  detectors?: { genericRepeat?: boolean; knownPollNoProgress?: boolean; pingPong?: boolean };
}

/** The config after defaults and consistency fix-ups: every threshold a positive integer. */
export interface ResolvedLoopDetectionConfig {
  enabled: boolean;
  historySize: number;
  warningThreshold: number;
  unknownToolThreshold: number;
  criticalThreshold: number;
  globalCircuitBreakerThreshold: number;
  detectors: { genericRepeat: boolean; knownPollNoProgress: boolean; pingPong: boolean };
}

/** Defaults of the reference (seed era): detection is opt-in. */
export const LOOP_DETECTION_DEFAULTS: Readonly<ResolvedLoopDetectionConfig> = Object.freeze({
  enabled: false,
  historySize: 30,
  warningThreshold: 10,
  unknownToolThreshold: 10,
  criticalThreshold: 20,
  globalCircuitBreakerThreshold: 30,
  detectors: Object.freeze({ genericRepeat: true, knownPollNoProgress: true, pingPong: true }),
});

function positiveInteger(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
}

/**
 * Resolve the seed-era way: bad numbers fall back to defaults, then the thresholds are
 * forced into order warning < critical < global so a critical level is always reachable.
 */
export function resolveLoopDetectionConfig(config: ToolLoopDetectionConfig | undefined): ResolvedLoopDetectionConfig {
  const d = LOOP_DETECTION_DEFAULTS;
  const raw = config ?? {};
  const warningThreshold = positiveInteger(raw.warningThreshold, d.warningThreshold);
  let criticalThreshold = positiveInteger(raw.criticalThreshold, d.criticalThreshold);
  if (criticalThreshold <= warningThreshold) criticalThreshold = warningThreshold + 1;
  let globalCircuitBreakerThreshold = positiveInteger(raw.globalCircuitBreakerThreshold, d.globalCircuitBreakerThreshold);
  if (globalCircuitBreakerThreshold <= criticalThreshold) globalCircuitBreakerThreshold = criticalThreshold + 1;
  const detectors = raw.detectors ?? {};
  return {
    enabled: raw.enabled === true,
    historySize: positiveInteger(raw.historySize, d.historySize),
    warningThreshold,
    unknownToolThreshold: positiveInteger(raw.unknownToolThreshold, d.unknownToolThreshold),
    criticalThreshold,
    globalCircuitBreakerThreshold,
    detectors: {
      genericRepeat: detectors.genericRepeat !== false,
      knownPollNoProgress: detectors.knownPollNoProgress !== false,
      pingPong: detectors.pingPong !== false,
    },
  };
}
