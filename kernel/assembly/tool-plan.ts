/**
 * What a policy result looks like to the model, per schema target: the name index and the
 * plugin tools' descriptors (provider-normalized schemas), built once per (policy result,
 * target) and shared by every run of that shape; each tool's descriptor is made once per
 * target and shared by every result that keeps the tool. Only the per-run parts stay per run: the
 * tools bound to a run's session are made when a call needs them, and a family tool (its
 * schema depends on the run) is described from its bound tool.
 */
import type { KernelTool } from '../gate/index.js';
import { isFamilyTool, type FamilySurfaceTool } from '../families/family-tools.js';
import { normalizeToolSchema, schemaTargetKey, type SchemaTarget } from '../schema/index.js';
import { normalizeToolPolicyName } from '../../sdk/policy/index.js';
import type { SurfaceTool } from './surface.js';
import type { ToolDescriptor } from './tool-set.js';

export type PlannedTool = SurfaceTool | FamilySurfaceTool;

export interface ToolPlan {
  readonly tools: readonly PlannedTool[];
  /** Normalized name → index in `tools`. */
  readonly byName: ReadonlyMap<string, number>;
  readonly hasFamilyTools: boolean;
  /** The plugin tool's provider-normalized schema (memoized). */
  parameters(index: number): Record<string, unknown>;
  /** Every tool's descriptor; a family tool's slot is `undefined` (described per run). */
  descriptors(): readonly (ToolDescriptor | undefined)[];
}

export function describeTool(tool: KernelTool): ToolDescriptor {
  return Object.freeze({ name: tool.name, description: tool.description, inputSchema: tool.parameters, pluginId: tool.pluginId, executionMode: tool.executionMode });
}

/** Per tool, what one schema target shows the model; shared by every plan with that target. */
type Described = WeakMap<SurfaceTool, ToolDescriptor>;

function describePluginTool(tool: SurfaceTool, target: SchemaTarget, described: Described): ToolDescriptor {
  let descriptor = described.get(tool);
  if (!descriptor) {
    const { contribution } = tool;
    descriptor = Object.freeze({ name: contribution.name, description: contribution.description, inputSchema: normalizeToolSchema(contribution.inputSchema, target), pluginId: tool.servedBy, executionMode: contribution.executionMode });
    described.set(tool, descriptor);
  }
  return descriptor;
}

function buildPlan(tools: readonly PlannedTool[], target: SchemaTarget, described: Described): ToolPlan {
  const byName = new Map<string, number>();
  tools.forEach((tool, index) => byName.set(normalizeToolPolicyName(tool.name), index));
  let descriptors: readonly (ToolDescriptor | undefined)[] | undefined;
  return {
    tools,
    byName,
    hasFamilyTools: tools.some((tool) => isFamilyTool(tool)),
    parameters: (index) => describePluginTool(tools[index] as SurfaceTool, target, described).inputSchema,
    descriptors() {
      descriptors ??= Object.freeze(tools.map((tool) => (isFamilyTool(tool) ? undefined : describePluginTool(tool, target, described))));
      return descriptors;
    },
  };
}

/** Plans cached per policy result (its frozen tool list) and schema target. */
export class ToolPlans {
  readonly #plans = new WeakMap<readonly PlannedTool[], Map<string, ToolPlan>>();
  readonly #described = new Map<string, Described>();

  get(tools: readonly PlannedTool[], target: SchemaTarget): ToolPlan {
    const key = schemaTargetKey(target);
    let described = this.#described.get(key);
    if (!described) this.#described.set(key, (described = new WeakMap()));
    if (!Object.isFrozen(tools)) return buildPlan(tools, target, described);
    let byTarget = this.#plans.get(tools);
    if (!byTarget) this.#plans.set(tools, (byTarget = new Map()));
    let plan = byTarget.get(key);
    if (!plan) byTarget.set(key, (plan = buildPlan(tools, target, described)));
    return plan;
  }
}
