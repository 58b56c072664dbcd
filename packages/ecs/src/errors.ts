/** Thrown for misuse of a public function of `@cuttle/ecs` (bad entity, duplicate component, ...). */
export class EcsError extends Error {
  /** Always `'EcsError'`. */
  override readonly name: string = 'EcsError';
}

/**
 * Thrown by the archive loader for truncated, corrupted or incompatible input. When it is
 * thrown the world is exactly as it was before the load started.
 */
export class ArchiveError extends EcsError {
  /** Always `'ArchiveError'`. */
  override readonly name: string = 'ArchiveError';
}

/** Internal: the load's seed maps a non-zero id to INVALID_ENTITY; a drawn seed is redrawn. */
export class SeedMapsToZeroError extends ArchiveError {
  override readonly name: string = 'ArchiveError';
}
