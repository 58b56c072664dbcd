// Column-major matrices for the crowd camera (WebGPU clip depth 0..1).

export function multiply(a: ArrayLike<number>, b: ArrayLike<number>): Float32Array<ArrayBuffer> {
  const out = new Float32Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += a[k * 4 + r]! * b[c * 4 + k]!;
      out[c * 4 + r] = sum;
    }
  }
  return out;
}

export function perspective(fovY: number, aspect: number, near: number, far: number): Float32Array<ArrayBuffer> {
  const f = 1 / Math.tan(fovY / 2);
  return new Float32Array([f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, far / (near - far), -1, 0, 0, (near * far) / (near - far), 0]);
}

export function lookAt(eye: readonly number[], target: readonly number[]): Float32Array<ArrayBuffer> {
  const z = [eye[0]! - target[0]!, eye[1]! - target[1]!, eye[2]! - target[2]!];
  const zl = Math.hypot(z[0]!, z[1]!, z[2]!);
  for (let i = 0; i < 3; i++) z[i]! /= zl;
  const x = [z[2]!, 0, -z[0]!];
  const xl = Math.hypot(x[0]!, x[2]!);
  x[0]! /= xl;
  x[2]! /= xl;
  const y = [z[1]! * x[2]! - z[2]! * x[1]!, z[2]! * x[0]! - z[0]! * x[2]!, z[0]! * x[1]! - z[1]! * x[0]!];
  const dot = (a: number[]): number => a[0]! * eye[0]! + a[1]! * eye[1]! + a[2]! * eye[2]!;
  return new Float32Array([x[0]!, y[0]!, z[0]!, 0, x[1]!, y[1]!, z[1]!, 0, x[2]!, y[2]!, z[2]!, 0, -dot(x), -dot(y), -dot(z), 1]);
}
