/**
 * Signals between the parts of one process (KeyValueStore.signal/listen for the stores that only one process
 * opens: the in-memory and the embedded one). Each listen is its own subscription; a signal reaches the
 * listeners of its moment once, outside the caller's call, as a message from Redis would.
 */
export class LocalSignals {
  private readonly listeners = new Map<string, Set<() => void>>();

  signal(channel: string): void {
    const listeners = this.listeners.get(channel);
    if (!listeners) return;
    const now = [...listeners];
    queueMicrotask(() => {
      for (const listener of now) listener();
    });
  }

  listen(channel: string, listener: () => void): () => void {
    // Each call is its own subscription, even with the same function: stopping one leaves the others.
    const own = () => listener();
    let listeners = this.listeners.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.listeners.set(channel, listeners);
    }
    listeners.add(own);
    return () => {
      listeners.delete(own);
      if (listeners.size === 0 && this.listeners.get(channel) === listeners) this.listeners.delete(channel);
    };
  }
}
