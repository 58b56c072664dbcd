// WGSL sources are imported as strings (Vite's ?raw; tsup and the bench runner do the same).
declare module '*.wgsl?raw' {
  const source: string;
  export default source;
}
