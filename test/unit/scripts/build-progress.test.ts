import { describe, expect, it } from 'vitest';
import { progressLine, summaryLine } from '../../../scripts/build-progress.ts';

describe('the build’s progress line', () => {
  it('names the step, the pages rendered of all there are, and the seconds so far', () => {
    expect(progressLine('no build yet', { step: 'preparing' }, 4_400)).toBe('Building the site (no build yet): preparing, 4 s');
    expect(progressLine('no build yet', { step: 'pages', rendered: 120, total: 380 }, 23_600)).toBe('Building the site (no build yet): 120 of 380 pages, 24 s');
    expect(progressLine(undefined, { step: 'pages', rendered: 380, total: 380 }, 40_000)).toBe(
      'Building the site: 380 of 380 pages, writing twins, llms.txt and search, 40 s',
    );
    expect(progressLine(undefined, { step: 'compressing' }, 45_000)).toBe('Building the site: compressing, 45 s');
  });

  it('sums up the build', () => {
    expect(summaryLine(380, 52_300)).toBe('Built the site: 380 pages in 52 s.');
    expect(summaryLine(null, 1_000)).toBe('Built the site in 1 s.');
  });
});
