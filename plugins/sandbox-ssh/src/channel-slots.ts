/**
 * Slots for the channels of one connection. The limit is either configured or learned: an
 * ssh server does not announce how many sessions it allows per connection, but it refuses
 * the one past its limit, and the number then open is the limit.
 */
export class ChannelSlots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private learned: number | undefined;

  constructor(private readonly configured: number | undefined) {}

  get limit(): number {
    return Math.min(this.configured ?? Number.POSITIVE_INFINITY, this.learned ?? Number.POSITIVE_INFINITY);
  }

  /** Resolves with the release of a slot once one is free (FIFO). */
  async acquire(): Promise<() => void> {
    while (this.active >= this.limit) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.();
    };
  }

  /**
   * The server refused the channel of a slot held now. With other channels open, that is its
   * limit: remember it and return true (the caller releases and waits for a slot). With none
   * open the refusal is a real failure: false.
   */
  learnLimitFromRefusal(): boolean {
    const others = this.active - 1;
    if (others < 1) return false;
    this.learned = Math.min(this.learned ?? others, others);
    return true;
  }
}
