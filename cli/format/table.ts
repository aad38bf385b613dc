/**
 * Aligned plain-text tables. Widths are measured on the visible text (ANSI codes stripped), so
 * coloured cells line up; the last column is never padded (no trailing spaces) and, when a
 * terminal width is given, is cut with an ellipsis instead of wrapping into the next row.
 */
import { stripAnsi } from './color.js';

export interface Column {
  header: string;
  align?: 'left' | 'right';
}

export interface TableOptions {
  /** Terminal width; when set, the last column is truncated to fit. */
  width?: number;
  /** Styles the header row (e.g. bold); identity by default. */
  headerStyle?: (text: string) => string;
  /** Spaces between columns. */
  gap?: number;
}

export function renderTable(columns: Column[], rows: string[][], options: TableOptions = {}): string {
  const gap = ' '.repeat(options.gap ?? 2);
  const style = options.headerStyle ?? ((t: string) => t);
  // A cell is one line: multi-line descriptions would break alignment.
  const cells = rows.map((row) => columns.map((_, i) => firstLine(row[i] ?? '')));
  const widths = columns.map((col, i) =>
    Math.max(visibleLength(col.header), ...cells.map((row) => visibleLength(row[i]))),
  );

  const line = (row: string[], header: boolean): string => {
    const parts = row.map((cell, i) => {
      const text = header ? style(cell) : cell;
      const isLast = i === row.length - 1;
      if (isLast && columns[i].align !== 'right') return text;
      return pad(text, widths[i], columns[i].align ?? 'left');
    });
    // An empty last cell would otherwise leave the gap as trailing spaces.
    const joined = parts.join(gap).trimEnd();
    return options.width ? truncateVisible(joined, options.width) : joined;
  };

  return [line(columns.map((c) => c.header), true), ...cells.map((row) => line(row, false))].join('\n');
}

export function visibleLength(text: string): number {
  return [...stripAnsi(text)].length;
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - visibleLength(text)));
  return align === 'right' ? fill + text : text + fill;
}

function firstLine(text: string): string {
  const newline = text.indexOf('\n');
  return newline === -1 ? text : `${text.slice(0, newline)} …`;
}

/** Cuts a line to `width` visible characters; drops styling when it must cut (rare, and safe). */
export function truncateVisible(text: string, width: number): string {
  if (visibleLength(text) <= width) return text;
  const plain = [...stripAnsi(text)];
  return `${plain.slice(0, Math.max(0, width - 1)).join('')}…`;
}
