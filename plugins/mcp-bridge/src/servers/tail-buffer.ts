/** The last lines a server wrote to stderr, bounded, for error messages ("it said: …"). */
export class TailBuffer {
  #lines: string[] = [];
  #partial = '';

  constructor(
    private readonly maxLines: number,
    private readonly maxChars: number,
  ) {}

  push(text: string): void {
    const parts = (this.#partial + text).split('\n');
    this.#partial = parts.pop()!.slice(-this.maxChars);
    for (const line of parts) if (line.trim() !== '') this.#lines.push(line.slice(0, 500));
    if (this.#lines.length > this.maxLines) this.#lines.splice(0, this.#lines.length - this.maxLines);
  }

  lines(): string[] {
    return this.#partial.trim() ? [...this.#lines, this.#partial.slice(0, 500)] : [...this.#lines];
  }

  /** `; its stderr ended with: …` or nothing. Control characters are escaped: it is the server's text. */
  describe(): string {
    const tail = this.lines().slice(-3).join(' | ');
    if (!tail) return '';
    const cut = tail.length > this.maxChars ? `…${tail.slice(-this.maxChars)}` : tail;
    return `; its stderr ended with: ${cut.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}`;
  }
}
