import type { ToolLoopDetectionConfig } from '../loop/config.js';
import { createToolLoopDetector, type ToolLoopDetector } from '../loop/detector.js';
import type { LoopCheckResult } from '../loop/detectors.js';

/**
 * What one run remembers from call to call: its loop history, the loop warnings already
 * logged, and the digests granted with allow-always. It outlives any one gate, so a host
 * that assembles a tool set per turn (and `pincer serve` rebuilding on list changes) keeps it.
 */
export interface GateRunState {
  /** Present only when loop detection is enabled. */
  readonly loop?: ToolLoopDetector;
  readonly warnedLoopKeys: Set<string>;
  readonly rememberedApprovals: Set<string>;
}

/** A loop verdict that is not "fine": a warning or a critical block. */
export type LoopVerdict = Extract<LoopCheckResult, { stuck: true }>;

/** Fresh state for one run, from `tools.loopDetection` config or a detector the host drives. */
export function createGateRunState(loopDetection?: ToolLoopDetectionConfig | ToolLoopDetector): GateRunState {
  const detector = loopDetection && 'check' in loopDetection ? (loopDetection as ToolLoopDetector) : loopDetection ? createToolLoopDetector(loopDetection) : undefined;
  return { loop: detector?.config.enabled ? detector : undefined, warnedLoopKeys: new Set(), rememberedApprovals: new Set() };
}
