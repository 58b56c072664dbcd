// Frame pacing for the stream. A tool asks for `fps` frames per second: frames are due on a grid
// of that interval, counted from render starts, so the time a frame takes to render, encode and
// send does not stretch the interval (pacing from the send gives 30 fps only when frames cost
// nothing). A frame that starts late takes the slot it fell in, and the next one is due at the
// following slot: slow frames come back to back, and after a stall the stream resumes at its
// rate with no burst of catch-up frames.

/** When the frame after one that was due at `due` and started rendering at `start` is due. */
export function nextFrameDue(due: number, fps: number, start: number): number {
  const interval = 1000 / fps;
  const slotsMissed = Math.max(0, Math.floor((start - due) / interval));
  return due + (slotsMissed + 1) * interval;
}
