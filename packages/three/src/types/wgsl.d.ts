// The workspace packages this one imports (gpu-fluid, gpu-primitives) import their WGSL as text;
// type-checking them from source needs the module declaration. Published builds inline it.
// WGSL sources are imported as strings (Vite's ?raw; tsup and the bench runner do the same).
declare module '*.wgsl?raw' {
  const source: string;
  export default source;
}
