import { describe, expect, it } from 'vitest';
import { planStep, type StepPlanInput } from '../../../src/indexer/step-plan.ts';

const base: StepPlanInput = { next: 0, head: 10_000, confirmations: 0, reorgWindow: 128, rangeBlocks: 500, blocksPerStep: 32 };

describe('planStep', () => {
  it('reads old blocks as ranges that stop before the reorg window', () => {
    expect(planStep(base)).toEqual({ kind: 'range', from: 0, to: 499 });
    expect(planStep({ ...base, next: 9700 })).toEqual({ kind: 'range', from: 9700, to: 9872 });
  });

  it('reads the reorg window block by block, up to the confirmed head', () => {
    expect(planStep({ ...base, next: 9873 })).toEqual({ kind: 'blocks', from: 9873, to: 9904 });
    expect(planStep({ ...base, next: 9990, confirmations: 3 })).toEqual({ kind: 'blocks', from: 9990, to: 9997 });
    expect(planStep({ ...base, next: 10_000 })).toEqual({ kind: 'blocks', from: 10_000, to: 10_000 });
  });

  it('has nothing to do until a block past the checkpoint is confirmed', () => {
    expect(planStep({ ...base, next: 10_001 })).toBeNull();
    expect(planStep({ ...base, next: 9999, confirmations: 2 })).toBeNull();
    expect(planStep({ ...base, head: 1, confirmations: 5 })).toBeNull();
  });

  it('reads a young chain entirely inside the window block by block', () => {
    expect(planStep({ ...base, head: 40 })).toEqual({ kind: 'blocks', from: 0, to: 31 });
  });
});
