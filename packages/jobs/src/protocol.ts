// The few messages that do travel by postMessage: setup, each SharedArrayBuffer once (and once
// more when it is released), and
// failures (an Error object cannot live in shared memory). Jobs themselves never do.

export interface InitMessage {
  type: 'init';
  control: SharedArrayBuffer;
  slotCount: number;
  capacity: number;
  slot: number;
  /** This worker's serial in its slot (a replacement gets a new one). */
  serial: number;
  /** How long to poll for work before sleeping. */
  spinMicroseconds: number;
  /** Module URLs to import (default worker), or null when the worker script brings them. */
  kernelUrls: string[] | null;
  /** Kernel names in id order, to check both sides numbered the kernels alike. */
  kernelNames: string[];
  /** Buffers announced before this worker started, by id (released ones are holes). */
  buffers: (SharedArrayBuffer | undefined)[];
}

export interface BufferMessage {
  type: 'buffer';
  id: number;
  buffer: SharedArrayBuffer;
}

/** Buffers the pool no longer passes: the worker lets go of them. */
export interface ReleaseMessage {
  type: 'release';
  ids: number[];
}

export interface ReadyMessage {
  type: 'ready';
  slot: number;
}

export interface InitFailedMessage {
  type: 'init-failed';
  slot: number;
  message: string;
}

export interface FailureMessage {
  type: 'failure';
  kernel: string;
  jobIndex: number;
  groupIndex: number;
  error: unknown;
}

export type ToWorker = InitMessage | BufferMessage | ReleaseMessage;
export type FromWorker = ReadyMessage | InitFailedMessage | FailureMessage;
