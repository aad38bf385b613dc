/**
 * A run shape's tool plan: what every run of one shape shares, built once per (policy result,
 * provider target, memory path, family tools) and then reused, so assembling a shape already
 * seen is a look-up whatever the surface's size. It holds each kept tool's definition (its
 * provider schema), the descriptors the model is shown, the names a call may use, and tool
 * search's layout. Nothing in it is bound to a run: a run's tool set binds a tool to its session
 * only when a call names it (see run-tools.ts).
 */
import type { KernelTool } from '../gate/index.js';
import { normalizeToolSchema, schemaTargetKey, type SchemaTarget } from '../schema/index.js';
import { normalizeToolPolicyName } from '../../sdk/policy/index.js';
import type { ToolSearchConfig } from '../tool-search/config.js';
import { pickToolMetadata } from '../tool-search/metadata.js';
import { layoutToolSearch, type SearchLayout } from '../tool-search/plan.js';
import type { ToolDefinition } from '../tool-search/search-tool.js';
import { pluginToolsOf } from '../turns/call-registry.js';
import { isFamilyTool, type FamilySurfaceTool } from '../families/family-tools.js';
import { memoryWriteDefinition } from './memory-run.js';
import { pluginToolDefinition } from './plugin-tool.js';
import type { SurfaceTool } from './surface.js';
import type { ToolDescriptor } from './tool-set.js';

/**
 * A tool of the plan: its definition's fields (what tool search ranks and returns), the
 * definition itself (what a bound tool carries), what the model sees of it, and what a call binds.
 */
export type PlannedTool = ToolDefinition & { readonly definition: ToolDefinition; readonly descriptor: ToolDescriptor } & CallTarget;

/** What a call of a planned tool binds to its run. */
type CallTarget =
  | { readonly kind: 'plugin' | 'memory-write'; readonly source: SurfaceTool }
  | { readonly kind: 'family'; readonly source: FamilySurfaceTool }
  | { readonly kind: 'search' };

export interface ToolPlan {
  /** Every tool a call may name, in the policy's order, `tool_search` last when the run has it. */
  readonly tools: readonly PlannedTool[];
  /** Their descriptors, frozen: what a run without tool search lists. */
  readonly descriptors: readonly ToolDescriptor[];
  readonly search: SearchLayout<PlannedTool> | undefined;
  /** The tool a call names (normalized), or undefined. */
  find(name: string): PlannedTool | undefined;
  /** What a session that found `discovered` is shown (tool search only), frozen. */
  listed(discovered: ReadonlySet<string>): readonly ToolDescriptor[];
  /** Per plugin, the normalized names of its kept tools (what the turn services may re-grant); frozen, shared by the shape's runs. */
  readonly pluginTools: Record<string, string[]>;
}

export type PolicyKept = SurfaceTool | FamilySurfaceTool;

const describe = (tool: ToolDefinition): ToolDescriptor =>
  Object.freeze({ name: tool.name, description: tool.description, inputSchema: tool.parameters, pluginId: tool.pluginId, executionMode: tool.executionMode, ...pickToolMetadata(tool) });

function planned(definition: ToolDefinition, rest: CallTarget): PlannedTool {
  return Object.freeze({ ...definition, ...rest, definition, descriptor: describe(definition) }) as PlannedTool;
}

/** Plans kept per policy result: one per target, memory path and family binding in use. */
const PLANS_PER_RESULT = 16;

/** Ids for schema objects, so a family tool's key names its (cached, per-target) schema. */
const schemaIds = new WeakMap<object, number>();
let nextSchemaId = 0;
const schemaId = (schema: object): number => {
  let id = schemaIds.get(schema);
  if (id === undefined) schemaIds.set(schema, (id = nextSchemaId++));
  return id;
};

/** What makes two runs' family tools list the same: name, description, schema, mode, metadata. */
function familyKey(tools: readonly KernelTool[]): string {
  return tools.map((tool) => `${tool.name}\u0001${tool.description}\u0001${schemaId(tool.parameters)}\u0001${tool.executionMode ?? ''}\u0001${JSON.stringify(pickToolMetadata(tool))}`).join('\u0002');
}

