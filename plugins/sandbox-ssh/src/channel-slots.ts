/** One held slot: `opened` once the server confirmed the channel, `release` when it is gone. */
export interface ChannelSlot {
  opened(): void;
  release(): void;
}

/**
 * Slots for the channels of one connection. The limit is either configured or learned: an
 * ssh server does not announce how many sessions it allows per connection, but it refuses
 * the one past its limit. With requests in flight, the count of the others at a refusal is
 * an upper bound (some of them may be refused too); the most channels ever seen open at once
 * is a lower bound the limit never goes under. After a burst the two meet at the server's.
 */
export class ChannelSlots {
  private active = 0;
  private confirmed = 0;
  private readonly waiting: Array<() => void> = [];
  private learned: number | undefined;
  private peak = 0;

  constructor(private readonly configured: number | undefined) {}

  get limit(): number {
    return Math.min(this.configured ?? Number.POSITIVE_INFINITY, this.learned ?? Number.POSITIVE_INFINITY);
  }

  /** Resolves with a slot once one is free (FIFO). */
  async acquire(): Promise<ChannelSlot> {
    while (this.active >= this.limit) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    let open = false;
    let released = false;
    return {
      opened: () => {
        if (open || released) return;
        open = true;
        this.confirmed++;
        this.peak = Math.max(this.peak, this.confirmed);
        if (this.learned !== undefined) this.learned = Math.max(this.learned, this.peak);
      },
      release: () => {
        if (released) return;
        released = true;
        this.active--;
        if (open) this.confirmed--;
        this.waiting.shift()?.();
      },
    };
  }

  /**
   * The server refused a channel whose slot is still held. With others of ours open or
   * opening, that is its limit (or it has not yet freed one we saw close): lower the learned
   * limit, never under the proven peak, and return true: the caller releases and retries for
   * a slot. With none, the refusal is a real failure: false.
   */
  learnFromRefusal(): boolean {
    const others = this.active - 1;
    if (others < 1) return false;
    this.learned = Math.max(Math.min(this.learned ?? others, others), this.peak);
    return true;
  }
}
