// The workspace packages this app imports (render, gpu-culling, gpu-fluid, gpu-skinning) import
// their WGSL as text; type-checking them from source needs the module declaration. The bench
// bundler and vitest inline it.
declare module '*.wgsl?raw' {
  const source: string;
  export default source;
}