export class ToolPlans {
  readonly #byResult = new WeakMap<readonly PolicyKept[], Map<string, ToolPlan>>();
  /**
   * A plugin tool's planned form per target: shared by every result that keeps it, so plans stay
   * arrays of references. Keyed by target first (a handful of schema dialects), so a tool costs
   * one look-up, not a look-up in a map of its own.
   */
  readonly #byTarget = new Map<string, WeakMap<SurfaceTool, PlannedTool>>();
  readonly #families = new WeakMap<readonly PolicyKept[], readonly FamilySurfaceTool[]>();

  constructor(private readonly toolSearch: ToolSearchConfig | undefined) {}

  /** The family entries the policy kept (a few at most; found once per result). */
  familiesOf(kept: readonly PolicyKept[]): readonly FamilySurfaceTool[] {
    let found = this.#families.get(kept);
    if (!found) this.#families.set(kept, (found = Object.freeze(kept.filter(isFamilyTool))));
    return found;
  }

  /** The plan for `kept` (frozen: the policy's cached result) with `families` bound for this run. */
  of(kept: readonly PolicyKept[], target: SchemaTarget, memoryWritePath: string | undefined, families: readonly KernelTool[]): ToolPlan {
    const targetKey = schemaTargetKey(target);
    const key = `${targetKey}\u0000${memoryWritePath ?? ''}\u0000${familyKey(families)}`;
    let plans = this.#byResult.get(kept);
    if (!plans) this.#byResult.set(kept, (plans = new Map()));
    let plan = plans.get(key);
    if (!plan) {
      if (plans.size >= PLANS_PER_RESULT) plans.delete(plans.keys().next().value as string);
      plans.set(key, (plan = this.#build(kept, target, targetKey, memoryWritePath, families)));
    }
    return plan;
  }

  #build(kept: readonly PolicyKept[], target: SchemaTarget, targetKey: string, memoryWritePath: string | undefined, families: readonly KernelTool[]): ToolPlan {
    const familyByName = new Map(families.map((tool) => [tool.name, tool]));
    let forTarget = this.#byTarget.get(targetKey);
    if (!forTarget) this.#byTarget.set(targetKey, (forTarget = new WeakMap()));
    const tools: PlannedTool[] = kept.map((source) => {
      if (isFamilyTool(source)) {
        const { execute: _execute, ...definition } = familyByName.get(source.name)!;
        return planned(Object.freeze(definition), { kind: 'family', source });
      }
      let tool = forTarget.get(source);
      if (!tool) forTarget.set(source, (tool = planned(pluginToolDefinition(source, normalizeToolSchema(source.contribution.inputSchema, target)), { kind: 'plugin', source })));
      // A memory run's write is the kernel's append to its one path (the policy left it only read and write).
      return memoryWritePath !== undefined && source.name === 'write' ? planned(memoryWriteDefinition(tool.definition, memoryWritePath), { kind: 'memory-write', source }) : tool;
    });
    // Large runs list their deferrable tools only once `tool_search` found them.
    const search = layoutToolSearch(tools, this.toolSearch);
    const searchTool = search && planned(search.definition, { kind: 'search' });
    if (searchTool) tools.push(searchTool);
    let byName: Map<string, PlannedTool> | undefined;
    const listedBySession = new WeakMap<ReadonlySet<string>, { size: number; descriptors: readonly ToolDescriptor[] }>();
    const descriptors = Object.freeze(tools.map((tool) => tool.descriptor));
    const pluginTools = pluginToolsOf(kept);
    for (const names of Object.values(pluginTools)) Object.freeze(names);
    return Object.freeze({
      tools: Object.freeze(tools),
      descriptors,
      search,
      // Built on the first call: most assemblies only list.
      find: (name: string) => (byName ??= new Map(tools.map((tool) => [normalizeToolPolicyName(tool.name), tool]))).get(name),
      listed(discovered: ReadonlySet<string>) {
        if (!search) return descriptors;
        let view = listedBySession.get(discovered);
        // A session's found tools only grow, so the same size is the same list.
        if (view?.size !== discovered.size) {
          view = { size: discovered.size, descriptors: Object.freeze(search.listed(discovered, searchTool!).map((tool) => tool.descriptor)) };
          listedBySession.set(discovered, view);
        }
        return view.descriptors;
      },
      pluginTools: Object.freeze(pluginTools) as Record<string, string[]>,
    });
  }
}
