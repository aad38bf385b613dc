import { describe, expect, it } from 'vitest';
import { createColors, shouldColor, stripAnsi } from '../../cli/format/color.js';
import { renderTable } from '../../cli/format/table.js';

describe('renderTable', () => {
  it('aligns every column to its widest cell and leaves no trailing spaces', () => {
    const text = renderTable([{ header: 'NAME' }, { header: 'PLUGIN' }, { header: 'DESCRIPTION' }], [
      ['read', 'fs', 'Read a file'],
      ['apply_patch', 'fs', 'Apply a patch'],
    ]);
    expect(text.split('\n')).toEqual([
      'NAME         PLUGIN  DESCRIPTION',
      'read         fs      Read a file',
      'apply_patch  fs      Apply a patch',
    ]);
  });

  it('measures coloured cells by their visible width', () => {
    const c = createColors(true);
    const text = renderTable([{ header: 'A' }, { header: 'B' }], [[c.red('xx'), 'y'], ['zzzz', 'w']]);
    expect(stripAnsi(text).split('\n')).toEqual(['A     B', 'xx    y', 'zzzz  w']);
  });

  it('right-aligns numeric columns', () => {
    const text = renderTable([{ header: 'N', align: 'right' }, { header: 'X' }], [['7', 'a'], ['123', 'b']]);
    expect(text.split('\n')).toEqual(['  N  X', '  7  a', '123  b']);
  });

  it('cuts rows to the terminal width with an ellipsis and keeps only the first line of a cell', () => {
    const text = renderTable([{ header: 'K' }, { header: 'V' }], [['a', 'a very long description\nsecond line']], { width: 12 });
    for (const line of text.split('\n')) expect([...line].length).toBeLessThanOrEqual(12);
    expect(text).toContain('…');
    expect(text).not.toContain('second line');
  });
});

describe('colour', () => {
  it('is on only for a terminal without NO_COLOR, or when FORCE_COLOR asks for it', () => {
    expect(shouldColor({ isTTY: true }, {})).toBe(true);
    expect(shouldColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor({ isTTY: false }, {})).toBe(false);
    expect(shouldColor({}, { FORCE_COLOR: '1' })).toBe(true);
    expect(createColors(false).red('x')).toBe('x');
  });
});
