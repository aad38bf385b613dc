/**
 * The shell blocks of a Markdown file that are marked runnable: a `<!-- runnable -->` line, then
 * (blank lines allowed) a fenced block in sh, bash or shell. The docs test runs each one in a
 * fresh folder with the built `pincer` on PATH and fails on a non-zero exit.
 */
export const RUNNABLE_MARKER = '<!-- runnable -->';

export interface RunnableBlock {
  /** 1-based line of the marker, for the test's name. */
  line: number;
  script: string;
}

export class RunnableMarkerError extends Error {
  override readonly name = 'RunnableMarkerError';
}

export function runnableBlocks(markdown: string): RunnableBlock[] {
  const lines = markdown.split('\n');
  const blocks: RunnableBlock[] = [];
  lines.forEach((text, index) => {
    if (text.trim() !== RUNNABLE_MARKER) return;
    let at = index + 1;
    while (at < lines.length && lines[at]!.trim() === '') at += 1;
    const fence = /^```(sh|bash|shell)\s*$/.exec(lines[at] ?? '');
    if (!fence) throw new RunnableMarkerError(`line ${index + 1}: ${RUNNABLE_MARKER} must be followed by a \`\`\`sh, bash or shell block`);
    const end = lines.findIndex((l, i) => i > at && l.startsWith('```'));
    if (end === -1) throw new RunnableMarkerError(`line ${index + 1}: the block after ${RUNNABLE_MARKER} is never closed`);
    blocks.push({ line: index + 1, script: lines.slice(at + 1, end).join('\n') });
  });
  return blocks;
}
