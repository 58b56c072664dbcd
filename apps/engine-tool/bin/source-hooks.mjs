// Adds the workspace's `@cuttle/source` export condition, so packages load from src/.
export async function resolve(specifier, context, nextResolve) {
  const conditions = context.conditions.includes('@cuttle/source') ? context.conditions : [...context.conditions, '@cuttle/source'];
  return nextResolve(specifier, { ...context, conditions });
}
