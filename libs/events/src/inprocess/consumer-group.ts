import type { EventHandler, Subscription } from "../bus.js";
import type { DeadLetterInfo } from "../deadletter.js";
import { deliver, type DeliveryOutcome, type DeliveryPolicy } from "../delivery.js";
import type { EventEnvelope } from "../envelope.js";
import { resolveRetryDelay } from "../retry.js";
import { matchesAny } from "../subjects.js";
import type { TraceCarrier } from "../tracing.js";

export interface Delivery {
  event: EventEnvelope;
  carrier: TraceCarrier;
  attempt: number;
}

interface Member {
  handler: EventHandler<any>;
  concurrency: number;
  running: Set<Promise<void>>;
}

/**
 * In-memory stand-in for a durable consumer: one queue per consumer name,
 * drained round-robin by its members. The queue outlives members, so events
 * published while nobody is subscribed wait for the next subscribe.
 */
export class ConsumerGroup {
  private readonly queue: Delivery[] = [];
  private readonly members: Member[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextMember = 0;
  private scheduled = false;

  constructor(
    public patterns: string[],
    private readonly policy: DeliveryPolicy,
    private readonly deadLetter: (info: DeadLetterInfo) => Promise<boolean>,
  ) {}

  accepts(type: string): boolean {
    return matchesAny(this.patterns, type);
  }

  enqueue(delivery: Delivery): void {
    this.queue.push(delivery);
    this.schedule();
  }

  join(handler: EventHandler<any>, concurrency: number): Subscription {
    const member: Member = { handler, concurrency, running: new Set() };
    this.members.push(member);
    this.schedule();
    let stopped: Promise<void> | undefined;
    return {
      consumer: this.policy.consumer,
      stop: () => {
        stopped ??= (async () => {
          const i = this.members.indexOf(member);
          if (i >= 0) this.members.splice(i, 1);
          await Promise.all(member.running);
        })();
        return stopped;
      },
    };
  }

  /** Cancels pending retries; returns how many deliveries are abandoned. */
  shutdown(): number {
    for (const t of this.timers) clearTimeout(t);
    const abandoned = this.queue.length + this.timers.size;
    this.timers.clear();
    this.queue.length = 0;
    return abandoned;
  }

  // Deferred so delivery is never synchronous inside publish(), as with a real broker.
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const member = this.pickMember();
      if (!member) return;
      this.run(member, this.queue.shift()!);
    }
  }

  private pickMember(): Member | undefined {
    const n = this.members.length;
    for (let i = 0; i < n; i++) {
      const m = this.members[(this.nextMember + i) % n];
      if (m.running.size < m.concurrency) {
        this.nextMember = (this.nextMember + i + 1) % n;
        return m;
      }
    }
    return undefined;
  }

  private run(member: Member, d: Delivery): void {
    const task: Promise<void> = deliver(this.policy, member.handler, d.event, d.attempt, d.carrier)
      .then((outcome) => this.settle(d, outcome))
      .catch((err) => this.policy.logger.error({ err, consumer: this.policy.consumer }, "failed to settle event"))
      .finally(() => {
        member.running.delete(task);
        this.schedule();
      });
    member.running.add(task);
  }

  private async settle(d: Delivery, outcome: DeliveryOutcome): Promise<void> {
    if (outcome.kind === "retry") {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.enqueue({ ...d, attempt: d.attempt + 1 });
      }, outcome.delayMs);
      this.timers.add(timer);
    } else if (outcome.kind === "dead") {
      await this.parkDead(d, outcome.error);
    }
  }

  /** As on JetStream: if the dead letter cannot be published, keep the event and try again later (no silent drop). */
  private async parkDead(d: Delivery, error: unknown): Promise<void> {
    if (await this.deadLetter({ consumer: this.policy.consumer, attempts: d.attempt, error, event: d.event })) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.parkDead(d, error).catch((err) => this.policy.logger.error({ err, consumer: this.policy.consumer }, "failed to settle event"));
    }, resolveRetryDelay(this.policy.retryDelay, d.attempt));
    this.timers.add(timer);
  }
}
