import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BEFORE_CALL_MERGE_TABLE, createToolGate, emptyDecision, isCallPathError, mergeDecision, type BeforeToolCallResult,
} from '../../kernel/gate/index.js';
import { ctx, hook, recordingTool } from './helpers.js';

const approval = { title: 'Review', description: 'please' };

const answer: fc.Arbitrary<BeforeToolCallResult> = fc.record(
  {
    block: fc.boolean(),
    blockReason: fc.string(),
    params: fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.jsonValue()),
    requireApproval: fc.constant(approval),
  },
  { requiredKeys: [] },
);

describe('the merge table', () => {
  it('declares one row per merged field, with the block row ending the chain', () => {
    expect(BEFORE_CALL_MERGE_TABLE.map((row) => [row.field, row.rule])).toEqual([
      ['block', 'stickyTrue'],
      ['blockReason', 'lastDefined'],
      ['requireApproval', 'firstApprovalWins'],
      ['params', 'shallowMergeUntilApproval'],
      ['approvalSnapshot', 'snapshotAtFirstApproval'],
    ]);
    expect(BEFORE_CALL_MERGE_TABLE.filter((row) => row.stopsChain).map((row) => row.field)).toEqual(['block']);
  });

  it('property: once any answer blocks, no later answer unblocks or changes the verdict', () => {
    fc.assert(
      fc.property(fc.array(answer), fc.array(answer), (before, after) => {
        let decision = emptyDecision();
        for (const a of before) decision = mergeDecision(decision, a, 'p', {});
        decision = mergeDecision(decision, { block: true, blockReason: 'stop' }, 'blocker', {});
        const blocked = decision;
        for (const a of after) decision = mergeDecision(decision, { ...a, block: false }, 'late', {});
        expect(decision.block).toBe(true);
        expect(decision).toBe(blocked);
      }),
    );
  });

  it('property: the approval snapshot never changes after the first approval request', () => {
    fc.assert(
      fc.property(answer, fc.array(answer), fc.dictionary(fc.constantFrom('a', 'x'), fc.jsonValue()), (first, later, base) => {
        let decision = mergeDecision(emptyDecision(), { ...first, block: false, requireApproval: approval }, 'first', base);
        const snapshot = structuredClone(decision.approvalSnapshot);
        const request = decision.requireApproval;
        for (const a of later) {
          decision = mergeDecision(decision, a, 'later', base);
          if (decision.block) break;
          expect(decision.approvalSnapshot).toEqual(snapshot);
          expect(decision.requireApproval).toBe(request);
        }
        expect(Object.isFrozen(decision.approvalSnapshot)).toBe(true);
      }),
    );
  });

  it('property: every thrown or timed-out handler makes the call fail and the tool never runs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('ok', 'rewrite', 'throw', 'timeout', 'garbage'), { minLength: 1, maxLength: 5 }),
        async (kinds) => {
          const tool = recordingTool();
          const hooks = kinds.map((kind, i) => ({
            pluginId: `p${i}`,
            timeoutMs: 5,
            handler: async (): Promise<BeforeToolCallResult | undefined> => {
              if (kind === 'throw') throw new Error('crash');
              if (kind === 'timeout') return new Promise(() => undefined);
              if (kind === 'garbage') return 'yes' as never;
              return kind === 'rewrite' ? { params: { i } } : undefined;
            },
          }));
          const failing = kinds.some((k) => k === 'throw' || k === 'timeout' || k === 'garbage');
          const outcome = await createToolGate({ hooks }).wrap(tool).execute({}, ctx()).then(() => 'ran', (e) => e);
          if (failing) {
            expect(isCallPathError(outcome) && outcome.code).toBe('POLICY_HOOK_FAILED');
            expect(tool.calls).toEqual([]);
          } else {
            expect(outcome).toBe('ran');
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('lets a lower-priority block: false not cancel a higher-priority block', async () => {
    const tool = recordingTool();
    const gate = createToolGate({ hooks: [hook('high', { block: true, blockReason: 'no' }, 10), hook('low', { block: false }, 1)] });
    const result = await gate.wrap(tool).execute({}, ctx());
    expect(result.details?.reason).toBe('no');
    expect(tool.calls).toEqual([]);
  });

  it('keeps the first approval request and stamps it with the plugin that asked', () => {
    let d = mergeDecision(emptyDecision(), { requireApproval: { title: 'first', description: '' } }, 'plugin-a', {});
    d = mergeDecision(d, { requireApproval: { title: 'second', description: '' } }, 'plugin-b', {});
    expect(d.requireApproval).toMatchObject({ title: 'first', pluginId: 'plugin-a' });
  });

  it('ignores param rewrites after an approval request but still honours a later block', () => {
    let d = mergeDecision(emptyDecision(), { params: { a: 1 }, requireApproval: approval }, 'p', { a: 0, b: 0 });
    d = mergeDecision(d, { params: { a: 2 } }, 'q', { a: 0, b: 0 });
    expect(d.approvalSnapshot).toEqual({ a: 1, b: 0 });
    expect(d.params).toEqual({ a: 1 });
    d = mergeDecision(d, { block: true }, 'r', {});
    expect(d.block).toBe(true);
  });
});
