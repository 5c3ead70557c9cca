// A bound on answers computed at once (CONCURRENT_ANSWERS), so that expensive requests cannot take
// every engine thread from the cheap ones; the rest wait in a bounded FIFO queue (ANSWER_QUEUE) and
// past it get 503 with Retry-After at once. Only computing is bounded (the answer stage wraps the
// handler and encoding with `run`): cache hits, fast answers, docs and /healthz never wait. A waiting
// request whose client disconnects leaves the queue.
import type { ServerResponse } from 'node:http';
import { ApiError } from '../../queries/shared/errors.ts';

/** Retry-After of a 503 past the queue, seconds. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

/** A 503 of the bound: the queue is full, or the answer was not computed (its first asker left; a request sharing it retries). */
export class Overloaded extends ApiError {
  constructor(message: string) {
    super(503, 'overloaded', message);
    this.name = 'Overloaded';
  }
}

function clientGone(): Overloaded {
  return new Overloaded(`the answer was not computed: the request that asked for it first disconnected while it waited; retry in ${OVERLOADED_RETRY_AFTER_SECONDS} s`);
}

export class AnswerSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  /** `concurrent` 0: unbounded. */
  constructor(readonly concurrent: number, readonly queue: number) {}

  /** Requests computing and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Runs `compute` in a slot, waiting for one in the queue; `response` closing first (the client left) takes it out. */
  async run<T>(compute: () => Promise<T>, response: ServerResponse): Promise<T> {
    if (this.concurrent === 0) return compute();
    if (this.running >= this.concurrent) await this.wait(response);
    else this.running += 1;
    try {
      return await compute();
    } finally {
      this.release();
    }
  }

  private wait(response: ServerResponse): Promise<void> {
    if (this.waiting.length >= this.queue) {
      throw new Overloaded(`the server is computing ${this.running} answers and ${this.waiting.length} more wait; retry in ${OVERLOADED_RETRY_AFTER_SECONDS} s`);
    }
    if (response.destroyed) throw clientGone();
    return new Promise<void>((resolve, reject) => {
      // The slot is handed over by release(): `running` is not decremented in between.
      const start = () => {
        response.off('close', leave);
        resolve();
      };
      const leave = () => {
        const index = this.waiting.indexOf(start);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(clientGone());
      };
      response.once('close', leave);
      this.waiting.push(start);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}
