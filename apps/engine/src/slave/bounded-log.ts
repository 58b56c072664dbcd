// The engine's log lines go to stderr, which is a pipe when a tool or a test started the
// engine. Node queues what a pipe does not take at once, so a reader that falls behind while a
// tool floods log lines would grow the engine's memory without bound (measured: 60 MB queued
// within two seconds). Past LOG_QUEUE_BYTES queued, lines are dropped and counted; the count
// is written once the stream takes lines again.

/** Bytes queued on stderr past which log lines are dropped. */
export const LOG_QUEUE_BYTES = 1024 * 1024;

export interface LineSink {
  write(text: string): void;
  /** Bytes written but not yet taken by the stream. */
  queued(): number;
}

/** A line writer that drops lines while `sink` has more than `limit` bytes queued. */
export function boundedLines(sink: LineSink, droppedLine: (count: number) => string, limit = LOG_QUEUE_BYTES): (text: string) => void {
  let dropped = 0;
  return (text) => {
    if (sink.queued() > limit) {
      dropped++;
      return;
    }
    if (dropped > 0) {
      sink.write(droppedLine(dropped));
      dropped = 0;
    }
    sink.write(text);
  };
}
