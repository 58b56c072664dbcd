// The benchmark's three passes (depth prepass, shadow map, main colour pass), two ways: vertex
// shaders that skin the packed mesh themselves (skinned_*), and plain vertex shaders that read
// what the compute pass skinned (plain_*). Fragment work is the same for both.
struct Bone {
  r0: vec4<f32>,
  r1: vec4<f32>,
  r2: vec4<f32>,
}

struct Frame {
  view_proj: mat4x4<f32>,
  light_view_proj: mat4x4<f32>,
  previous_view_proj: mat4x4<f32>,
  bones_per_instance: u32,
}

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read> palette: array<Bone>;
@group(0) @binding(2) var<storage, read> previous_palette: array<Bone>;

struct SkinIn {
  @location(0) position: vec3<f32>,
  @location(1) normal: vec4<f32>,
  @location(2) joints: vec4<u32>,
  // Weights as integer units of 1/65535, so the loop stops exactly when they are used up.
  @location(3) units: vec4<u32>,
}

struct MainOut {
  @builtin(position) clip: vec4<f32>,
  @location(0) normal: vec3<f32>,
  @location(1) current: vec4<f32>,
  @location(2) previous: vec4<f32>,
}

fn bone_point(m: Bone, p: vec3<f32>) -> vec3<f32> {
  let h = vec4<f32>(p, 1.0);
  return vec3<f32>(dot(m.r0, h), dot(m.r1, h), dot(m.r2, h));
}

fn bone_vector(m: Bone, v: vec3<f32>) -> vec3<f32> {
  return vec3<f32>(dot(m.r0.xyz, v), dot(m.r1.xyz, v), dot(m.r2.xyz, v));
}

fn skinned_position(v: SkinIn, base: u32) -> vec3<f32> {
  var p = vec3<f32>(0.0);
  var units = 0u;
  for (var i = 0u; i < 4u && units < 65535u; i++) {
    p += f32(v.units[i]) / 65535.0 * bone_point(palette[base + v.joints[i]], v.position);
    units += v.units[i];
  }
  return p;
}

fn skinned_previous_position(v: SkinIn, base: u32) -> vec3<f32> {
  var p = vec3<f32>(0.0);
  var units = 0u;
  for (var i = 0u; i < 4u && units < 65535u; i++) {
    p += f32(v.units[i]) / 65535.0 * bone_point(previous_palette[base + v.joints[i]], v.position);
    units += v.units[i];
  }
  return p;
}

fn skinned_normal(v: SkinIn, base: u32) -> vec3<f32> {
  var n = vec3<f32>(0.0);
  var units = 0u;
  for (var i = 0u; i < 4u && units < 65535u; i++) {
    n += f32(v.units[i]) / 65535.0 * bone_vector(palette[base + v.joints[i]], v.normal.xyz);
    units += v.units[i];
  }
  return normalize(n);
}

@vertex
fn skinned_depth(v: SkinIn, @builtin(instance_index) instance: u32) -> @builtin(position) vec4<f32> {
  return frame.view_proj * vec4<f32>(skinned_position(v, instance * frame.bones_per_instance), 1.0);
}

@vertex
fn skinned_shadow(v: SkinIn, @builtin(instance_index) instance: u32) -> @builtin(position) vec4<f32> {
  return frame.light_view_proj * vec4<f32>(skinned_position(v, instance * frame.bones_per_instance), 1.0);
}

@vertex
fn skinned_main(v: SkinIn, @builtin(instance_index) instance: u32) -> MainOut {
  let base = instance * frame.bones_per_instance;
  var out: MainOut;
  out.clip = frame.view_proj * vec4<f32>(skinned_position(v, base), 1.0);
  out.normal = skinned_normal(v, base);
  out.current = out.clip;
  out.previous = out.clip;
  return out;
}

// Motion vectors by vertex skinning: the previous frame's palette skins the vertex a second time.
@vertex
fn skinned_main_motion(v: SkinIn, @builtin(instance_index) instance: u32) -> MainOut {
  let base = instance * frame.bones_per_instance;
  var out: MainOut;
  out.clip = frame.view_proj * vec4<f32>(skinned_position(v, base), 1.0);
  out.normal = skinned_normal(v, base);
  out.current = out.clip;
  out.previous = frame.previous_view_proj * vec4<f32>(skinned_previous_position(v, base), 1.0);
  return out;
}

@vertex
fn plain_depth(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {
  return frame.view_proj * vec4<f32>(position, 1.0);
}

@vertex
fn plain_shadow(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {
  return frame.light_view_proj * vec4<f32>(position, 1.0);
}

@vertex
fn plain_main(@location(0) position: vec3<f32>, @location(1) normal: vec4<f32>) -> MainOut {
  var out: MainOut;
  out.clip = frame.view_proj * vec4<f32>(position, 1.0);
  out.normal = normal.xyz;
  out.current = out.clip;
  out.previous = out.clip;
  return out;
}

// Motion vectors from the compute pass's previous positions: one more attribute.
@vertex
fn plain_main_motion(@location(0) position: vec3<f32>, @location(1) normal: vec4<f32>, @location(3) previous: vec3<f32>) -> MainOut {
  var out: MainOut;
  out.clip = frame.view_proj * vec4<f32>(position, 1.0);
  out.normal = normal.xyz;
  out.current = out.clip;
  out.previous = frame.previous_view_proj * vec4<f32>(previous, 1.0);
  return out;
}

fn lit(normal: vec3<f32>) -> vec4<f32> {
  let light = max(dot(normalize(normal), normalize(vec3<f32>(0.4, 1.0, 0.3))), 0.0);
  return vec4<f32>(vec3<f32>(0.2 + 0.8 * light), 1.0);
}

@fragment
fn shade(in: MainOut) -> @location(0) vec4<f32> {
  return lit(in.normal);
}

struct Targets {
  @location(0) colour: vec4<f32>,
  @location(1) motion: vec2<f32>,
}

@fragment
fn shade_motion(in: MainOut) -> Targets {
  var out: Targets;
  out.colour = lit(in.normal);
  out.motion = in.current.xy / in.current.w - in.previous.xy / in.previous.w;
  return out;
}
