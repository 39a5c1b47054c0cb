/**
 * A request deadline that always fires. Node 20 may garbage-collect a signal from AbortSignal.timeout that only
 * AbortSignal.any (or nothing) holds, and its timer then never aborts anything: the forward route answered after a
 * 12 s tool delay despite its 6 s deadline, once in a full test run. Here the timer's closure holds the controller,
 * so the deadline lives as long as it is pending.
 */
export interface Deadline {
  readonly signal: AbortSignal;
  /** True when the deadline (not the parent) aborted the signal. */
  expired(): boolean;
  /** Stops the timer; call when the guarded work is done so nothing waits on it. */
  clear(): void;
}

export function startDeadline(timeoutMs: number, parent?: AbortSignal | null): Deadline {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, "TimeoutError"));
  }, timeoutMs);
  const onParentAbort = () => {
    clearTimeout(timer);
    controller.abort(parent?.reason);
  };
  if (parent) {
    if (parent.aborted) onParentAbort();
    else parent.addEventListener("abort", onParentAbort, { once: true });
  }
  return {
    signal: controller.signal,
    expired: () => expired,
    clear: () => {
      clearTimeout(timer);
      parent?.removeEventListener("abort", onParentAbort);
    },
  };
}
