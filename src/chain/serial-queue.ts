/** Runs tasks one at a time in arrival order; `size` counts the running task and those waiting. */
export interface SerialQueue {
  readonly size: number;
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  let size = 0;
  return {
    get size() {
      return size;
    },
    run(task) {
      size++;
      const result = tail.then(task).finally(() => size--);
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
